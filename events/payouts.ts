// Payouts' API (docs/payouts.md): a talent's payout account and payouts, and the console's
// monthly payout runs. Web, admin and functions all parse with these schemas.
import * as z from 'zod';

import { CONNECT_STATES, PAYOUT_ACTIONS, RECONCILIATION_STATES, STATEMENT_PAYOUT_STATES } from './payout-values';

const Iso = z.iso.datetime();
const Cents = z.number().int();
const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'month must be a month such as 2026-11' });

/** The talent's connected account as the portal and console show it (never its id). */
export const ConnectAccountStatus = z.object({
  state: z.enum(CONNECT_STATES),
  /** What Stripe still needs, in Stripe's words (field names). */
  requirementsDue: z.array(z.string()),
  disabledReason: z.string().optional(),
  /** The bank account's last four digits, when one is on file. */
  bankLast4: z.string().optional(),
  payoutsEnabled: z.boolean(),
});
export type ConnectAccountStatus = z.infer<typeof ConnectAccountStatus>;

/**
 * The payout account's legal name (the individual on the connected account, as Stripe has it)
 * against the name on the talent's verified ID (docs/payouts.md, "The name on the account"): a
 * mismatch is a warning on the talent's console page, for a person to look at before paying.
 */
export const ConnectNameCheck = z.object({
  result: z.enum(['match', 'mismatch']),
  /** The name on the connected account. */
  accountName: z.string(),
  /** The name on the talent's verified ID. */
  verifiedName: z.string(),
  /** What the comparison found ("same name", "the last name differs", ...). */
  note: z.string(),
  checkedAt: Iso,
});
export type ConnectNameCheck = z.infer<typeof ConnectNameCheck>;

/** `GET /admin/talent/{id}/payout-history`: the payout account's events, bank changes and payouts, and the name check. */
export const PayoutHistory = z.object({
  entries: z.array(z.object({ at: Iso, what: z.string() })),
  nameCheck: ConnectNameCheck.optional(),
});
export type PayoutHistory = z.infer<typeof PayoutHistory>;

/** An administrator's action on a payout: what, when, and who (their Cognito email and sub). */
export const PayoutActionEntry = z.object({
  action: z.enum(PAYOUT_ACTIONS),
  at: Iso,
  /** The admin's email, as the console shows it. */
  by: z.string(),
  /** The admin's Cognito `sub`. */
  bySub: z.string(),
});
export type PayoutActionEntry = z.infer<typeof PayoutActionEntry>;

/** One run of a month's payouts: when, and the admin who started it (none: the monthly close). */
export const PayoutRunEntry = z.object({
  at: Iso,
  by: z.string().optional(),
  bySub: z.string().optional(),
});
export type PayoutRunEntry = z.infer<typeof PayoutRunEntry>;

/** One statement's payout. */
export const StatementPayout = z.object({
  statementId: z.string(),
  talentId: z.string(),
  talentName: z.string().optional(),
  month: Month,
  /** The statement's own royalty, in cents. */
  statementCents: Cents,
  /** What earlier statements under the minimum carried into this payout. */
  carriedInCents: Cents,
  /** What this payout transfers (statement + carried in), or carries on when under the minimum. */
  amountCents: Cents,
  state: z.enum(STATEMENT_PAYOUT_STATES),
  /** The Stripe transfer's id: the payment's reference. */
  transferId: z.string().optional(),
  paidAt: Iso.optional(),
  /** Why it failed, in words a talent can act on. */
  failure: z.string().optional(),
  /** For `manual`: the admin's reference and reason. */
  reference: z.string().optional(),
  reason: z.string().optional(),
  attempts: z.number().int().optional(),
  /** What admins did to it, oldest first (the console's view only: the talent's omits it). */
  actions: z.array(PayoutActionEntry).optional(),
});
export type StatementPayout = z.infer<typeof StatementPayout>;

/** `GET /me/payouts`: the talent's payout account and every statement's payout. */
export const MyPayoutsResponse = z.object({
  account: ConnectAccountStatus,
  minimumCents: Cents,
  payouts: z.array(StatementPayout),
});
export type MyPayoutsResponse = z.infer<typeof MyPayoutsResponse>;

/** `GET /admin/payout-runs/{month}`: the month's payouts and their reconciliation. */
export const PayoutRun = z.object({
  month: Month,
  ranAt: Iso.optional(),
  /** Every run of the month, oldest first: when, and who started it. */
  runs: z.array(PayoutRunEntry).optional(),
  payouts: z.array(StatementPayout),
  totals: z.object({
    statementsCents: Cents,
    carriedInCents: Cents,
    transferredCents: Cents,
    carriedCents: Cents,
    failedCents: Cents,
    manualCents: Cents,
    awaitingCents: Cents,
    /** What Stripe's transfers of the month add up to (listed from Stripe). */
    stripeTransfersCents: Cents,
  }),
  reconciliation: z.object({
    state: z.enum(RECONCILIATION_STATES),
    /** Each difference in words ("2026-11_maya-chen: statement $12.00, transfer $10.00"). */
    differences: z.array(z.string()),
  }),
});
export type PayoutRun = z.infer<typeof PayoutRun>;

/** `POST /admin/payouts/{statementId}/manual`: paid outside Stripe, with a reference and a reason. */
export const ManualPayoutRequest = z.strictObject({
  reference: z.string().trim().min(1, { error: 'Give the payment\'s reference.' }).max(100, { error: 'The reference can be at most 100 characters.' }),
  reason: z.string().trim().min(1, { error: 'Say why this talent is paid outside Stripe.' }).max(200, { error: 'The reason can be at most 200 characters.' }),
  paidAt: Iso.optional(),
});
export type ManualPayoutRequest = z.infer<typeof ManualPayoutRequest>;

export { Month as PayoutMonth };
