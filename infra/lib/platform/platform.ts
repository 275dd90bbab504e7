import type { UserPool } from 'aws-cdk-lib/aws-cognito';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { EmailSending } from './email';
import type { MarketplaceApi } from './http-api';
import type { StageConfig } from './stage-config';
import type { TransientRecords } from './transient-records';

/**
 * What no domain owns and every domain may use: the stack creates these once and hands them to
 * each domain construct (domains/), beside the tables of other domains it reads.
 */
export interface Platform {
  config: StageConfig;
  api: MarketplaceApi;
  /** Our domain events' bus. */
  bus: IEventBus;
  /** SES sending, bound to a function with `AppFunction.bindEmail`. */
  email: EmailSending;
  /** Idempotency records (functions/shared/idempotency.ts), bound with `idempotency.bind(fn)`. */
  idempotency: TransientRecords;
  /** Rate counters of the free actions (functions/shared/rate-limit.ts), bound with `rateLimits.bind(fn)`. */
  rateLimits: TransientRecords;
  userPool: UserPool;
  /** The public site, as emails and links name it. */
  siteUrl: string;
  /** The review console. */
  adminUrl: string;
  /** The stack's access-log bucket. */
  logBucket: IBucket;
}
