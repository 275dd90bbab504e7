// The royalty function (docs/royalties.md#the-royalty-function): the one place royalties are
// computed, by the monthly close, the talent's live earnings and the console's rebuild of a
// statement. Amounts are integers: micro-dollars while accruing, whole cents on statements; the
// one rounding is `floorDiv`.
import type { AccrualLine, StatementLine, StatementTotals } from '../../events/royalties';
import { BPS_PER_WHOLE, FOUNDING_RATE_BPS, MICROS_PER_CENT, ROYALTY_TIERS, STANDARD_TIERS, type RoyaltyTier } from '../../events/royalty-values';
import type { ROYALTY_PLANS } from '../../events/talent-values';

/** The only rounding of money in the product: integer division rounded down (toward zero for n >= 0). */
function floorDiv(n: number, d: number): number {
  if (!Number.isSafeInteger(n) || !Number.isSafeInteger(d) || d <= 0 || n < 0) throw new RangeError(`floorDiv needs whole numbers n >= 0 and d > 0, got ${n} / ${d}`);
  return Math.floor(n / d);
}

/** Micro-dollars to whole cents and the micro-dollars left over (carried forward). */
function toCents(micros: number): { cents: number; remainderMicros: number } {
  const cents = floorDiv(micros, MICROS_PER_CENT);
  return { cents, remainderMicros: micros - cents * MICROS_PER_CENT };
}

/** A royalty rate applied to a credit's value: micro-dollars, rounded down. */
function shareOf(valueMicros: number, rateBps: number): number {
  return floorDiv(valueMicros * rateBps, BPS_PER_WHOLE);
}

/** The tier of a license: founding talent earn 35%; others by the license's place among the month's standard licenses (1-based). */
function tierOf(royaltyPlan: (typeof ROYALTY_PLANS)[number], standardOrdinal: number): { tier: RoyaltyTier; rateBps: number } {
  if (royaltyPlan === 'founding-35') return { tier: 'founding', rateBps: FOUNDING_RATE_BPS };
  const tier = STANDARD_TIERS.find((t) => t.upTo === undefined || standardOrdinal <= t.upTo)!;
  return { tier: tier.tier, rateBps: tier.rateBps };
}

/** Orders lines as statements number them: by issue time, then license id. */
function orderLines<T extends Pick<AccrualLine, 'at' | 'licenseId'>>(lines: readonly T[]): T[] {
  return [...lines].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.licenseId < b.licenseId ? -1 : a.licenseId > b.licenseId ? 1 : 0));
}

/**
 * A statement from its accruals and the remainder carried in: each line's tier and royalty, the
 * totals by tier, and the whole cents paid with the remainder carried out. Pure and
 * deterministic: the same accruals always give the same statement, in any input order.
 */
export function buildStatement(accruals: readonly AccrualLine[], carriedInMicros: number): { lines: StatementLine[]; totals: StatementTotals } {
  let standard = 0;
  const lines = orderLines(accruals).map((a): StatementLine => {
    const ordinal = a.royaltyPlan === 'founding-35' ? undefined : ++standard;
    const { tier, rateBps } = tierOf(a.royaltyPlan, ordinal ?? 0);
    return { ...a, ...(ordinal === undefined ? {} : { ordinal }), tier, rateBps, royaltyMicros: shareOf(a.creditValueMicros, rateBps) };
  });
  const tiers = ROYALTY_TIERS.map((tier) => {
    const of = lines.filter((l) => l.tier === tier);
    return {
      tier,
      rateBps: tier === 'founding' ? FOUNDING_RATE_BPS : STANDARD_TIERS.find((t) => t.tier === tier)!.rateBps,
      licenses: of.length,
      grossMicros: of.reduce((s, l) => s + l.creditValueMicros, 0),
      royaltyMicros: of.reduce((s, l) => s + l.royaltyMicros, 0),
    };
  }).filter((t) => t.licenses > 0);
  const royaltyMicros = lines.reduce((s, l) => s + l.royaltyMicros, 0);
  const { cents, remainderMicros } = toCents(royaltyMicros + carriedInMicros);
  return {
    lines,
    totals: {
      licenses: lines.length,
      grossMicros: lines.reduce((s, l) => s + l.creditValueMicros, 0),
      royaltyMicros,
      carriedInMicros,
      royaltyCents: cents,
      carriedOutMicros: remainderMicros,
      tiers,
    },
  };
}

/** `YYYY-MM` of the month before the one `iso` falls in (UTC): the month a close on the 1st closes. */
export function previousMonth(iso: string): string {
  const d = new Date(iso);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth(); // 0-based: the previous month's 1-based number
  return m === 0 ? `${y - 1}-12` : `${y}-${String(m).padStart(2, '0')}`;
}

/** `YYYY-MM` of an ISO time, in UTC. */
export const monthOfIso = (iso: string) => new Date(iso).toISOString().slice(0, 7);
