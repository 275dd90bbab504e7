// Royalties and monthly statements (docs/royalties.md): the schemas of every statement answer.
// Amounts are integers: micro-dollars while accruing, whole cents on statements. The royalty
// function that computes them is the royalties wing's (functions/royalties/arithmetic.ts).
import * as z from 'zod';

import {
  MONTH_MESSAGE,
  MONTH_PATTERN,
  NO_ROYALTY_REASONS,
  PAYOUT_STATUSES,
  ROYALTY_TIERS,
  STATEMENT_ID_MESSAGE,
  STATEMENT_ID_PATTERN,
} from './royalty-values';
import { ROYALTY_PLANS } from './talent-values';

const Iso = z.iso.datetime();
const Micros = z.number().int().nonnegative();
const Cents = z.number().int().nonnegative();
export const Month = z.string({ error: MONTH_MESSAGE }).regex(MONTH_PATTERN, { error: MONTH_MESSAGE });
export const StatementIdSchema = z.string({ error: STATEMENT_ID_MESSAGE }).regex(STATEMENT_ID_PATTERN, { error: STATEMENT_ID_MESSAGE });

/** One license as a statement sees it: the accrual DeliverImages wrote (no prompt, no client). */
export const AccrualLine = z.object({
  licenseId: z.string(),
  generationId: z.string(),
  /** When the license was issued. Lines are ordered by it, then by license id. */
  at: Iso,
  /** The month the license was issued in (a late one is on the next month's statement). */
  month: Month,
  creditValueMicros: Micros,
  /** The talent's plan when the license was issued: removal ends the founding rate for later licenses only. */
  royaltyPlan: z.enum(ROYALTY_PLANS),
  /**
   * The credit consumed was promotional (the Free plan's, an admin grant): `creditValueMicros` is
   * the promotional value, and the statement caps these royalties (decision 037). Absent on
   * accruals of paid credits, and on every accrual written before credits had kinds.
   */
  promotional: z.literal(true).optional(),
  /** Why the license earns nothing (`creditValueMicros` is 0): the talent's own account, or a grant for testing. */
  noRoyalty: z.enum(NO_ROYALTY_REASONS).optional(),
});
export type AccrualLine = z.infer<typeof AccrualLine>;

export const StatementLine = AccrualLine.extend({
  /** Place among the statement's standard-plan licenses of paid credits (1-based); founding and promotional lines have none. */
  ordinal: z.number().int().positive().optional(),
  tier: z.enum(ROYALTY_TIERS),
  rateBps: z.number().int().positive(),
  royaltyMicros: Micros,
});
export type StatementLine = z.infer<typeof StatementLine>;

export const TierTotal = z.object({
  tier: z.enum(ROYALTY_TIERS),
  rateBps: z.number().int().positive(),
  licenses: z.number().int().nonnegative(),
  grossMicros: Micros,
  royaltyMicros: Micros,
});
export type TierTotal = z.infer<typeof TierTotal>;

/**
 * The promotional section of a statement: its licenses earn the talent's first rate (35% founding,
 * else 20%) without taking a place in the tiers, and their royalty is capped (decision 037).
 */
export const PromotionalTotal = z.object({
  licenses: z.number().int().positive(),
  grossMicros: Micros,
  /** What the lines earned before the cap. */
  earnedMicros: Micros,
  /** The cap in force when the statement closed. */
  capMicros: Micros,
  /** What the cap cut: earnedMicros - royaltyMicros. */
  cutMicros: Micros,
  /** What the statement counts: the lesser of earnedMicros and capMicros. */
  royaltyMicros: Micros,
});
export type PromotionalTotal = z.infer<typeof PromotionalTotal>;

/**
 * A license's royalty adjusted on a later statement, taken back or given back: one line shape for
 * both. `at` is when the refund, the dispute, the revocation or the reinstatement was applied;
 * `statementMonth` the statement it refers to (for a take-back, the one that counted the royalty;
 * for a give-back, the one that took it back); `reason` says why in words, never naming the client
 * or what they bought.
 */
const AdjustmentLine = z.object({ licenseId: z.string(), at: Iso, statementMonth: Month, royaltyMicros: Micros, reason: z.string() });

/**
 * A royalty taken back (docs/payouts.md "Money taken back"): a license whose credit was refunded
 * or lost in a dispute after its royalty was on a statement, or revoked for the client's breach
 * (decision 061). The royalty it earned there comes off the statement of the month it was applied in.
 */
export const TakenBackLine = AdjustmentLine;
export type TakenBackLine = z.infer<typeof TakenBackLine>;

/** What a statement took back: never more than it had to pay; Humanly absorbs the rest. */
export const TakenBackTotal = z.object({
  licenses: z.number().int().positive(),
  /** The royalties of the taken-back licenses. */
  owedMicros: Micros,
  /** Taken from this statement: the lesser of owedMicros and its royalty plus what it carried in. */
  appliedMicros: Micros,
  /** The rest: absorbed by Humanly, never carried to a later statement. */
  absorbedMicros: Micros,
});
export type TakenBackTotal = z.infer<typeof TakenBackTotal>;

/**
 * A royalty given back (docs/decisions/061): a license revoked for the client's breach was
 * reinstated on appeal. The statement that claims it pays back what the take-back took from the
 * talent (never what Humanly absorbed).
 */
export const GivenBackLine = AdjustmentLine;
export type GivenBackLine = z.infer<typeof GivenBackLine>;

/** What a statement gives back: added to what it pays. */
export const GivenBackTotal = z.object({ licenses: z.number().int().positive(), royaltyMicros: Micros });
export type GivenBackTotal = z.infer<typeof GivenBackTotal>;

/** A statement's figures: what `buildStatement` computes from its lines and the remainder carried in. */
export const StatementTotals = z.object({
  /** Licenses that earn (paid and promotional credits); those that earn nothing are `noRoyaltyLicenses`. */
  licenses: z.number().int().nonnegative(),
  /** The credit value of every license, in micro-dollars. */
  grossMicros: Micros,
  /** The sum of the lines' royalties, less what the promotional cap cut. */
  royaltyMicros: Micros,
  /** Under a cent left over from the previous statement. */
  carriedInMicros: Micros,
  /** What this statement pays: (royaltyMicros + carriedInMicros - takenBack.appliedMicros + givenBack.royaltyMicros) in whole cents. */
  royaltyCents: Cents,
  /** Under a cent, carried to the next statement. */
  carriedOutMicros: Micros,
  /** Only tiers with licenses, in tier order: licenses of paid credits (promotional ones are below). */
  tiers: z.array(TierTotal),
  /** Licenses of promotional credits, when there are any (statements closed before they existed have none). */
  promotional: PromotionalTotal.optional(),
  /** Licenses that earn nothing (own account, testing grants), when there are any: counted, never paid. */
  noRoyaltyLicenses: z.number().int().positive().optional(),
  /** Royalties taken back for refunds and lost disputes, when there are any. */
  takenBack: TakenBackTotal.optional(),
  /** Royalties given back for licenses reinstated on appeal, when there are any. */
  givenBack: GivenBackTotal.optional(),
});
export type StatementTotals = z.infer<typeof StatementTotals>;

// ---- Answers ---------------------------------------------------------------------------------

export const Payout = z.object({
  status: z.enum(PAYOUT_STATUSES),
  /** When it was paid and the payment's reference (paid only). */
  paidAt: Iso.optional(),
  reference: z.string().optional(),
});
export type Payout = z.infer<typeof Payout>;

/** One change an admin made to a statement's payout: who, when, what. Append-only. */
export const StatementAuditEntry = z.object({
  at: Iso,
  /** Who changed it: an admin's email, or "Stripe". */
  by: z.string(),
  /** The admin's Cognito `sub`, when an admin's action changed it. */
  bySub: z.string().optional(),
  action: z.enum(['marked-paid', 'marked-unpaid']),
  detail: z.string(),
});
export type StatementAuditEntry = z.infer<typeof StatementAuditEntry>;

/** A closed statement as the talent and the console see it (never a prompt or a client). */
export const StatementSummary = z.object({
  id: StatementIdSchema,
  talentId: z.string(),
  talentName: z.string(),
  month: Month,
  closedAt: Iso,
  totals: StatementTotals,
  payout: Payout,
});
export type StatementSummary = z.infer<typeof StatementSummary>;

/** `GET /me/statements/{id}` and the console's detail: the summary with every line. */
export const StatementDetail = StatementSummary.extend({ lines: z.array(StatementLine), takenBack: z.array(TakenBackLine), givenBack: z.array(GivenBackLine).optional() });
export type StatementDetail = z.infer<typeof StatementDetail>;

/** The console's statement: also the audit of payout changes. */
export const AdminStatement = StatementDetail.extend({ audit: z.array(StatementAuditEntry) });
export type AdminStatement = z.infer<typeof AdminStatement>;

/** `GET /me/statements`: the talent's closed statements, newest first. */
export const StatementList = z.object({ statements: z.array(StatementSummary) });
export type StatementList = z.infer<typeof StatementList>;

/** `GET /me/earnings`: this month so far (open accruals, live). */
export const EarningsResponse = z.object({
  month: Month,
  /** Figures so far, as the close would build them now. */
  totals: StatementTotals,
});
export type EarningsResponse = z.infer<typeof EarningsResponse>;

/** `GET /admin/statements?month=&talentId=&payout=&offset=&limit=`: answered `{items, total}`. */
export const AdminStatementQuery = z
  .object({
    month: Month.optional(),
    talentId: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'talentId must be a talent id such as maya-chen' }).optional(),
    payout: z.enum(PAYOUT_STATUSES, { error: `payout must be one of ${PAYOUT_STATUSES.join(', ')}` }).optional(),
    order: z.enum(['ASC', 'DESC'], { error: 'order must be ASC or DESC' }).default('DESC'),
    offset: z.coerce.number({ error: 'offset must be a number' }).int().nonnegative({ error: 'offset must be 0 or more' }).default(0),
    limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, { error: 'limit must be 1 to 500' }).max(500, { error: 'limit must be 1 to 500' }).default(25),
  })
  .strict();
export const AdminStatementList = z.object({ items: z.array(StatementSummary), total: z.number().int().nonnegative() });
export type AdminStatementList = z.infer<typeof AdminStatementList>;

/** The dashboard: what the latest closed month owes talent, and what this month has accrued so far. */
export const RoyaltyStats = z.object({
  closedMonth: Month.optional(),
  owedCents: Cents,
  unpaidStatements: z.number().int().nonnegative(),
});
export type RoyaltyStats = z.infer<typeof RoyaltyStats>;
