import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { AppFunction } from '../app-function';

/**
 * Fixed-window counters of free actions per IP, address and session
 * (functions/shared/rate-limit.ts). Keys hold only hashes; items expire by TTL; the table is
 * transient, so it is never retained.
 */
export class RateLimits extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      timeToLiveAttribute: 'expiresAt',
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }

  /** Gives a function the counters: one conditional UpdateItem per rule. */
  bind(fn: AppFunction): AppFunction {
    return fn.bindTable(this.table, 'RATE_LIMITS_TABLE', ['UpdateItem'], { indexes: false });
  }
}
