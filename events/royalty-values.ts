/**
 * Plain values of royalties, statements and the talent's likeness controls (docs/royalties.md),
 * free of zod so the browser can import them without the validation library.
 */

/** Founding talent earn 35% of every license's credit value, for life (docs/product.md#founding-royalty). In basis points. */
export const FOUNDING_RATE_BPS = 3500;

/**
 * Everyone else earns by the license's place in the calendar month, marginally (docs/product.md#reading-royalties,
 * "Readings"): licenses 1-50 at 20%, 51-200 at 25%, 201 onwards at 30%. `upTo` is the last
 * license of the tier (inclusive); the last tier has none.
 */
export const STANDARD_TIERS = [
  { tier: 'standard-1', upTo: 50, rateBps: 2000 },
  { tier: 'standard-2', upTo: 200, rateBps: 2500 },
  { tier: 'standard-3', upTo: undefined, rateBps: 3000 },
] as const;

export const ROYALTY_TIERS = ['founding', 'standard-1', 'standard-2', 'standard-3'] as const;
export type RoyaltyTier = (typeof ROYALTY_TIERS)[number];

/** How each tier is named on statements, in the portal, the console and the CSVs. */
export const TIER_LABELS: Record<RoyaltyTier, string> = {
  founding: 'Founding 35%',
  'standard-1': 'Licenses 1-50 at 20%',
  'standard-2': 'Licenses 51-200 at 25%',
  'standard-3': 'Licenses 201+ at 30%',
};

/** Accruals are in micro-dollars; statements pay whole cents. */
export const MICROS_PER_CENT = 10_000;
export const BPS_PER_WHOLE = 10_000;

/** A statement's month, `YYYY-MM` (UTC). */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const MONTH_MESSAGE = 'month must be a month such as 2026-11';

/** A statement's id: `<month>_<talentId>`, e.g. `2026-11_maya-chen`. */
export const statementId = (month: string, talentId: string) => `${month}_${talentId}`;
export const STATEMENT_ID_PATTERN = /^\d{4}-(0[1-9]|1[0-2])_[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const STATEMENT_ID_MESSAGE = 'id must be a statement id such as 2026-11_maya-chen';
export const STATEMENT_NOT_FOUND_MESSAGE = 'Statement not found';

/**
 * Where a statement's payout stands: paid (with date and reference), due (payout details on
 * file, waiting for the monthly payout), waiting for the talent's payout details, or nothing
 * to pay (under a cent, carried forward).
 */
export const PAYOUT_STATUSES = ['paid', 'due', 'awaiting-details', 'nothing-due'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export const PAYOUT_STATUS_LABELS: Record<PayoutStatus, string> = {
  paid: 'Paid',
  due: 'Due with the next monthly payout',
  'awaiting-details': 'Waiting for your payout details',
  'nothing-due': 'Nothing to pay: carried forward',
};
export const PAYOUT_REFERENCE_MAX_LENGTH = 100;

/** The monthly close runs on the 1st at 01:00 UTC, after the allowance (00:05). */
export const CLOSE_SCHEDULE = { minute: '0', hour: '1', day: '1' } as const;

// ---- Likeness controls ---------------------------------------------------------------------

/** Removal takes effect after this notice (docs/product.md#reading-likeness); stages may shorten it (the twin does). */
export const REMOVAL_NOTICE_DAYS = 30;
export const REMOVAL_NOTICE_SECONDS = REMOVAL_NOTICE_DAYS * 24 * 60 * 60;

/**
 * What a talent's likeness is doing now, from its controls and the time (events/likeness.ts
 * `likenessState`). `frozen` is the state of a likeness under an exclusive contract in force (the
 * value the API answers and the portal reads).
 */
export const LIKENESS_STATES = ['available', 'paused', 'removal-pending', 'removed', 'frozen'] as const;
export type LikenessState = (typeof LIKENESS_STATES)[number];

export const FOUNDING_REMOVAL_WARNING =
  'You are a founding talent. Removing your likeness ends your 35% lifetime royalty rate, and it cannot be restored.';
export const REMOVAL_CANCELLED_MESSAGE = 'Your removal request was cancelled. Your likeness stays in the marketplace.';
export const CONTRACT_NO_REMOVAL_MESSAGE = (brand: string, until: string) =>
  `Your likeness is under an exclusive contract with ${brand} until ${until}. You can request removal once it ends.`;
export const NO_REMOVAL_PENDING_MESSAGE = 'There is no removal request to cancel.';
export const ALREADY_REMOVED_MESSAGE = 'Your likeness has already been removed.';
export const REMOVAL_ALREADY_REQUESTED_MESSAGE = 'You have already requested removal.';
export const CONTRACT_TERM_MESSAGE = 'until must be after startsAt, and in the future';
export const CONTRACT_NOT_CLIENT_MESSAGE = 'accountId must be a client account';
export const CONTRACT_REMOVAL_PENDING_MESSAGE = 'This talent has requested removal; a contract cannot start during the notice period.';
export const CONTRACT_EXISTS_MESSAGE = 'This talent already has an exclusive contract in force or starting. End it first.';
export const NO_CONTRACT_MESSAGE = 'This talent has no exclusive contract to end.';

/** Per-account limit on likeness changes (pause, resume, removal, cancel) and on data exports. */
export const DATA_EXPORTS_PER_HOUR = 10;
