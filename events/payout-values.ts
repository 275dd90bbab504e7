// Payouts to talent through Stripe Connect (docs/payouts.md): the
// values the talent portal, the console and the payouts wing share. Plain values, no zod.
// Amounts are integer cents.

/** The smallest amount transferred after a close (a stage setting; smaller amounts carry forward). */
export const DEFAULT_PAYOUT_MINIMUM_CENTS = 1_000;

/**
 * Where a talent's connected account stands: `not-started` (no account yet), `onboarding`
 * (Stripe still needs something: `requirementsDue`), `active` (transfers and bank payouts
 * enabled), `restricted` (Stripe disabled it: `disabledReason`).
 */
export const CONNECT_STATES = ['not-started', 'onboarding', 'active', 'restricted'] as const;

/**
 * One statement's payout through Connect: `carried` (under the minimum: added to the next
 * statement's payout), `awaiting-account` (due, but payouts are not set up or not active),
 * `transferring` (the transfer is being made), `paid` (transferred: `transferId`, `paidAt`),
 * `failed` (the transfer or the bank payout failed: `failure`; the console retries once fixed),
 * `manual` (paid outside Stripe, marked by an admin with a reason), `nothing-due`.
 */
export const STATEMENT_PAYOUT_STATES = ['carried', 'awaiting-account', 'transferring', 'paid', 'failed', 'manual', 'nothing-due'] as const;
export type StatementPayoutState = (typeof STATEMENT_PAYOUT_STATES)[number];

export const STATEMENT_PAYOUT_LABELS: Record<StatementPayoutState, string> = {
  carried: 'Under the minimum: carried to your next payout',
  'awaiting-account': 'Waiting for your payout account',
  transferring: 'Being transferred',
  paid: 'Paid',
  failed: 'Payout failed',
  manual: 'Paid outside Stripe',
  'nothing-due': 'Nothing due',
};

/**
 * What an administrator did to a statement's payout, as the payout records it (append-only, with
 * who and when): `run` (a payout run started from the console changed it), `retried` (the
 * console's retry of a failed transfer), `marked-paid` (recorded as paid outside Stripe).
 */
export const PAYOUT_ACTIONS = ['run', 'retried', 'marked-paid'] as const;
export type PayoutAction = (typeof PAYOUT_ACTIONS)[number];

/** A payout run's reconciliation: statements' amounts due must equal transfers + carried + failed + manual + awaiting. */
export const RECONCILIATION_STATES = ['balanced', 'differences'] as const;

/** Payouts table: one list per month (`listKey` = PAYOUTS#<month>, sort `at`): the month's statement payouts. */
export const PAYOUTS_LIST_INDEX = 'byList';

/** The Stripe transfer group of a month's payouts (reconciliation lists the month's transfers by it). */
export const transferGroupOf = (month: string) => `payouts:${month}`;

/** Answers and refusals of the payout routes. */
export const PAYOUT_MESSAGES = {
  notFound: 'There is no payout for this statement.',
  statementNotFound: 'There is no statement with this id.',
  notRetryable: 'Only a failed payout can be retried.',
  alreadyPaid: 'This statement is already paid.',
  noAccount: 'This talent has no active payout account yet: they must finish setting up payouts first.',
  bankFailureRetry: 'The transfer went through; the bank payout failed. Stripe pays it out again once the talent fixes their bank account.',
  monthNotClosed: 'This month has no closed statements yet.',
  badYear: 'year must be a year such as 2026',
  accountFromBrowser: 'The payout account is never chosen by the browser: send no body.',
} as const;
