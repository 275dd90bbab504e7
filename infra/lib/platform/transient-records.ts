import { Construct } from 'constructs';
import type { AppFunction, TableAction } from './app-function';
import { AppTable } from './tables';

interface TransientRecordsProps {
  partitionKey: string;
  timeToLiveAttribute: string;
  /** The environment variable every bound function reads the table's name from. */
  envName: string;
  /** The calls the shared code makes, the same for every bound function. */
  actions: TableAction[];
}

/**
 * A table of short-lived records that functions reach through one piece of shared code: every
 * function bound to it gets the same variable and calls. Items expire by TTL, so the table is
 * never retained.
 */
export class TransientRecords extends Construct {
  readonly table: AppTable;
  private readonly binding: TransientRecordsProps;

  constructor(scope: Construct, id: string, props: TransientRecordsProps) {
    super(scope, id);
    this.binding = props;
    this.table = new AppTable(this, 'Table', { partitionKey: props.partitionKey, timeToLiveAttribute: props.timeToLiveAttribute, retain: false });
  }

  bind(fn: AppFunction): AppFunction {
    return fn.bindTable(this.table, this.binding.envName, this.binding.actions, { indexes: false });
  }
}

/**
 * The records of Powertools' idempotency utility (functions/shared/idempotency.ts): one item per
 * operation and key, with the persistence layer's default attribute names and calls.
 */
export const idempotencyRecords = (scope: Construct) =>
  new TransientRecords(scope, 'Idempotency', {
    partitionKey: 'id',
    timeToLiveAttribute: 'expiration',
    envName: 'IDEMPOTENCY_TABLE',
    actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  });

/**
 * Fixed-window counters of free actions per IP, address and session
 * (functions/shared/rate-limit.ts): keys hold only hashes; one conditional UpdateItem per rule.
 */
export const rateLimitCounters = (scope: Construct) =>
  new TransientRecords(scope, 'RateLimits', { partitionKey: 'pk', timeToLiveAttribute: 'expiresAt', envName: 'RATE_LIMITS_TABLE', actions: ['UpdateItem'] });
