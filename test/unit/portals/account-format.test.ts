import fc from 'fast-check';
import { APPLICATION_STATUSES, EXCLUDABLE_INDUSTRIES } from '../../../events/founding-values';
import { LEDGER_KINDS, TALENT_ACCESS } from '../../../events/account-values';
import {
  APPLICATION_STATUS_TEXT,
  INDUSTRY_LABELS,
  LEDGER_KIND_LABELS,
  TALENT_ACCESS_TEXT,
  creditsText,
  formatCreditChange,
  formatCredits,
  formatDate,
  fullNameProblem,
  sameIndustries,
  welcomeTitle,
} from '../../../web/src/account/format';

describe('portal formatting', () => {
  it('greets by first name, and an account without a name with plain "Welcome"', () => {
    expect(welcomeTitle('Rita Moreno')).toBe('Welcome, Rita');
    expect(welcomeTitle('  Ana  ')).toBe('Welcome, Ana');
    expect(welcomeTitle('')).toBe('Welcome');
    expect(welcomeTitle('   ')).toBe('Welcome');
  });

  it('shows a credit change with its sign, and balances with separators', () => {
    expect(formatCreditChange(10)).toBe('+10');
    expect(formatCreditChange(-3)).toBe('-3');
    expect(formatCreditChange(0)).toBe('0');
    expect(formatCreditChange(1250)).toBe('+1,250');
    expect(formatCredits(10000)).toBe('10,000');
    expect(creditsText(1)).toBe('1 credit');
    expect(creditsText(300)).toBe('300 credits');
    expect(() => formatCreditChange(1.5)).toThrow('credits must be an integer, got 1.5');
    expect(() => formatCredits(Number.NaN)).toThrow(RangeError);
  });

  it('a change reads back as the same integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), (n) => {
        expect(Number(formatCreditChange(n).replace(/,/g, ''))).toBe(n);
        expect(formatCreditChange(n).startsWith('+')).toBe(n > 0);
      }),
    );
  });

  it('writes dates as month, day and year in the given time zone, and refuses a non-date', () => {
    expect(formatDate('2026-11-24T23:30:00.000Z', 'UTC')).toBe('Nov 24, 2026');
    expect(formatDate('2026-11-24T23:30:00.000Z', 'Asia/Tokyo')).toBe('Nov 25, 2026');
    expect(() => formatDate('soon')).toThrow('not a date: soon');
  });

  it('has words for every ledger kind, application status, talent standing and industry of the contract', () => {
    expect(Object.keys(LEDGER_KIND_LABELS).sort()).toEqual([...LEDGER_KINDS].sort());
    expect(Object.keys(APPLICATION_STATUS_TEXT).sort()).toEqual([...APPLICATION_STATUSES].sort());
    expect(Object.keys(TALENT_ACCESS_TEXT).sort()).toEqual([...TALENT_ACCESS].sort());
    expect(Object.keys(INDUSTRY_LABELS)).toEqual([...EXCLUDABLE_INDUSTRIES]);
    expect(LEDGER_KIND_LABELS.grant).toBe('Grant');
    expect(APPLICATION_STATUS_TEXT.pending_review.label).toBe('In review');
  });

  it('compares excluded industries whatever their order', () => {
    expect(sameIndustries(['religion', 'alcohol'], ['alcohol', 'religion'])).toBe(true);
    expect(sameIndustries([], [])).toBe(true);
    expect(sameIndustries(['religion'], ['religion', 'politics'])).toBe(false);
    expect(sameIndustries(['religion', 'politics'], ['religion'])).toBe(false);
  });

  it('checks a full name as the server does: present after trimming, at most 100 characters', () => {
    expect(fullNameProblem('  ')).toBe('Enter your full name.');
    expect(fullNameProblem('Ana Lima')).toBeUndefined();
    expect(fullNameProblem('x'.repeat(100))).toBeUndefined();
    expect(fullNameProblem('x'.repeat(101))).toBe('Your full name can be at most 100 characters.');
  });
});
