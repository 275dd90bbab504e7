/**
 * The failures our functions count as CloudWatch metrics (functions/shared/log.ts `log.metric`,
 * in the embedded metric format) and the alarms watch (infra/lib/platform/alarms.ts), decision
 * 041. Both sides import the names from here.
 */

/**
 * Environment variable naming the metrics' namespace: `Humanly/<stack name>`, set on every
 * function by the stack (AppFunction), so two stages in one account keep their own metrics.
 */
export const METRICS_NAMESPACE_ENV = 'METRICS_NAMESPACE';

/** Each metric counts one failure per occurrence (unit Count); every one has an alarm. */
export const FAILURE_METRICS = {
  /** An API route failed with an error no service expected (answered 500); dimension `Route` too. */
  unexpectedError: 'UnexpectedErrors',
  /** A signed Replicate webhook could not be applied (answered 5xx; Replicate retries it for a while). */
  webhookApplyFailed: 'WebhookApplyFailures',
  /** StartExecution of a state machine failed (a generation or an application's retry did not start). */
  workflowStartFailed: 'WorkflowStartFailures',
  /** Emails in the outbox still unsent past their deadline (the value is how many, at each sending run). */
  emailsOverdue: 'EmailsOverdue',
  /** The monthly close could not close a talent's statement (failed for good; docs/royalties.md "Monthly close"). */
  statementNotClosed: 'StatementsNotClosed',
  /** A talent's payout failed: a Stripe transfer refused, a bank payout failed or a transfer reversed (docs/payouts.md). */
  payoutFailed: 'PayoutsFailed',
  /** A talent's likeness model training failed: too few photos, the trainer, a time-out or a step (docs/training.md). */
  trainingFailed: 'LikenessTrainingsFailed',
  /**
   * A Stripe event about a client whose data was erased (a renewal, an invoice, a refund), answered
   * 200 and applied to nothing (docs/payments.md "Erasure", decision 019).
   */
  erasedAccountEvent: 'StripeEventsOfErasedAccounts',
  /**
   * Misuse reports waiting past their due time without a decision (the value is how many, at each
   * 15-minute run of the overdue check; docs/product.md#reports-and-takedown).
   */
  reportsOverdue: 'ReportsOverdue',
} as const;

export type FailureMetric = (typeof FAILURE_METRICS)[keyof typeof FAILURE_METRICS];

/** The dimension naming the route (`METHOD /path`) an unexpected error happened in. */
export const ROUTE_DIMENSION = 'Route';
