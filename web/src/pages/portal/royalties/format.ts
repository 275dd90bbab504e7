// Words and figures of the royalty views, from the shared values (events/royalty-values.ts).
import { dollarsOfCents, dollarsOfMicros, dollarsOfMicrosToCent } from '../../../../../events/royalty-format';
import { FOUNDING_RATE_BPS, STANDARD_TIERS, TIER_LABELS } from '../../../../../events/royalty-values';
import type { PromotionalTotal, StatementTotals } from '../../../../../events/royalties';

export const money = (cents: number) => `$${dollarsOfCents(cents)}`;

/** Where this month's standard licenses stand in the tiers: "12 of 50 at 20%". */
export function tierProgress(totals: Pick<StatementTotals, 'tiers'>, founding: boolean): string {
  if (founding) return `Every license at ${FOUNDING_RATE_BPS / 100}%, for life`;
  const standard = totals.tiers.filter((t) => t.tier !== 'founding').reduce((n, t) => n + t.licenses, 0);
  const current = STANDARD_TIERS.find((t) => t.upTo === undefined || standard < t.upTo) ?? STANDARD_TIERS[STANDARD_TIERS.length - 1];
  const rate = `${current.rateBps / 100}%`;
  if (current.upTo === undefined) return `${standard} licenses: every license from 201 at ${rate}`;
  return `${standard} of ${current.upTo} at ${rate}`;
}

/** Promotional credits and images that earn nothing, in the talent's words (decision 037). */
const PROMOTIONAL_RULE =
  'Images made with promotional credits (free and granted credits) earn at your first rate without counting toward the tiers, up to a cap each month; images made by your own account or with test grants earn nothing.';

/** How royalties are computed, in the talent's words (docs/product.md#royalties). */
export function transparencyNote(founding: boolean): string {
  if (founding)
    return `As a founding talent you earn 35% of the credit value of every license issued with your likeness, for life. ${PROMOTIONAL_RULE} Statements close on the 1st of each month; amounts under a cent carry to the next statement.`;
  return `You earn a share of the credit value of every license issued with your likeness, by its place in the month: ${STANDARD_TIERS.map((t) => TIER_LABELS[t.tier]).join(', ')}. ${PROMOTIONAL_RULE} Statements close on the 1st of each month; amounts under a cent carry to the next statement.`;
}

/** The promotional cap as the portal names it: "$25.00 a month". */
export const capLabel = (p: Pick<PromotionalTotal, 'capMicros'>) => `$${dollarsOfMicrosToCent(p.capMicros)} a month`;

/** What promotional credits earned, and what the cap cut: "3 licenses of promotional credits earned $0.179331 (capped at $25.00 a month)." */
export function promotionalNote(p: PromotionalTotal): string {
  const what = `${p.licenses} ${p.licenses === 1 ? 'license' : 'licenses'} of promotional credits earned $${dollarsOfMicros(p.earnedMicros)}`;
  if (p.cutMicros === 0) return `${what} (capped at ${capLabel(p)}).`;
  return `${what}, capped at ${capLabel(p)}: $${dollarsOfMicros(p.cutMicros)} over the cap is not paid.`;
}
