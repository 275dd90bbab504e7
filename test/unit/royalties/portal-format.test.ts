// The portal's royalty words (web/src/pages/portal/royalties/format.ts): where this month's
// licenses stand in the tiers, and the amounts in dollars.
import type { AccrualLine } from '../../../events/royalties';
import { buildStatement } from '../../../functions/royalties/arithmetic';
import { money, tierProgress, transparencyNote } from '../../../web/src/pages/portal/royalties/format';

const month = (n: number, plan: AccrualLine['royaltyPlan'] = 'standard-tiers') =>
  buildStatement(
    Array.from({ length: n }, (_, i) => ({ licenseId: `lic_${i}`, generationId: 'g', at: '2026-11-02T00:00:00.000Z', month: '2026-11', creditValueMicros: 300_000, royaltyPlan: plan })),
    0,
  ).totals;

describe('tier progress', () => {
  it('counts standard licenses against the tier the next license falls in', () => {
    expect(tierProgress(month(0), false)).toBe('0 of 50 at 20%');
    expect(tierProgress(month(12), false)).toBe('12 of 50 at 20%');
    expect(tierProgress(month(50), false)).toBe('50 of 200 at 25%');
    expect(tierProgress(month(199), false)).toBe('199 of 200 at 25%');
    expect(tierProgress(month(200), false)).toBe('200 licenses: every license from 201 at 30%');
    expect(tierProgress(month(3, 'founding-35'), true)).toBe('Every license at 35%, for life');
  });

  it('writes whole cents as dollars and explains the rates', () => {
    expect(money(12)).toBe('$0.12');
    expect(money(123_456)).toBe('$1234.56');
    expect(transparencyNote(true)).toContain('35%');
    expect(transparencyNote(false)).toContain('Licenses 1-50 at 20%, Licenses 51-200 at 25%, Licenses 201+ at 30%');
  });
});
