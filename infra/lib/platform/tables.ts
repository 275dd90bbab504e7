import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';

/** A key attribute: its name when it holds strings, or the attribute with its type. */
type KeyAttribute = string | Attribute;

/** A global secondary index; every index of ours projects all attributes. */
interface TableIndex {
  name: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
}

export interface AppTableProps {
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  indexes?: TableIndex[];
  /** Attribute holding an item's expiry (epoch seconds), when items expire by themselves. */
  timeToLiveAttribute?: string;
  /**
   * Keep the table, protected from deletion, when the stack is deleted (stage config
   * `retainData`); transient records (idempotency, rate counters) pass false.
   */
  retain: boolean;
}

const attribute = (key: KeyAttribute): Attribute => (typeof key === 'string' ? { name: key, type: AttributeType.STRING } : key);

/**
 * Every table of ours: on-demand, encrypted with the AWS-managed key, with point-in-time
 * recovery, kept or removed with the stack as `retain` says.
 */
export class AppTable extends Table {
  constructor(scope: Construct, id: string, props: AppTableProps) {
    super(scope, id, {
      partitionKey: attribute(props.partitionKey),
      sortKey: props.sortKey === undefined ? undefined : attribute(props.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: props.timeToLiveAttribute,
      deletionProtection: props.retain,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    for (const index of props.indexes ?? []) {
      this.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: attribute(index.partitionKey),
        sortKey: index.sortKey === undefined ? undefined : attribute(index.sortKey),
        projectionType: ProjectionType.ALL,
      });
    }
  }
}
