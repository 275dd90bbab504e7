// The royalty function (docs/royalties.md#the-royalty-function): the one place royalties are
// computed, by the monthly close, the talent's live earnings and the console's rebuild of a
// statement. Amounts are integers: micro-dollars while accruing, whole cents on statements; the
// one rounding is `floorDiv`.
import type { AccrualLine, GivenBackLine, GivenBackTotal, PromotionalTotal, StatementLine, StatementTotals, TakenBackLine, TakenBackTotal } from '../../events/royalties';
import { BPS_PER_WHOLE, FOUNDING_RATE_BPS, MICROS_PER_CENT, monthNotEndedMessage, ROYALTY_TIERS, STANDARD_TIERS, type RoyaltyTier } from '../../events/royalty-values';
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
 *
 * Decision 037:
 * - Accruals that earn nothing (`noRoyalty`: the talent's own account, a testing grant) are not
 *   lines: they are counted (`noRoyaltyLicenses`) and take no place in the tiers.
 * - Lines of promotional credits earn the talent's first rate (35% founding, else the first
 *   tier's 20%) and take no place in the tiers either: only licenses of paid credits are numbered
 *   1-50 / 51-200 / 201+. Their royalty together is capped at `promotionalCapMicros`, the cut
 *   shown in the `promotional` section. A statement with promotional lines needs the cap.
 *
 * Royalties taken back for refunds (`takenBack`, docs/payouts.md "Money taken back") come off what
 * the statement pays, never below zero: what its royalty and the remainder carried in cannot
 * cover is absorbed by Humanly, not carried. Royalties given back for licenses reinstated on
 * appeal (`givenBack`, docs/decisions/061) are added to what it pays.
 */
export function buildStatement(
  accruals: readonly AccrualLine[],
  carriedInMicros: number,
  promotionalCapMicros?: number,
  takenBack: readonly Pick<TakenBackLine, 'royaltyMicros'>[] = [],
  givenBack: readonly Pick<GivenBackLine, 'royaltyMicros'>[] = [],
): { lines: StatementLine[]; totals: StatementTotals } {
  let standard = 0;
  const earning = accruals.filter((a) => a.noRoyalty === undefined);
  const noRoyaltyLicenses = accruals.length - earning.length;
  const lines = orderLines(earning).map((a): StatementLine => {
    if (a.promotional) {
      const { tier, rateBps } = tierOf(a.royaltyPlan, 1);
      return { ...a, tier, rateBps, royaltyMicros: shareOf(a.creditValueMicros, rateBps) };
    }
    const ordinal = a.royaltyPlan === 'founding-35' ? undefined : ++standard;
    const { tier, rateBps } = tierOf(a.royaltyPlan, ordinal ?? 0);
    return { ...a, ...(ordinal === undefined ? {} : { ordinal }), tier, rateBps, royaltyMicros: shareOf(a.creditValueMicros, rateBps) };
  });
  const paid = lines.filter((l) => !l.promotional);
  const tiers = ROYALTY_TIERS.map((tier) => {
    const of = paid.filter((l) => l.tier === tier);
    return {
      tier,
      rateBps: tier === 'founding' ? FOUNDING_RATE_BPS : STANDARD_TIERS.find((t) => t.tier === tier)!.rateBps,
      licenses: of.length,
      grossMicros: sum(of, (l) => l.creditValueMicros),
      royaltyMicros: sum(of, (l) => l.royaltyMicros),
    };
  }).filter((t) => t.licenses > 0);
  const promotional = promotionalTotal(lines.filter((l) => l.promotional), promotionalCapMicros);
  const royaltyMicros = sum(paid, (l) => l.royaltyMicros) + (promotional?.royaltyMicros ?? 0);
  const back = takenBackTotal(takenBack, royaltyMicros + carriedInMicros);
  const given = givenBackTotal(givenBack);
  const { cents, remainderMicros } = toCents(royaltyMicros + carriedInMicros - (back?.appliedMicros ?? 0) + (given?.royaltyMicros ?? 0));
  return {
    lines,
    totals: {
      licenses: lines.length,
      grossMicros: sum(lines, (l) => l.creditValueMicros),
      royaltyMicros,
      carriedInMicros,
      royaltyCents: cents,
      carriedOutMicros: remainderMicros,
      tiers,
      // Only when there are some: statements without them keep the shape they were closed with.
      ...(promotional ? { promotional } : {}),
      ...(noRoyaltyLicenses > 0 ? { noRoyaltyLicenses } : {}),
      ...(back ? { takenBack: back } : {}),
      ...(given ? { givenBack: given } : {}),
    },
  };
}

/** What a statement takes back of `availableMicros` (its royalty and what it carried in), and what Humanly absorbs. */
function takenBackTotal(lines: readonly Pick<TakenBackLine, 'royaltyMicros'>[], availableMicros: number): TakenBackTotal | undefined {
  if (lines.length === 0) return undefined;
  for (const l of lines) {
    if (!Number.isSafeInteger(l.royaltyMicros) || l.royaltyMicros < 0) throw new RangeError(`a royalty taken back must be whole micro-dollars of 0 or more, got ${l.royaltyMicros}`);
  }
  const owedMicros = sum(lines, (l) => l.royaltyMicros);
  const appliedMicros = Math.min(owedMicros, availableMicros);
  return { licenses: lines.length, owedMicros, appliedMicros, absorbedMicros: owedMicros - appliedMicros };
}

/** What a statement gives back: the royalties its give-backs name. */
function givenBackTotal(lines: readonly Pick<GivenBackLine, 'royaltyMicros'>[]): GivenBackTotal | undefined {
  if (lines.length === 0) return undefined;
  for (const l of lines) {
    if (!Number.isSafeInteger(l.royaltyMicros) || l.royaltyMicros < 0) throw new RangeError(`a royalty given back must be whole micro-dollars of 0 or more, got ${l.royaltyMicros}`);
  }
  return { licenses: lines.length, royaltyMicros: sum(lines, (l) => l.royaltyMicros) };
}

/**
 * What each royalty taken back on a statement took from the talent: the statement's applied
 * amount (`appliedMicros`, what its royalty and carry could cover) shared out in the order the
 * statement lists them (when taken back, then license id), each up to its own royalty; the rest
 * of each was absorbed by Humanly. A give-back pays back this share, never more.
 */
export function takenBackShares(lines: readonly Pick<TakenBackLine, 'licenseId' | 'at' | 'royaltyMicros'>[], appliedMicros: number): Map<string, number> {
  let left = appliedMicros;
  const shares = new Map<string, number>();
  for (const l of [...lines].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.licenseId < b.licenseId ? -1 : a.licenseId > b.licenseId ? 1 : 0))) {
    const share = Math.min(l.royaltyMicros, left);
    shares.set(l.licenseId, share);
    left -= share;
  }
  return shares;
}

const sum = <T>(items: readonly T[], of: (item: T) => number) => items.reduce((s, i) => s + of(i), 0);

/** The promotional section: what its lines earned, the cap, and what the cap cut. None without promotional lines. */
function promotionalTotal(lines: readonly StatementLine[], capMicros: number | undefined): PromotionalTotal | undefined {
  if (lines.length === 0) return undefined;
  if (capMicros === undefined || !Number.isSafeInteger(capMicros) || capMicros < 0) {
    throw new RangeError(`a statement with promotional licenses needs the promotional cap in whole micro-dollars of 0 or more, got ${capMicros}`);
  }
  const earnedMicros = sum(lines, (l) => l.royaltyMicros);
  const royaltyMicros = Math.min(earnedMicros, capMicros);
  return { licenses: lines.length, grossMicros: sum(lines, (l) => l.creditValueMicros), earnedMicros, capMicros, cutMicros: earnedMicros - royaltyMicros, royaltyMicros };
}

/** The promotional cap of a stage setting in whole cents, in micro-dollars. */
export const capMicrosOfCents = (cents: number) => {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`the promotional royalty cap must be whole cents of 0 or more, got ${cents}`);
  return cents * MICROS_PER_CENT;
};

/** When `month` (`YYYY-MM`, UTC) ends: the first instant of the next month. */
function monthEnd(month: string): Date {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1));
}

/**
 * A close asked for a month that has not ended (UTC). Nothing is closed: its accruals would be
 * claimed while licenses of the month are still being issued. The RoyaltyClose machine matches
 * it by its name, `MonthNotEnded`, and never retries it.
 */
export class MonthNotEndedError extends Error {
  constructor(readonly month: string) {
    super(monthNotEndedMessage(month, monthEnd(month).toISOString()));
    // Set on the instance: Step Functions sees the name, and the bundles do not keep class names.
    this.name = 'MonthNotEnded';
  }
}

/** Refuses (MonthNotEndedError) a month that has not ended at `now`, UTC: only an ended month can be closed. */
export function assertMonthEnded(month: string, now: Date): void {
  if (now.getTime() < monthEnd(month).getTime()) throw new MonthNotEndedError(month);
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
