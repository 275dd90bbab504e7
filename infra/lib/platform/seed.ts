import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { CfnTable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { REPO_ROOT, SEED_METADATA } from './template-names';

export { SEED_METADATA };

/** A JSON value as a DynamoDB AttributeValue, the shape the low-level PutItem call takes. */
export function toAttributeValue(value: unknown): Record<string, unknown> {
  if (value === null) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map(toAttributeValue) };
  if (typeof value === 'object') {
    return {
      M: Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, toAttributeValue(v)]),
      ),
    };
  }
  throw new Error(`A seed item cannot hold a ${typeof value}`);
}

export interface SeedItemsProps {
  table: Table;
  /** JSON file holding an array of items, relative to the repository root. */
  file: string;
  /** Validates the file's contents (it fails synthesis when they are wrong) and returns the items. */
  parse: (data: unknown) => Array<Record<string, unknown>>;
  /** The item attribute that names it (its partition key), used for stable construct ids. */
  keyAttribute: string;
}

/**
 * Puts a seed file's items into a table on every deployment that changes them: one
 * idempotent PutItem per item, run by AWS's SDK-call custom resource. Removing an item from
 * the file leaves it in the table (hide it instead); nothing is deleted with the stack, since
 * the table itself may be retained.
 */
export class SeedItems extends Construct {
  readonly items: Array<Record<string, unknown>>;

  constructor(scope: Construct, id: string, props: SeedItemsProps) {
    super(scope, id);
    this.items = props.parse(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, props.file), 'utf8')));
    (props.table.node.defaultChild as CfnTable).addMetadata(SEED_METADATA, props.file);

    // The provider function's own role and log group: it may put items in this table and
    // write its logs, nothing else (no AWS managed policy).
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    role.addToPolicy(new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [props.table.tableArn] }));

    for (const item of this.items) {
      const key = String(item[props.keyAttribute]);
      const put = {
        service: 'DynamoDB',
        action: 'PutItem',
        parameters: {
          TableName: props.table.tableName,
          Item: toAttributeValue(item).M,
        },
        physicalResourceId: PhysicalResourceId.of(`seed-${key}`),
      };
      const resource = new AwsCustomResource(this, `Item-${key}`, {
        onCreate: put,
        onUpdate: put,
        role,
        logGroup,
        installLatestAwsSdk: false,
        timeout: Duration.minutes(1),
      });
      resource.node.addDependency(role);
    }
  }
}
