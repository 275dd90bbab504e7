// Words and figures of the console's payouts (docs/product.md#console-payouts). Pure, so tests
// read them as the page does.
import type { PayoutAction, StatementPayoutState } from '../../../events/payout-values';
import { ManualPayoutRequest, type PayoutActionEntry, type PayoutRun, type StatementPayout } from '../../../events/payouts';
import { dollarsOfCents } from '../../../events/royalty-format';
import { formatDateTime } from '../common/format';

export { monthLabel } from '../statements/labels';

/** Cents as the console shows money: "$12.34" (a negative amount "−$1.00"). */
export const usd = (cents: number) => (cents < 0 ? `−$${dollarsOfCents(-cents)}` : `$${dollarsOfCents(cents)}`);

/** Payout states as the console names them (the talent's portal speaks to the talent). */
export const PAYOUT_STATE_LABELS: Record<StatementPayoutState, string> = {
  carried: 'Carried (under the minimum)',
  'awaiting-account': 'Awaiting payout account',
  transferring: 'Transferring',
  paid: 'Paid',
  failed: 'Failed',
  manual: 'Paid outside Stripe',
  'nothing-due': 'Nothing due',
};

/** Chip colours readable at WCAG AA: dark text on light tints, white only on the dark shades. */
export const PAYOUT_STATE_STYLES: Record<StatementPayoutState, { bgcolor: string; color: string }> = {
  paid: { bgcolor: '#1b5e20', color: '#ffffff' },
  manual: { bgcolor: '#e8f5e9', color: '#1b5e20' },
  carried: { bgcolor: '#eeeeee', color: '#424242' },
  'awaiting-account': { bgcolor: '#e5f6fd', color: '#014361' },
  transferring: { bgcolor: '#fff4e5', color: '#663c00' },
  failed: { bgcolor: '#b71c1c', color: '#ffffff' },
  'nothing-due': { bgcolor: '#eeeeee', color: '#424242' },
};

/** The month whose statements closed last: the one before `now`'s (statements close on the 1st, UTC). */
export function latestClosedMonth(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The payout run's CSV file name. */
export const payoutRunCsvName = (month: string) => `humanly-payout-run-${month}.csv`;

/** A failed payout can be tried again (once its cause is fixed). */
export const canRetry = (p: Pick<StatementPayout, 'state'>) => p.state === 'failed';

/** Paying outside Stripe fits a payout not made: failed, waiting for an account, or carried. */
export const canMarkManual = (p: Pick<StatementPayout, 'state'>) => p.state === 'failed' || p.state === 'awaiting-account' || p.state === 'carried';

/** What the reference column shows: the Stripe transfer, or the reference of a payment made outside Stripe. */
export const referenceOf = (p: StatementPayout) => p.transferId ?? p.reference ?? '';

/** What the notes column says of a payout: the failure, the reason paid outside Stripe, or nothing. */
export function noteOf(p: StatementPayout): string {
  if (p.state === 'failed') return p.failure ?? 'The transfer failed.';
  if (p.state === 'manual') return p.reason ? `Outside Stripe: ${p.reason}` : '';
  if (p.state === 'carried') return 'Under the minimum: carried to the next payout.';
  if (p.state === 'awaiting-account') return 'The talent has not finished setting up payouts.';
  return '';
}

/** An admin's action on a payout, as the console words it before "by <who> on <when>". */
const PAYOUT_ACTION_LABELS: Record<PayoutAction, string> = {
  run: 'Run',
  retried: 'Retried',
  'marked-paid': 'Marked paid outside Stripe',
};

/** Who did it and when: "Retried by ana@humanly.example on 28 Nov 2026, 14:03". */
export const actionText = (a: PayoutActionEntry) => `${PAYOUT_ACTION_LABELS[a.action]} by ${a.by} on ${formatDateTime(a.at)}`;

/** The header's line on the month's runs: the last one, who started it (the monthly close, when no admin did) and how many there were. */
export function lastRunText(run: Pick<PayoutRun, 'ranAt' | 'runs'>): string {
  const last = run.runs?.at(-1);
  if (!last) return run.ranAt ? `Last run ${formatDateTime(run.ranAt)}` : 'Not run yet for this month';
  const count = run.runs!.length;
  return `Last run by ${last.by ?? 'the monthly close'} on ${formatDateTime(last.at)}${count > 1 ? ` · ${count} runs` : ''}`;
}

/** The run's totals, in the order accounting reads them. */
export function totalsRows(totals: PayoutRun['totals']): Array<[string, string]> {
  return [
    ["Statements' royalties", usd(totals.statementsCents)],
    ['Carried in from earlier months', usd(totals.carriedInCents)],
    ['Transferred through Stripe', usd(totals.transferredCents)],
    ['Carried to next month', usd(totals.carriedCents)],
    ['Failed', usd(totals.failedCents)],
    ['Paid outside Stripe', usd(totals.manualCents)],
    ['Awaiting payout account', usd(totals.awaitingCents)],
    ["Stripe's transfers for the month", usd(totals.stripeTransfersCents)],
  ];
}

/** The reconciliation in one sentence for the page's alert. */
export function reconciliationText(run: PayoutRun): string {
  if (run.reconciliation.state === 'balanced')
    return `Balanced: the amounts due (${usd(run.totals.statementsCents + run.totals.carriedInCents)}) equal what was transferred, carried, failed, paid outside Stripe and awaiting, and Stripe's transfers match the payouts.`;
  const n = run.reconciliation.differences.length;
  return `${n} ${n === 1 ? 'difference' : 'differences'} between the statements, the payouts and Stripe's transfers:`;
}

export interface ManualForm {
  reference: string;
  reason: string;
  /** YYYY-MM-DD; empty for now. */
  paidOn: string;
}

/** The manual payout request, or the shared schema's message for each field that is wrong. */
export function manualRequest(form: ManualForm, today = new Date().toISOString().slice(0, 10)): { request: ManualPayoutRequest } | { errors: Partial<Record<keyof ManualForm, string>> } {
  const errors: Partial<Record<keyof ManualForm, string>> = {};
  if (form.paidOn && !/^\d{4}-\d{2}-\d{2}$/.test(form.paidOn)) errors.paidOn = 'Give the day it was paid, such as 2026-11-03.';
  else if (form.paidOn > today) errors.paidOn = 'The day it was paid cannot be in the future.';
  // Today means now (the API's default); another day is recorded at noon UTC of that day.
  const paidAt = form.paidOn && form.paidOn !== today && !errors.paidOn ? `${form.paidOn}T12:00:00.000Z` : undefined;
  const parsed = ManualPayoutRequest.safeParse({ reference: form.reference, reason: form.reason, ...(paidAt ? { paidAt } : {}) });
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'reference' || issue.path[0] === 'reason' ? issue.path[0] : 'paidOn';
      errors[field] ??= issue.message;
    }
  if (Object.keys(errors).length || !parsed.success) return { errors };
  return { request: parsed.data };
}
