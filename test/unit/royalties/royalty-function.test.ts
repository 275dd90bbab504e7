// The royalty function (events/royalties.ts `buildStatement`) at every tier boundary, checked
// against figures worked out by hand here (never copied from its output), then its properties on
// random months of licenses (fast-check): totals add up, no cent is made or lost across closes,
// and a rebuilt month is the same statement.
import fc from 'fast-check';
import { creditValueMicros } from '../../../events/plans';
import type { AccrualLine } from '../../../events/royalties';
import { buildStatement, previousMonth } from '../../../functions/royalties/arithmetic';
import { STANDARD_TIERS } from '../../../events/royalty-values';

// One credit's value, by hand: Starter $35.00 / 80 credits = 437,500 micro-dollars exactly;
// Pro $109.00 / 300 credits = 363,333.33... rounded down to 363,333.
const STARTER = 437_500;
const PRO = 363_333;

/** `count` licenses of one month, one a minute, numbered from `from`. */
function licenses(count: number, value: number, plan: AccrualLine['royaltyPlan'] = 'standard-tiers', from = 0, month = '2026-11'): AccrualLine[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return {
      licenseId: `lic_${String(n).padStart(22, '0')}`,
      generationId: `gen-${n}`,
      at: new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)) - 1, 1) + n * 60_000).toISOString(),
      month,
      creditValueMicros: value,
      royaltyPlan: plan,
    };
  });
}

describe('the royalty function, by hand', () => {
  test('the credit values the figures below start from', () => {
    expect(creditValueMicros('starter')).toBe(STARTER);
    expect(creditValueMicros('pro')).toBe(PRO);
  });

  // Per Starter license: 20% = 87,500; 25% = 109,375; 30% = 131,250 micro-dollars.
  // Per Pro license: 20% = 72,666.6 -> 72,666; 25% = 90,833.25 -> 90,833; 30% = 108,999.9 -> 108,999.
  test.each([
    // [count, value, royaltyMicros, cents, carriedOut, tiers as [tier, licenses, royaltyMicros]]
    [50, STARTER, 4_375_000, 437, 5_000, [['standard-1', 50, 4_375_000]]],
    [51, STARTER, 4_484_375, 448, 4_375, [['standard-1', 50, 4_375_000], ['standard-2', 1, 109_375]]],
    [200, STARTER, 20_781_250, 2078, 1_250, [['standard-1', 50, 4_375_000], ['standard-2', 150, 16_406_250]]],
    [201, STARTER, 20_912_500, 2091, 2_500, [['standard-1', 50, 4_375_000], ['standard-2', 150, 16_406_250], ['standard-3', 1, 131_250]]],
    [50, PRO, 3_633_300, 363, 3_300, [['standard-1', 50, 3_633_300]]],
    [51, PRO, 3_724_133, 372, 4_133, [['standard-1', 50, 3_633_300], ['standard-2', 1, 90_833]]],
    [200, PRO, 17_258_250, 1725, 8_250, [['standard-1', 50, 3_633_300], ['standard-2', 150, 13_624_950]]],
    [201, PRO, 17_367_249, 1736, 7_249, [['standard-1', 50, 3_633_300], ['standard-2', 150, 13_624_950], ['standard-3', 1, 108_999]]],
  ] as const)('%i standard licenses at %i micro-dollars: %i micro-dollars, %i cents paid, %i carried', (count, value, royaltyMicros, cents, carried, tiers) => {
    const { lines, totals } = buildStatement(licenses(count, value), 0);
    expect(totals).toMatchObject({ licenses: count, grossMicros: count * value, royaltyMicros, carriedInMicros: 0, royaltyCents: cents, carriedOutMicros: carried });
    expect(totals.tiers.map((t) => [t.tier, t.licenses, t.royaltyMicros])).toEqual(tiers);
    // Marginal: the 50th line is still at 20%, the 51st at 25%, the 200th at 25%, the 201st at 30%.
    const rateOf = (ordinal: number) => lines.find((l) => l.ordinal === ordinal)?.rateBps;
    expect([rateOf(50), rateOf(51), rateOf(200), rateOf(201)]).toEqual([2000, count >= 51 ? 2500 : undefined, count >= 200 ? 2500 : undefined, count >= 201 ? 3000 : undefined]);
  });

  test('founding: 35% of every license, whatever the count, and founding lines take no standard place', () => {
    // 10 Pro licenses at 35%: 363,333 x 0.35 = 127,166.55 -> 127,166 each; 1,271,660 in all.
    const founding = buildStatement(licenses(10, PRO, 'founding-35'), 0);
    expect(founding.totals).toMatchObject({ licenses: 10, royaltyMicros: 1_271_660, royaltyCents: 127, carriedOutMicros: 1_660 });
    expect(founding.totals.tiers).toEqual([{ tier: 'founding', rateBps: 3500, licenses: 10, grossMicros: 3_633_330, royaltyMicros: 1_271_660 }]);
    expect(founding.lines.every((l) => l.ordinal === undefined)).toBe(true);

    // 250 founding Starter licenses stay at 35%: 153,125 each, 38,281,250 -> 3,828 cents and 1,250 carried.
    expect(buildStatement(licenses(250, STARTER, 'founding-35'), 0).totals).toMatchObject({ royaltyMicros: 38_281_250, royaltyCents: 3828, carriedOutMicros: 1_250 });

    // A founding talent who removed their likeness: 3 licenses at 35% before, 51 standard after.
    // 3 x 153,125 = 459,375; 50 x 87,500 + 109,375 = 4,484,375; 4,943,750 in all -> 494 cents, 3,750 carried.
    const mixed = buildStatement([...licenses(3, STARTER, 'founding-35'), ...licenses(51, STARTER, 'standard-tiers', 3)], 0);
    expect(mixed.totals).toMatchObject({ licenses: 54, royaltyMicros: 4_943_750, royaltyCents: 494, carriedOutMicros: 3_750 });
    expect(mixed.lines.filter((l) => l.tier === 'standard-2').map((l) => l.ordinal)).toEqual([51]);
  });

  test('a month with no licenses: nothing earned, the remainder carried in is carried on', () => {
    expect(buildStatement([], 0).totals).toEqual({ licenses: 0, grossMicros: 0, royaltyMicros: 0, carriedInMicros: 0, royaltyCents: 0, carriedOutMicros: 0, tiers: [] });
    expect(buildStatement([], 7_000).totals).toMatchObject({ royaltyCents: 0, carriedOutMicros: 7_000 });
  });

  test('remainders are carried forward across three statements, and the carry makes a cent when it adds up', () => {
    // November: 50 Pro licenses, 3,633,300 -> 363 cents, 3,300 carried.
    const nov = buildStatement(licenses(50, PRO), 0).totals;
    expect([nov.royaltyCents, nov.carriedOutMicros]).toEqual([363, 3_300]);
    // December: 1 Pro license, 72,666 + 3,300 = 75,966 -> 7 cents, 5,966 carried.
    const dec = buildStatement(licenses(1, PRO, 'standard-tiers', 0, '2026-12'), nov.carriedOutMicros).totals;
    expect([dec.carriedInMicros, dec.royaltyCents, dec.carriedOutMicros]).toEqual([3_300, 7, 5_966]);
    // January: 51 Pro licenses, 3,724,133 + 5,966 = 3,730,099 -> 373 cents, 99 carried.
    const jan = buildStatement(licenses(51, PRO, 'standard-tiers', 0, '2027-01'), dec.carriedOutMicros).totals;
    expect([jan.royaltyCents, jan.carriedOutMicros]).toEqual([373, 99]);
    // Nothing lost: 7,430,099 micro-dollars earned = 743 cents paid and 99 carried.
    expect((363 + 7 + 373) * 10_000 + 99).toBe(3_633_300 + 72_666 + 3_724_133);
    // Without the carry, January would pay 372 cents: the carried remainders made the 373rd.
    expect(buildStatement(licenses(51, PRO, 'standard-tiers', 0, '2027-01'), 0).totals.royaltyCents).toBe(372);
  });

  test('the order licenses come in does not matter: lines are numbered by issue time, then license id', () => {
    const month = licenses(60, PRO);
    // The first 50 by time are at 20% whatever order they arrive in.
    const reversed = buildStatement([...month].reverse(), 0);
    expect(reversed).toEqual(buildStatement(month, 0));
    expect(reversed.lines.slice(0, 50).every((l) => l.rateBps === 2000)).toBe(true);
    expect(reversed.lines[50].licenseId).toBe(month[50].licenseId);
    // Two licenses of the same instant are ordered by license id.
    const tie = [{ ...month[1], at: month[0].at }, month[0]];
    expect(buildStatement(tie, 0).lines.map((l) => l.licenseId)).toEqual([month[0].licenseId, month[1].licenseId]);
  });

  test('the month a close on the 1st closes', () => {
    expect(previousMonth('2026-12-01T01:00:00Z')).toBe('2026-11');
    expect(previousMonth('2027-01-01T01:00:00Z')).toBe('2026-12');
  });
});

// ---- Promotional credits and licenses that earn nothing (decision 037) -------------------------

// A promotional credit at the cheapest paid credit, Enterprise's $269 / 900 = 298,888.8 -> 298,888:
// 20% = 59,777.6 -> 59,777; 35% = 104,610.8 -> 104,610 micro-dollars.
const PROMO = 298_888;
const CAP = 25_000_000; // $25
const promotional = (lines: AccrualLine[]): AccrualLine[] => lines.map((l) => ({ ...l, promotional: true }));
const noRoyalty = (lines: AccrualLine[], reason: 'own-account' | 'testing-grant' = 'own-account'): AccrualLine[] =>
  lines.map((l) => ({ ...l, creditValueMicros: 0, noRoyalty: reason }));

describe('licenses that earn nothing, by hand', () => {
  test('earn 0, are counted, are not lines, and take no place in the tiers', () => {
    // 50 paid Starter licenses with 3 of the talent's own and 2 of a testing grant among them (one a
    // minute, ids 0-54): the 50 paid are licenses 1-50, all at 20% = 50 x 87,500 = 4,375,000.
    const own = noRoyalty(licenses(3, STARTER, 'standard-tiers', 10));
    const testing = noRoyalty(licenses(2, STARTER, 'standard-tiers', 30), 'testing-grant');
    const paid = [...licenses(10, STARTER), ...licenses(17, STARTER, 'standard-tiers', 13), ...licenses(23, STARTER, 'standard-tiers', 32)];
    expect(paid).toHaveLength(50);
    const { lines, totals } = buildStatement([...paid, ...own, ...testing], 0);
    expect(lines.map((l) => l.licenseId).sort()).toEqual(paid.map((l) => l.licenseId).sort());
    expect(lines.map((l) => l.ordinal)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(totals).toEqual({
      licenses: 50,
      grossMicros: 50 * STARTER,
      royaltyMicros: 4_375_000,
      carriedInMicros: 0,
      royaltyCents: 437,
      carriedOutMicros: 5_000,
      tiers: [{ tier: 'standard-1', rateBps: 2000, licenses: 50, grossMicros: 50 * STARTER, royaltyMicros: 4_375_000 }],
      noRoyaltyLicenses: 5,
    });
  });

  test('a month of only such licenses pays nothing and says how many', () => {
    expect(buildStatement(noRoyalty(licenses(4, STARTER)), 3_000).totals).toEqual({
      licenses: 0,
      grossMicros: 0,
      royaltyMicros: 0,
      carriedInMicros: 3_000,
      royaltyCents: 0,
      carriedOutMicros: 3_000,
      tiers: [],
      noRoyaltyLicenses: 4,
    });
  });
});

describe('promotional credits, by hand', () => {
  test('earn the first rate in a section of their own and take no place in the tiers', () => {
    // 10 paid Starter licenses (1-10 at 20%: 875,000) and 5 promotional ones at 20% (5 x 59,777 = 298,885).
    const { lines, totals } = buildStatement([...licenses(10, STARTER), ...promotional(licenses(5, PROMO, 'standard-tiers', 10))], 0, CAP);
    expect(totals).toEqual({
      licenses: 15,
      grossMicros: 10 * STARTER + 5 * PROMO,
      royaltyMicros: 875_000 + 298_885,
      carriedInMicros: 0,
      // 1,173,885 micro-dollars: 117 cents, 3,885 carried.
      royaltyCents: 117,
      carriedOutMicros: 3_885,
      tiers: [{ tier: 'standard-1', rateBps: 2000, licenses: 10, grossMicros: 10 * STARTER, royaltyMicros: 875_000 }],
      promotional: { licenses: 5, grossMicros: 5 * PROMO, earnedMicros: 298_885, capMicros: CAP, cutMicros: 0, royaltyMicros: 298_885 },
    });
    const promo = lines.filter((l) => l.promotional);
    expect(promo.map((l) => [l.ordinal, l.tier, l.rateBps, l.royaltyMicros])).toEqual(Array.from({ length: 5 }, () => [undefined, 'standard-1', 2000, 59_777]));
  });

  test('are capped per statement, the cut shown; however many there are, paid licenses keep their tier', () => {
    // 500 promotional licenses earn 500 x 59,777 = 29,888,500; the $25 cap cuts 4,888,500. The 3
    // paid licenses issued after them are still licenses 1-3 at 20%: 262,500.
    const { lines, totals } = buildStatement([...promotional(licenses(500, PROMO)), ...licenses(3, STARTER, 'standard-tiers', 500)], 0, CAP);
    expect(totals.promotional).toEqual({ licenses: 500, grossMicros: 500 * PROMO, earnedMicros: 29_888_500, capMicros: CAP, cutMicros: 4_888_500, royaltyMicros: CAP });
    expect(totals.tiers).toEqual([{ tier: 'standard-1', rateBps: 2000, licenses: 3, grossMicros: 3 * STARTER, royaltyMicros: 262_500 }]);
    // 25,262,500 micro-dollars: 2,526 cents, 2,500 carried.
    expect(totals).toMatchObject({ licenses: 503, royaltyMicros: 25_262_500, royaltyCents: 2526, carriedOutMicros: 2_500 });
    expect(lines.filter((l) => !l.promotional).map((l) => [l.ordinal, l.rateBps])).toEqual([[1, 2000], [2, 2000], [3, 2000]]);

    // A founding talent's promotional licenses earn 35% under the same cap: 300 x 104,610 = 31,383,000 -> 25,000,000.
    expect(buildStatement(promotional(licenses(300, PROMO, 'founding-35')), 0, CAP).totals).toMatchObject({
      royaltyMicros: CAP,
      royaltyCents: 2500,
      carriedOutMicros: 0,
      tiers: [],
      promotional: { licenses: 300, earnedMicros: 31_383_000, cutMicros: 6_383_000, royaltyMicros: CAP },
    });
    // A cap of 0 pays none of them; the lines still show what they would have earned.
    expect(buildStatement(promotional(licenses(2, PROMO)), 0, 0).totals).toMatchObject({ royaltyMicros: 0, promotional: { earnedMicros: 119_554, cutMicros: 119_554, royaltyMicros: 0 } });
  });

  test('a statement with promotional licenses needs the cap; one without keeps the shape statements had before', () => {
    expect(() => buildStatement(promotional(licenses(1, PROMO)), 0)).toThrow(RangeError);
    expect(() => buildStatement(promotional(licenses(1, PROMO)), 0, -1)).toThrow(RangeError);
    // Accruals written before credits had kinds: neither section, exactly as before.
    expect(Object.keys(buildStatement(licenses(3, STARTER), 0, CAP).totals).sort()).toEqual(['carriedInMicros', 'carriedOutMicros', 'grossMicros', 'licenses', 'royaltyCents', 'royaltyMicros', 'tiers']);
  });
});

// ---- Properties --------------------------------------------------------------------------------

const PLAN_VALUES = [creditValueMicros('free'), creditValueMicros('starter'), creditValueMicros('pro'), creditValueMicros('enterprise')];
const MONTH_START = Date.UTC(2026, 10, 1);
const MONTH_MS = 30 * 24 * 3600 * 1000;

/** A random month of licenses: up to 260 (past every tier), plan values or any value, some founding. */
const month = (tag: string, maxLength = 260) =>
  fc
    .array(
      fc.record({
        offset: fc.integer({ min: 0, max: MONTH_MS - 1 }),
        value: fc.oneof(fc.constantFrom(...PLAN_VALUES), fc.integer({ min: 0, max: 5_000_000 })),
        founding: fc.boolean(),
      }),
      { maxLength },
    )
    .map((items) =>
      items.map(
        (x, i): AccrualLine => ({
          licenseId: `lic_${tag}${String(i).padStart(8, '0')}`,
          generationId: `gen-${tag}-${i}`,
          at: new Date(MONTH_START + x.offset).toISOString(),
          month: '2026-11',
          creditValueMicros: x.value,
          royaltyPlan: x.founding ? 'founding-35' : 'standard-tiers',
        }),
      ),
    );

describe('the royalty function, properties', () => {
  test('a statement pays the sum of its lines (and of its tiers), in whole cents with the rest carried; each line at its tier\'s rate', () => {
    fc.assert(
      fc.property(month('a'), fc.integer({ min: 0, max: 9_999 }), (accruals, carriedIn) => {
        const { lines, totals } = buildStatement(accruals, carriedIn);
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        expect(totals.royaltyMicros).toBe(sum(lines.map((l) => l.royaltyMicros)));
        expect(totals.royaltyMicros).toBe(sum(totals.tiers.map((t) => t.royaltyMicros)));
        expect(totals.grossMicros).toBe(sum(accruals.map((a) => a.creditValueMicros)));
        expect(totals.licenses).toBe(sum(totals.tiers.map((t) => t.licenses)));
        expect(totals.royaltyCents * 10_000 + totals.carriedOutMicros).toBe(totals.royaltyMicros + carriedIn);
        expect(totals.carriedOutMicros).toBeLessThan(10_000);
        let standard = 0;
        for (const line of lines) {
          const ordinal = line.royaltyPlan === 'founding-35' ? undefined : ++standard;
          const rate = ordinal === undefined ? 3500 : STANDARD_TIERS.find((t) => t.upTo === undefined || ordinal <= t.upTo)!.rateBps;
          expect([line.ordinal, line.rateBps, line.royaltyMicros]).toEqual([ordinal, rate, Math.floor((line.creditValueMicros * rate) / 10_000)]);
        }
      }),
      { numRuns: 60 },
    );
  });

  test('across a sequence of closes no cent is created or lost: cents paid and the last carry add up to every line\'s royalty', () => {
    fc.assert(
      fc.property(fc.array(month('b', 120), { minLength: 1, maxLength: 6 }), (months) => {
        let carry = 0;
        let paidCents = 0;
        let earned = 0;
        for (const accruals of months) {
          const { lines, totals } = buildStatement(accruals, carry);
          expect(totals.carriedInMicros).toBe(carry);
          paidCents += totals.royaltyCents;
          earned += lines.reduce((s, l) => s + l.royaltyMicros, 0);
          carry = totals.carriedOutMicros;
        }
        expect(paidCents * 10_000 + carry).toBe(earned);
      }),
      { numRuns: 60 },
    );
  });

  test('promotional licenses and those that earn nothing never move the paid licenses\' tiers; promotional royalties never pass the cap; nothing is made or lost', () => {
    const kinds = fc.array(fc.constantFrom('paid', 'paid', 'promotional', 'own-account', 'testing-grant'), { minLength: 260, maxLength: 260 });
    fc.assert(
      fc.property(month('p'), kinds, fc.integer({ min: 0, max: 40_000_000 }), fc.integer({ min: 0, max: 9_999 }), (accruals, kind, cap, carriedIn) => {
        const mixed = accruals.map((a, i): AccrualLine => {
          const k = kind[i]!;
          if (k === 'promotional') return { ...a, promotional: true };
          if (k === 'own-account' || k === 'testing-grant') return { ...a, creditValueMicros: 0, noRoyalty: k };
          return a;
        });
        const { lines, totals } = buildStatement(mixed, carriedIn, cap);
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        const paidOnly = buildStatement(mixed.filter((a) => !a.promotional && !a.noRoyalty), 0);
        expect(lines.filter((l) => !l.promotional)).toEqual(paidOnly.lines);
        expect(totals.tiers).toEqual(paidOnly.totals.tiers);
        const promo = lines.filter((l) => l.promotional);
        const earned = sum(promo.map((l) => l.royaltyMicros));
        expect(promo.every((l) => l.ordinal === undefined && l.rateBps === (l.royaltyPlan === 'founding-35' ? 3500 : 2000))).toBe(true);
        expect(totals.promotional?.royaltyMicros ?? 0).toBe(Math.min(earned, cap));
        expect(totals.promotional?.cutMicros ?? 0).toBe(earned - Math.min(earned, cap));
        expect(totals.royaltyMicros).toBe(paidOnly.totals.royaltyMicros + Math.min(earned, cap));
        expect(totals.royaltyCents * 10_000 + totals.carriedOutMicros).toBe(totals.royaltyMicros + carriedIn);
        expect(totals.licenses + (totals.noRoyaltyLicenses ?? 0)).toBe(mixed.length);
        expect(totals.noRoyaltyLicenses ?? 0).toBe(mixed.filter((a) => a.noRoyalty).length);
      }),
      { numRuns: 60 },
    );
  });

  test('rebuilding a month gives an identical statement, whatever order the accruals are read in', () => {
    fc.assert(
      fc.property(
        month('c').chain((accruals) => fc.tuple(fc.constant(accruals), fc.shuffledSubarray(accruals, { minLength: accruals.length, maxLength: accruals.length }))),
        fc.integer({ min: 0, max: 9_999 }),
        ([accruals, reread], carriedIn) => {
          expect(buildStatement(reread, carriedIn)).toEqual(buildStatement(accruals, carriedIn));
        },
      ),
      { numRuns: 60 },
    );
  });
});
