import type { PayoutRun, StatementPayout } from '../../../events/payouts';
import { actionText, canMarkManual, canRetry, lastRunText, latestClosedMonth, manualRequest, noteOf, reconciliationText, referenceOf, totalsRows, usd } from '../../../admin/src/payouts/labels';
import { formatDateTime } from '../../../admin/src/common/format';

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
const totals: PayoutRun['totals'] = { statementsCents: 5000, carriedInCents: 700, transferredCents: 3000, carriedCents: 400, failedCents: 1500, manualCents: 0, awaitingCents: 800, stripeTransfersCents: 3000 };
const run = (over: Partial<PayoutRun>): PayoutRun => ({ month: '2026-10', payouts: [], totals, reconciliation: { state: 'balanced', differences: [] }, ...over });

describe('console payouts: the month', () => {
  it('defaults to the month whose statements closed last, across a year', () => {
    expect(latestClosedMonth(new Date('2026-11-27T16:00:00Z'))).toBe('2026-10');
    expect(latestClosedMonth(new Date('2027-01-01T00:30:00Z'))).toBe('2026-12');
  });
});

describe('console payouts: who and when', () => {
  const at = '2026-11-28T14:03:00.000Z';
  const ana = { by: 'ana@humanly.example', bySub: 'sub-ana', at };

  it("names the admin and the time of each action on a payout", () => {
    expect(actionText({ action: 'retried', ...ana })).toBe(`Retried by ana@humanly.example on ${formatDateTime(at)}`);
    expect(actionText({ action: 'marked-paid', ...ana })).toBe(`Marked paid outside Stripe by ana@humanly.example on ${formatDateTime(at)}`);
    expect(actionText({ action: 'run', ...ana })).toBe(`Run by ana@humanly.example on ${formatDateTime(at)}`);
  });

  it("says who started the month's last run (the monthly close when no admin did) and how many runs there were", () => {
    expect(lastRunText({})).toBe('Not run yet for this month');
    expect(lastRunText({ ranAt: at })).toBe(`Last run ${formatDateTime(at)}`);
    expect(lastRunText({ ranAt: at, runs: [{ at }] })).toBe(`Last run by the monthly close on ${formatDateTime(at)}`);
    expect(lastRunText({ ranAt: at, runs: [{ at: '2026-11-01T02:00:00.000Z' }, { at, by: ana.by, bySub: ana.bySub }] })).toBe(`Last run by ana@humanly.example on ${formatDateTime(at)} · 2 runs`);
  });
});

describe('console payouts: rows', () => {
  it('offers Retry only on a failed payout, and paying outside Stripe only where nothing was paid', () => {
    expect(canRetry(payout({ state: 'failed' }))).toBe(true);
    expect(canRetry(payout({ state: 'paid' }))).toBe(false);
    expect(canRetry(payout({ state: 'awaiting-account' }))).toBe(false);
    expect(['failed', 'awaiting-account', 'carried'].every((state) => canMarkManual(payout({ state: state as StatementPayout['state'] })))).toBe(true);
    expect(['paid', 'manual', 'transferring', 'nothing-due'].some((state) => canMarkManual(payout({ state: state as StatementPayout['state'] })))).toBe(false);
  });

  it('shows the transfer or the outside reference, and the failure or the reason', () => {
    expect(referenceOf(payout({ transferId: 'tr_1' }))).toBe('tr_1');
    expect(referenceOf(payout({ state: 'manual', reference: 'WISE-9' }))).toBe('WISE-9');
    expect(referenceOf(payout({ state: 'carried' }))).toBe('');
    expect(noteOf(payout({ state: 'failed', failure: "The talent's account cannot receive transfers yet." }))).toBe("The talent's account cannot receive transfers yet.");
    expect(noteOf(payout({ state: 'manual', reason: 'No Stripe in their country' }))).toBe('Outside Stripe: No Stripe in their country');
    expect(noteOf(payout({ state: 'paid' }))).toBe('');
  });

  it('writes money as dollars, a negative one with a minus sign', () => {
    expect(usd(150_000)).toBe('$1500.00');
    expect(usd(-250)).toBe('−$2.50');
  });
});

describe('console payouts: totals and reconciliation', () => {
  it('lists every total in dollars', () => {
    expect(totalsRows(totals)).toEqual([
      ["Statements' royalties", '$50.00'],
      ['Carried in from earlier months', '$7.00'],
      ['Transferred through Stripe', '$30.00'],
      ['Carried to next month', '$4.00'],
      ['Failed', '$15.00'],
      ['Paid outside Stripe', '$0.00'],
      ['Awaiting payout account', '$8.00'],
      ["Stripe's transfers for the month", '$30.00'],
    ]);
  });

  it('says a balanced month balances, and counts the differences of one that does not', () => {
    expect(reconciliationText(run({}))).toMatch(/^Balanced: the amounts due \(\$57\.00\)/);
    expect(reconciliationText(run({ reconciliation: { state: 'differences', differences: ['2026-10_t1: statement $12.00, transfer $10.00'] } }))).toBe(
      "1 difference between the statements, the payouts and Stripe's transfers:",
    );
    expect(reconciliationText(run({ reconciliation: { state: 'differences', differences: ['a', 'b'] } }))).toMatch(/^2 differences/);
  });
});

describe('console payouts: paid outside Stripe', () => {
  const today = '2026-11-27';

  it('builds the request, today meaning now and another day noon UTC', () => {
    expect(manualRequest({ reference: ' WISE-9 ', reason: 'No Stripe in their country', paidOn: today }, today)).toEqual({ request: { reference: 'WISE-9', reason: 'No Stripe in their country' } });
    expect(manualRequest({ reference: 'W', reason: 'R', paidOn: '2026-11-20' }, today)).toEqual({ request: { reference: 'W', reason: 'R', paidAt: '2026-11-20T12:00:00.000Z' } });
  });

  it("names each field that is wrong in the contract's words", () => {
    expect(manualRequest({ reference: ' ', reason: '', paidOn: '2026-12-01' }, today)).toEqual({
      errors: { reference: "Give the payment's reference.", reason: 'Say why this talent is paid outside Stripe.', paidOn: 'The day it was paid cannot be in the future.' },
    });
    expect(manualRequest({ reference: 'x'.repeat(101), reason: 'ok', paidOn: 'soon' }, today)).toEqual({
      errors: { reference: 'The reference can be at most 100 characters.', paidOn: 'Give the day it was paid, such as 2026-11-03.' },
    });
  });
});
