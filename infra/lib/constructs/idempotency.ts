import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { AppFunction } from '../app-function';

/**
 * The records of Powertools' idempotency utility (functions/shared/idempotency.ts): one item
 * per operation and key, removed by TTL when it expires. They are transient, so the table is
 * never retained.
 */
export class IdempotencyStore extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      // The attribute names are the persistence layer's defaults.
      partitionKey: { name: 'id', type: AttributeType.STRING },
      timeToLiveAttribute: 'expiration',
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }

  /** Gives a function the table with exactly the calls the persistence layer makes. */
  bind(fn: AppFunction): AppFunction {
    return fn.bindTable(this.table, 'IDEMPOTENCY_TABLE', ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], { indexes: false });
  }
}
