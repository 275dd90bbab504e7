import { USE_PORTAL_MESSAGE } from '../../../events/payment-values';
import { PLANS } from '../../../events/plans';
import {
  checkoutOutcomeText,
  isPaidPlanId,
  packTotalCents,
  planChoicePath,
  scheduledChangeText,
  subscriptionStateText,
  upgradeChoices,
} from '../../../web/src/payments/format';
import { safeNextPath } from '../../../web/src/auth/next-path';

const end = '2026-12-27T10:00:00.000Z';
const sub = (state: 'active' | 'past_due' | 'canceling' | 'ended', extra = {}) => ({ id: 'sub_1', plan: 'starter' as const, state, currentPeriodEnd: end, ...extra });

describe('billing words', () => {
  it('says each subscription state with the date that matters', () => {
    expect(subscriptionStateText(sub('active'), 'UTC')).toEqual({ label: 'Active', body: 'Renews on Dec 27, 2026.', tone: 'ok' });
    expect(subscriptionStateText(sub('past_due'), 'UTC')).toMatchObject({ label: 'Payment failed', tone: 'bad' });
    expect(subscriptionStateText(sub('past_due'), 'UTC').body).toContain('Update your card in Manage billing');
    expect(subscriptionStateText(sub('canceling'), 'UTC')).toMatchObject({ label: 'Cancels on Dec 27, 2026', tone: 'warn' });
    expect(subscriptionStateText(sub('ended'), 'UTC')).toMatchObject({ label: 'Ended', body: 'Your Starter plan ended. Choose a plan to subscribe again.' });
    expect(() => subscriptionStateText({ ...sub('active'), currentPeriodEnd: 'soon' })).toThrow('not a date: soon');
  });

  it('names a downgrade waiting for the period end, and nothing without one', () => {
    expect(scheduledChangeText(sub('active', { plan: 'pro', scheduledPlan: 'starter' }), 'UTC')).toBe('Changes to Starter on Dec 27, 2026.');
    expect(scheduledChangeText(sub('active'), 'UTC')).toBeUndefined();
    expect(scheduledChangeText(sub('active', { scheduledPlan: 'starter' }), 'UTC')).toBeUndefined();
  });

  it('offers the paid plans above the current one', () => {
    expect(upgradeChoices('free').map((p) => p.id)).toEqual(['starter', 'pro', 'enterprise']);
    expect(upgradeChoices('pro').map((p) => p.id)).toEqual(['enterprise']);
    expect(upgradeChoices('enterprise')).toEqual([]);
    expect(isPaidPlanId('pro')).toBe(true);
    expect(isPaidPlanId('free')).toBe(false);
    expect(isPaidPlanId('platinum')).toBe(false);
    expect(isPaidPlanId(null)).toBe(false);
  });
});

describe('the pricing page buttons', () => {
  it('send a signed-in browser to checkout and a visitor through sign-up back to the same choice', () => {
    expect(planChoicePath('starter', true)).toBe('/checkout?plan=starter');
    const visitor = planChoicePath('pro', false);
    expect(visitor).toBe('/sign-up?role=client&next=%2Fcheckout%3Fplan%3Dpro');
    // The sign-in pages accept the way back as a path of this site.
    expect(safeNextPath(new URL(visitor, 'https://site.test').searchParams.get('next'))).toBe('/checkout?plan=pro');
    expect(planChoicePath('free', false)).toBe('/sign-up?role=client');
    expect(planChoicePath('free', true)).toBe('/client-portal');
  });
});

describe('credit packs', () => {
  it('prices packs at the plan price, in integer cents', () => {
    expect(packTotalCents(100, 1, 40)).toBe(4000);
    expect(packTotalCents(250, 3, 35)).toBe(26_250);
    for (const plan of PLANS.filter((p) => p.extraCreditCents !== null)) expect(Number.isInteger(packTotalCents(500, 10, plan.extraCreditCents!))).toBe(true);
  });

  it('refuses what the server would refuse, saying what is wrong', () => {
    expect(() => packTotalCents(75, 1, 40)).toThrow('pack must be one of 50, 100, 250, 500, got 75');
    expect(() => packTotalCents(50, 0, 40)).toThrow('quantity must be a whole number from 1 to 10, got 0');
    expect(() => packTotalCents(50, 11, 40)).toThrow('quantity must be a whole number from 1 to 10, got 11');
    expect(() => packTotalCents(50, 1.5, 40)).toThrow('got 1.5');
    expect(() => packTotalCents(50, 1, 0.4)).toThrow('extraCreditCents must be a positive integer, got 0.4');
  });
});

describe('the way back from checkout', () => {
  it('says what a settled checkout added', () => {
    expect(checkoutOutcomeText({ id: 'cs_1', state: 'applied', kind: 'plan', plan: 'starter' })).toEqual({
      tone: 'ok',
      text: 'Payment confirmed: you are on Starter. 80 credits were added to your balance.',
    });
    expect(checkoutOutcomeText({ id: 'cs_1', state: 'applied', kind: 'credits', credits: 250 }).text).toBe('Payment confirmed: 250 credits were added to your balance.');
    expect(checkoutOutcomeText({ id: 'cs_1', state: 'applied', kind: 'credits', credits: 1 }).text).toBe('Payment confirmed: 1 credit was added to your balance.');
    expect(checkoutOutcomeText({ id: 'cs_1', state: 'expired', kind: 'plan', plan: 'pro' })).toEqual({ tone: 'muted', text: 'This checkout was not completed, so nothing was charged.' });
    expect(USE_PORTAL_MESSAGE).toMatch(/billing portal/);
  });
});
