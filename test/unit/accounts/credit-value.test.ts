// What a credit is worth (decision 036): promotional credits (the Free plan's, admin grants) are
// valued at the cheapest paid credit, never more than any credit a client pays for.
import { PLANS, PROMOTIONAL_CREDIT_VALUE_MICROS, PROMOTIONAL_LOT, creditValueMicros, planLot } from '../../../events/plans';
import type { AccountStore } from '../../../functions/accounts/store';
import type { CreditLedger } from '../../../functions/accounts/credits';
import { grantMonthlyAllowance } from '../../../functions/accounts/triggers/monthly-allowance/service';

/** Every paid credit's value by hand: a plan's month over its credits, and each extra-credit price. */
const PAID_CREDIT_VALUES = {
  'starter month': Math.floor((3500 * 10_000) / 80),
  'pro month': Math.floor((10900 * 10_000) / 300),
  'enterprise month': Math.floor((26900 * 10_000) / 900),
  'starter extra': 40 * 10_000,
  'pro extra': 35 * 10_000,
  'enterprise extra': 30 * 10_000,
};

describe('promotional credit value', () => {
  it('is the cheapest paid credit: no paid credit is worth less', () => {
    for (const [offer, value] of Object.entries(PAID_CREDIT_VALUES)) {
      expect([offer, PROMOTIONAL_CREDIT_VALUE_MICROS <= value]).toEqual([offer, true]);
    }
    expect(PROMOTIONAL_CREDIT_VALUE_MICROS).toBe(Math.min(...Object.values(PAID_CREDIT_VALUES)));
    expect(PROMOTIONAL_CREDIT_VALUE_MICROS).toBe(298_888);
  });

  it('follows the plans: whatever they say, it is at most every paid plan credit and extra-credit price', () => {
    for (const plan of PLANS.filter((p) => p.monthlyPriceCents > 0)) {
      expect(PROMOTIONAL_CREDIT_VALUE_MICROS).toBeLessThanOrEqual(creditValueMicros(plan.id));
      expect(PROMOTIONAL_CREDIT_VALUE_MICROS).toBeLessThanOrEqual(plan.extraCreditCents! * 10_000);
    }
  });

  it('a Free plan credit is promotional; a paid plan\'s allowance is paid at its monthly price over its credits', () => {
    expect(creditValueMicros('free')).toBe(PROMOTIONAL_CREDIT_VALUE_MICROS);
    expect(planLot('free')).toEqual(PROMOTIONAL_LOT);
    expect(PROMOTIONAL_LOT).toEqual({ valueMicros: 298_888, kind: 'promotional' });
    expect(planLot('starter')).toEqual({ valueMicros: 437_500, kind: 'paid' });
    expect(planLot('pro')).toEqual({ valueMicros: 363_333, kind: 'paid' });
    expect(planLot('enterprise')).toEqual({ valueMicros: 298_888, kind: 'paid' });
  });
});

describe('the monthly allowance', () => {
  it("grants each paid plan's credits as one paid lot at the plan's credit value", async () => {
    const accounts = {
      list: async (q: { plan: string }) => ({ items: q.plan === 'free' ? [] : [{ id: `${q.plan}-client` }], total: q.plan === 'free' ? 0 : 1 }),
    } as unknown as AccountStore;
    const lots: Record<string, unknown> = {};
    const ledger = {
      grant: async (id: string, c: { lot: unknown }) => ((lots[id] = c.lot), { replayed: false }),
    } as unknown as CreditLedger;
    await grantMonthlyAllowance({ accounts, ledger, now: () => new Date('2026-06-01T00:05:00Z') });
    // Plan credits granted for June expire at the end of July (decision 043).
    const expiresAt = '2026-07-31T23:59:59.999Z';
    expect(lots).toEqual({
      'starter-client': { valueMicros: 437_500, kind: 'paid', expiresAt },
      'pro-client': { valueMicros: 363_333, kind: 'paid', expiresAt },
      'enterprise-client': { valueMicros: 298_888, kind: 'paid', expiresAt },
    });
  });
});
