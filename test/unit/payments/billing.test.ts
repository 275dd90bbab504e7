// The payments wing's pure rules (functions/payments/billing.ts): subscription states, the value of
// a paid credit, when plan credits expire, and what an upgrade's proration grants.
import * as fc from 'fast-check';
import {
  addInterval,
  allowancesOfPeriod,
  intervalOf,
  isLive,
  paidCreditValueMicros,
  planCreditsExpireAt,
  subscriptionStateOf,
  upgradeAllowance,
  type PeriodInvoice,
} from '../../../functions/payments/billing';

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
  const inv = (id: string, created: number, kind: PeriodInvoice['kind'], planCredits: number): PeriodInvoice => ({
    id,
    created,
    number: `ABC-${String(created).padStart(4, '0')}`,
    kind,
    plan: 'pro',
    planCredits,
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
});
