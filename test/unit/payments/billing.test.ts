// The payments wing's pure rules (functions/payments/billing.ts): subscription states, the value of
// a paid credit, when plan credits expire, and what an upgrade's proration grants.
import * as fc from 'fast-check';
import {
  addInterval,
  allowancesOfPeriod,
  creditsPaidFor,
  intervalOf,
  isLive,
  paidCreditValueMicros,
  planCreditsExpireAt,
  subscriptionStateOf,
  upgradeAllowance,
  type PeriodInvoice,
} from '../../../functions/payments/billing';
import { PLANS, planById } from '../../../events/plans';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('subscription states', () => {
  it.each([
    ['active', false, 'active'],
    ['trialing', false, 'active'],
    ['active', true, 'canceling'],
    ['past_due', false, 'past_due'],
    ['past_due', true, 'past_due'],
    ['canceled', false, 'ended'],
    ['unpaid', false, 'ended'],
    ['incomplete_expired', false, 'ended'],
    ['incomplete', false, undefined],
    ['paused', false, undefined],
  ] as const)('%s (cancel at period end: %s) is %s', (status, cancel, state) => {
    expect(subscriptionStateOf({ status, cancel_at_period_end: cancel })).toBe(state);
  });

  it('a live state holds a paid plan; ended and unknown do not', () => {
    expect(['active', 'past_due', 'canceling'].every((s) => isLive(s as never))).toBe(true);
    expect(isLive('ended')).toBe(false);
    expect(isLive(undefined)).toBe(false);
  });
});

describe('what a paid credit is worth', () => {
  it('is what was paid over the credits, in micro-dollars, rounded down', () => {
    expect(paidCreditValueMicros(3500, 80)).toBe(437_500);
    expect(paidCreditValueMicros(4000, 100)).toBe(400_000);
    expect(paidCreditValueMicros(10_900, 300)).toBe(363_333);
    expect(paidCreditValueMicros(0, 10)).toBe(0);
  });

  it('never values the credits above what was paid, nor a cent below', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 100_000 }), (cents, credits) => {
        const v = paidCreditValueMicros(cents, credits);
        expect(Number.isSafeInteger(v)).toBe(true);
        expect(v * credits).toBeLessThanOrEqual(cents * 10_000);
        expect((v + 1) * credits).toBeGreaterThan(cents * 10_000);
      }),
    );
  });

  it('refuses amounts and credits that are not whole, naming them', () => {
    expect(() => paidCreditValueMicros(35.5, 80)).toThrow('amount paid must be whole cents, 0 or more (got 35.5)');
    expect(() => paidCreditValueMicros(3500, 0)).toThrow('credits must be a whole number of at least 1 (got 0)');
  });
});

describe('when plan credits expire', () => {
  it('at the end of the following period, on the calendar', () => {
    const month = { interval: 'month', count: 1 } as const;
    expect(planCreditsExpireAt(at('2030-02-15T12:00:00Z'), month)).toBe('2030-03-15T12:00:00.000Z');
    expect(planCreditsExpireAt(at('2030-01-31T00:00:00Z'), month)).toBe('2030-02-28T00:00:00.000Z');
    expect(planCreditsExpireAt(at('2031-12-31T08:00:00Z'), { interval: 'year', count: 1 })).toBe('2032-12-31T08:00:00.000Z');
    expect(planCreditsExpireAt(at('2030-02-15T12:00:00Z'), { interval: 'week', count: 2 })).toBe('2030-03-01T12:00:00.000Z');
  });

  it('reads a price\'s interval, a month when it names none', () => {
    expect(intervalOf({ interval: 'year', interval_count: 1 })).toEqual({ interval: 'year', count: 1 });
    expect(intervalOf(null)).toEqual({ interval: 'month', count: 1 });
    expect(() => addInterval(0, { interval: 'month', count: 0 })).toThrow('an interval count must be a whole number of at least 1 (got 0)');
  });
});

describe('an upgrade within a period', () => {
  const inv = (id: string, created: number, kind: PeriodInvoice['kind'], planCredits: number, planPriceCents = planCredits * 100, amountPaidCents = planPriceCents): PeriodInvoice => ({
    id,
    created,
    number: `ABC-${String(created).padStart(4, '0')}`,
    kind,
    plan: 'pro',
    planCredits,
    planPriceCents,
    amountPaidCents,
    periodEnd: 1000,
  });

  it('grants the new plan less what the period already gave, never negative', () => {
    expect(upgradeAllowance(300, 80)).toBe(220);
    expect(upgradeAllowance(80, 300)).toBe(0);
    const grants = allowancesOfPeriod([inv('starter', 1, 'period', 80), inv('pro', 2, 'upgrade', 300), inv('enterprise', 3, 'upgrade', 900)]);
    expect(Object.fromEntries(grants)).toEqual({ starter: 80, pro: 220, enterprise: 600 });
  });

  it('gives the same grants whatever order the invoices are seen in', () => {
    const all = [inv('a', 1, 'period', 80), inv('b', 2, 'upgrade', 300), inv('c', 2, 'upgrade', 900)];
    fc.assert(
      fc.property(fc.shuffledSubarray(all, { minLength: 3, maxLength: 3 }), (shuffled) => {
        expect(Object.fromEntries(allowancesOfPeriod(shuffled))).toEqual({ a: 80, b: 220, c: 600 });
      }),
    );
  });

  it('grants no more than what was collected pays for at the new plan\'s rate, and nothing for an invoice not collected', () => {
    const starter = planById('starter');
    const enterprise = planById('enterprise');
    // Starter to Enterprise an hour before the period ends: $0.29 of Enterprise charged, Stripe takes nothing under its minimum.
    const start = inv('s', 1, 'period', starter.monthlyCredits, starter.monthlyPriceCents);
    const late = (amountPaidCents: number) => inv('e', 2, 'upgrade', enterprise.monthlyCredits, enterprise.monthlyPriceCents, amountPaidCents);
    expect(allowancesOfPeriod([start, late(0)]).get('e')).toBe(0);
    expect(allowancesOfPeriod([start, late(29)]).get('e')).toBe(0);
    // Half the period left: (269 - 35) / 2 = $117.00 collected buys 391 credits at Enterprise's $0.2989.
    expect(allowancesOfPeriod([start, late(11_700)]).get('e')).toBe(391);
    // The whole difference paid (an upgrade at the period's start) is capped by the allowance: 900 - 80.
    expect(allowancesOfPeriod([start, late(enterprise.monthlyPriceCents)]).get('e')).toBe(820);
    // A period invoice collected in full grants the plan's allowance; a $0 one grants none.
    expect(allowancesOfPeriod([start]).get('s')).toBe(80);
    expect(allowancesOfPeriod([inv('z', 1, 'period', 80, 3500, 0)]).get('z')).toBe(0);
    expect(creditsPaidFor(3500, 80, 3500)).toBe(80);
    expect(() => creditsPaidFor(-1, 80, 3500)).toThrow('amount paid must be whole cents, 0 or more (got -1)');
    expect(() => creditsPaidFor(100, 80, 0)).toThrow("a paid plan's price must be whole cents, 1 or more (got 0)");
  });

  // Stripe's proration of a switch at a moment of the period: the new price's remaining time less the old's unused time.
  const prorated = (fromCents: number, toCents: number, left: number, span: number) => Math.round((toCents * left) / span) - Math.round((fromCents * left) / span);
  const PAID = PLANS.filter((p) => p.monthlyPriceCents > 0);
  const pairs = PAID.flatMap((from) => PAID.filter((to) => to.monthlyPriceCents > from.monthlyPriceCents).map((to) => [from, to] as const));
  const SPAN = 31 * 86_400;

  it('for any plan pair, moment of the period and amount collected, grants at most the credits paid for (within one of rounding), at least them unless the allowance caps it, and never past the allowance', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.integer({ min: 0, max: SPAN }),
        // What Stripe collected: the proration, nothing (under its minimum), or any amount (a balance or a discount applied).
        fc.oneof(fc.constant<'prorated'>('prorated'), fc.constant<'none'>('none'), fc.integer({ min: 0, max: 100_000 })),
        fc.boolean(),
        ([from, to], left, collected, reversed) => {
          const due = Math.max(0, prorated(from.monthlyPriceCents, to.monthlyPriceCents, left, SPAN));
          const paid = collected === 'prorated' ? due : collected === 'none' ? 0 : collected;
          const invoices = [inv('p', 1, 'period', from.monthlyCredits, from.monthlyPriceCents), inv('u', 2, 'upgrade', to.monthlyCredits, to.monthlyPriceCents, paid)];
          const granted = allowancesOfPeriod(reversed ? invoices.reverse() : invoices).get('u')!;
          const paidFor = (paid * to.monthlyCredits) / to.monthlyPriceCents;
          const allowance = to.monthlyCredits - from.monthlyCredits;
          expect(Number.isSafeInteger(granted) && granted >= 0).toBe(true);
          expect(granted).toBeLessThanOrEqual(paidFor);
          expect(granted).toBeLessThanOrEqual(allowance);
          expect(granted).toBeGreaterThan(Math.min(paidFor, allowance) - 1);
          if (paid === 0) expect(granted).toBe(0);
          // The credits granted, valued at the new plan's rate, never cost more than was collected.
          expect(granted * to.monthlyPriceCents).toBeLessThanOrEqual(paid * to.monthlyCredits);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
