// The portal's royalty words (web/src/pages/portal/royalties/format.ts): where this month's
// licenses stand in the tiers, and the amounts in dollars.
import type { AccrualLine } from '../../../events/royalties';
import { buildStatement } from '../../../functions/royalties/arithmetic';
import { capLabel, money, promotionalNote, tierProgress, transparencyNote } from '../../../web/src/pages/portal/royalties/format';

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

describe('promotional credits in the portal (decision 037)', () => {
  it('says what they earned and what the cap cut, and how they are paid', () => {
    const within = { licenses: 3, grossMicros: 896_664, earnedMicros: 179_331, capMicros: 25_000_000, cutMicros: 0, royaltyMicros: 179_331 };
    expect(capLabel(within)).toBe('$25.00 a month');
    expect(promotionalNote(within)).toBe('3 licenses of promotional credits earned $0.179331 (capped at $25.00 a month).');
    const over = { licenses: 420, grossMicros: 125_532_960, earnedMicros: 25_106_340, capMicros: 25_000_000, cutMicros: 106_340, royaltyMicros: 25_000_000 };
    expect(promotionalNote(over)).toBe('420 licenses of promotional credits earned $25.106340, capped at $25.00 a month: $0.106340 over the cap is not paid.');
    expect(promotionalNote({ ...within, licenses: 1 })).toMatch(/^1 license of promotional credits/);
    for (const founding of [true, false]) {
      expect(transparencyNote(founding)).toContain('promotional credits (free and granted credits) earn at your first rate without counting toward the tiers');
      expect(transparencyNote(founding)).toContain('your own account or with test grants earn nothing');
    }
  });
});
