import type { ConnectAccountStatus, StatementPayout } from '../../../events/payouts';
import { accountText, earningsYears, onboardingReturnOf, payoutText, requirementsText } from '../../../web/src/payouts/format';

const account = (over: Partial<ConnectAccountStatus>): ConnectAccountStatus => ({ state: 'not-started', requirementsDue: [], payoutsEnabled: false, ...over });
const payout = (over: Partial<StatementPayout>): StatementPayout => ({
  statementId: '2026-10_t1',
  talentId: 't1',
  month: '2026-10',
  statementCents: 1200,
  carriedInCents: 0,
  amountCents: 1200,
  state: 'paid',
  ...over,
});

describe('payout account in the talent portal', () => {
  it('offers to set up payouts when there is no account', () => {
    expect(accountText(account({}))).toMatchObject({ label: 'Not set up', action: 'set-up', tone: 'muted' });
    expect(accountText(account({})).body).toMatch(/Stripe.*bank and tax details/);
  });

  it("says what Stripe still needs, each thing once, and offers to continue", () => {
    const text = accountText(account({ state: 'onboarding', requirementsDue: ['individual.dob.day', 'individual.dob.month', 'external_account', 'individual.ssn_last_4'] }));
    expect(text).toMatchObject({ label: 'Setup not finished', action: 'continue', tone: 'warn' });
    expect(text.body).toBe('Stripe still needs your date of birth, your bank account and your tax identification number. Continue the setup to give it; your royalties wait for you meanwhile.');
    expect(accountText(account({ state: 'onboarding' })).body).toMatch(/^Stripe is checking/);
  });

  it('names a requirement it does not know in plain words', () => {
    expect(requirementsText(['company.tax_id', 'external_account', 'external_account'])).toEqual(['company tax id', 'your bank account']);
  });

  it("shows an active account with the bank's last four and nothing to do", () => {
    const text = accountText(account({ state: 'active', bankLast4: '6789', payoutsEnabled: true }));
    expect(text).toMatchObject({ label: 'Payouts active', action: 'none', tone: 'ok' });
    expect(text.body).toContain('ending 6789');
  });

  it('explains a restriction by its reason, with what to do', () => {
    expect(accountText(account({ state: 'restricted', disabledReason: 'requirements.past_due' }))).toMatchObject({ tone: 'bad', action: 'continue', label: 'Payouts restricted' });
    expect(accountText(account({ state: 'restricted', disabledReason: 'requirements.pending_verification' })).action).toBe('none');
    expect(accountText(account({ state: 'restricted', disabledReason: 'rejected.fraud' }))).toMatchObject({ action: 'contact' });
    expect(accountText(account({ state: 'restricted', disabledReason: 'rejected.fraud' })).body).toMatch(/Write to us/);
    expect(accountText(account({ state: 'restricted' })).action).toBe('continue');
  });
});

describe("a statement's payout in the talent portal", () => {
  it('shows Paid with the amount, the day and the transfer reference', () => {
    expect(payoutText(payout({ transferId: 'tr_123', paidAt: '2026-11-01T02:00:00.000Z', carriedInCents: 300, amountCents: 1500 }), 1000)).toEqual({
      label: 'Paid',
      detail: '$15.00 on Nov 1, 2026, reference tr_123. It includes $3.00 carried from earlier statements.',
      tone: 'ok',
    });
  });

  it('says an amount under the minimum is carried, naming the minimum', () => {
    expect(payoutText(payout({ state: 'carried', statementCents: 420, amountCents: 420 }), 1000)).toEqual({
      label: 'Carried to your next payout',
      detail: '$4.20 is under the $10.00 minimum, so it is added to your next payout.',
      tone: 'muted',
    });
  });

  it('gives the failure in words with what happens next', () => {
    const text = payoutText(payout({ state: 'failed', failure: 'Your bank says the account is closed. Update your bank account in the payout setup.' }), 1000);
    expect(text).toMatchObject({ label: 'Payout failed', tone: 'bad' });
    expect(text.detail).toBe('Your bank says the account is closed. Update your bank account in the payout setup. Once it is fixed, we pay $12.00 again; nothing is lost.');
    expect(payoutText(payout({ state: 'failed' }), 1000).detail).toMatch(/^The payment to your bank account did not go through/);
  });

  it('names the other states by the shared labels', () => {
    expect(payoutText(payout({ state: 'awaiting-account' }), 1000)).toMatchObject({ label: 'Waiting for your payout account', tone: 'warn' });
    expect(payoutText(payout({ state: 'manual', reference: 'WISE-9', paidAt: '2026-11-03T12:00:00.000Z' }), 1000).detail).toBe('$12.00 on Nov 3, 2026, reference WISE-9.');
    expect(payoutText(payout({ state: 'transferring' }), 1000).label).toBe('Being transferred');
    expect(payoutText(payout({ state: 'nothing-due', amountCents: 0 }), 1000)).toEqual({ label: 'Nothing due', tone: 'muted' });
  });
});

describe('earnings years and the way back from Stripe', () => {
  it('offers every year with a statement and this year, newest first', () => {
    const now = new Date('2027-01-05T00:00:00Z');
    expect(earningsYears([{ month: '2026-11' }, { month: '2025-12' }, { month: '2026-10' }], now)).toEqual([2027, 2026, 2025]);
    expect(earningsYears([], now)).toEqual([2027]);
  });

  it('reads only the values Stripe sends back', () => {
    expect(onboardingReturnOf('?payouts=return')).toBe('return');
    expect(onboardingReturnOf('?x=1&payouts=refresh')).toBe('refresh');
    expect(onboardingReturnOf('?payouts=acct_123')).toBeUndefined();
    expect(onboardingReturnOf('')).toBeUndefined();
  });
});
