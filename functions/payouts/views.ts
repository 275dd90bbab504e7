// What the console and the talent see of payouts (docs/payouts.md): a month's payout run with its
// reconciliation against Stripe's transfers, its CSV, and the talent's yearly earnings CSV.
import type Stripe from 'stripe';
import { transferGroupOf } from '../../events/payout-values';
import type { PayoutRun, StatementPayout } from '../../events/payouts';
import { statementId as statementIdOf } from '../../events/royalty-values';
import type { RoyaltyStore } from '../royalties';
import { toCsv } from '../shared/csv';
import { dollars } from './emails';
import type { PayoutRecord, PayoutStore } from './store';

type Statement = NonNullable<Awaited<ReturnType<RoyaltyStore['getStatement']>>>;

/** A stored payout as the API answers it. */
export function payoutView(record: PayoutRecord): StatementPayout {
  const { carriedInto: _into, bankFailure: _bank, oursToFix: _ours, updatedAt: _at, ...view } = record;
  return view;
}

/** What a talent reads of a payout that failed for a reason of ours: no instructions meant for the console. */
export const OURS_TO_FIX_MESSAGE = 'Your payout is delayed on our side. Nothing is needed from you: we will send it as soon as it is fixed.';

/** A stored payout as its talent sees it: a failure of ours is named as ours, never with the console's instructions, nor the admins who acted on it. */
export function talentPayoutView(record: PayoutRecord): StatementPayout {
  const { actions: _actions, ...view } = payoutView(record);
  return record.state === 'failed' && record.oursToFix ? { ...view, failure: OURS_TO_FIX_MESSAGE } : view;
}

const sum = (records: PayoutRecord[], state: PayoutRecord['state']) => records.filter((r) => r.state === state).reduce((s, r) => s + r.amountCents, 0);

/**
 * A month's run: every statement's payout, the totals by state, Stripe's transfers of the month
 * and the reconciliation. Balanced when statements + carried in = transferred + carried + failed +
 * manual + awaiting, every transfer matches one paid payout to the cent, and nothing failed;
 * otherwise each difference is listed in words.
 */
export function buildRun(month: string, statements: Statement[], payouts: PayoutRecord[], transfers: Stripe.Transfer[], ranAt?: string): PayoutRun {
  const byStatement = new Map(payouts.map((p) => [p.statementId, p]));
  const differences: string[] = [];
  for (const s of statements) {
    const id = statementIdOf(s.month, s.talentId);
    const payout = byStatement.get(id);
    if (!payout) differences.push(`${id}: statement ${dollars(s.totals.royaltyCents)} has no payout yet`);
    else if (payout.statementCents !== s.totals.royaltyCents) differences.push(`${id}: statement ${dollars(s.totals.royaltyCents)}, payout counted ${dollars(payout.statementCents)}`);
  }
  for (const p of payouts) {
    if (p.state === 'failed') differences.push(`${p.statementId}: payout of ${dollars(p.amountCents)} failed: ${p.failure ?? 'no reason recorded'}`);
    if (p.state === 'transferring') differences.push(`${p.statementId}: transfer of ${dollars(p.amountCents)} not finished: run the month again`);
  }
  const live = transfers.filter((t) => !t.reversed);
  const paidByTransfer = new Map(payouts.filter((p) => p.transferId).map((p) => [p.transferId!, p]));
  for (const t of live) {
    const payout = paidByTransfer.get(t.id);
    const net = t.amount - (t.amount_reversed ?? 0);
    if (!payout) differences.push(`Stripe transfer ${t.id} of ${dollars(net)} matches no payout of ${month}`);
    else if (payout.state !== 'paid') differences.push(`${payout.statementId}: Stripe transfer ${t.id} of ${dollars(net)}, but the payout is ${payout.state}`);
    else if (payout.amountCents !== net) differences.push(`${payout.statementId}: payout ${dollars(payout.amountCents)}, transfer ${dollars(net)}`);
  }
  const listed = new Set(live.map((t) => t.id));
  for (const p of payouts) {
    if (p.state === 'paid' && p.transferId && !listed.has(p.transferId)) differences.push(`${p.statementId}: paid by transfer ${p.transferId}, which Stripe does not list for ${month}`);
  }
  const totals = {
    statementsCents: statements.reduce((s, st) => s + st.totals.royaltyCents, 0),
    carriedInCents: payouts.reduce((s, p) => s + p.carriedInCents, 0),
    transferredCents: sum(payouts, 'paid'),
    carriedCents: sum(payouts, 'carried'),
    failedCents: sum(payouts, 'failed'),
    manualCents: sum(payouts, 'manual'),
    awaitingCents: sum(payouts, 'awaiting-account'),
    stripeTransfersCents: live.reduce((s, t) => s + t.amount - (t.amount_reversed ?? 0), 0),
  };
  const due = totals.statementsCents + totals.carriedInCents;
  const accounted = totals.transferredCents + totals.carriedCents + totals.failedCents + totals.manualCents + totals.awaitingCents + sum(payouts, 'transferring');
  if (due !== accounted) differences.push(`Totals: statements ${dollars(totals.statementsCents)} + carried in ${dollars(totals.carriedInCents)} = ${dollars(due)}, payouts account for ${dollars(accounted)}`);
  if (totals.stripeTransfersCents !== totals.transferredCents) differences.push(`Totals: transferred ${dollars(totals.transferredCents)}, Stripe's transfers ${dollars(totals.stripeTransfersCents)}`);
  return {
    month,
    ...(ranAt ? { ranAt } : {}),
    payouts: [...payouts].sort((a, b) => a.statementId.localeCompare(b.statementId)).map(payoutView),
    totals,
    reconciliation: { state: differences.length ? 'differences' : 'balanced', differences },
  };
}

/** Stripe's transfers of a month's payout run (its transfer group). */
async function transfersOfMonth(stripe: Stripe, month: string): Promise<Stripe.Transfer[]> {
  const out: Stripe.Transfer[] = [];
  for await (const t of stripe.transfers.list({ transfer_group: transferGroupOf(month), limit: 100 })) out.push(t);
  return out;
}

export interface RunReadDeps {
  stripe: Stripe;
  store: Pick<PayoutStore, 'listPayoutsOfMonth' | 'getRun'>;
  statements: Pick<RoyaltyStore, 'listStatementsOfMonth'>;
}

/** `GET /admin/payout-runs/{month}` (and the answer of a run). */
export async function readRun(deps: RunReadDeps, month: string): Promise<PayoutRun> {
  const [statements, payouts, transfers, run] = await Promise.all([
    deps.statements.listStatementsOfMonth(month),
    deps.store.listPayoutsOfMonth(month),
    transfersOfMonth(deps.stripe, month),
    deps.store.getRun(month),
  ]);
  return { ...buildRun(month, statements, payouts, transfers, run?.ranAt), ...(run?.runs?.length ? { runs: run.runs } : {}) };
}

const cents = (n: number) => (n / 100).toFixed(2);

/** The month's payouts for accounting: one row per statement, amounts in dollars. */
export function runCsv(run: PayoutRun): { filename: string; csv: string } {
  const rows = run.payouts.map((p) => ({
    statement: p.statementId,
    talent: p.talentId,
    name: p.talentName ?? '',
    month: p.month,
    statement_usd: cents(p.statementCents),
    carried_in_usd: cents(p.carriedInCents),
    amount_usd: cents(p.amountCents),
    state: p.state,
    transfer: p.transferId ?? '',
    paid_at: p.paidAt ?? '',
    reference: p.reference ?? '',
    reason: p.reason ?? '',
    failure: p.failure ?? '',
  }));
  const columns = ['statement', 'talent', 'name', 'month', 'statement_usd', 'carried_in_usd', 'amount_usd', 'state', 'transfer', 'paid_at', 'reference', 'reason', 'failure'] as const;
  return { filename: `payouts-${run.month}.csv`, csv: toCsv([...columns], rows) };
}

/** A talent's statements and payouts of one year, for their taxes. */
export function earningsCsv(year: string, statements: Statement[], payouts: PayoutRecord[]): { filename: string; csv: string } {
  const byMonth = new Map(payouts.map((p) => [p.month, p]));
  const rows = statements
    .filter((s) => s.month.startsWith(`${year}-`))
    .sort((a, b) => a.month.localeCompare(b.month))
    .map((s) => {
      const p = byMonth.get(s.month);
      return {
        month: s.month,
        statement: statementIdOf(s.month, s.talentId),
        royalty_usd: cents(s.totals.royaltyCents),
        carried_in_usd: cents(p?.carriedInCents ?? 0),
        payout_usd: cents(p?.amountCents ?? 0),
        payout_state: p?.state ?? 'not-run',
        paid_at: p?.paidAt ?? '',
        reference: p?.transferId ?? p?.reference ?? '',
      };
    });
  const paid = payouts.filter((p) => (p.state === 'paid' || p.state === 'manual') && (p.paidAt ?? '').startsWith(`${year}-`)).reduce((s, p) => s + p.amountCents, 0);
  const royalty = rows.reduce((s, r) => s + Math.round(Number(r.royalty_usd) * 100), 0);
  rows.push({ month: `${year} total`, statement: '', royalty_usd: cents(royalty), carried_in_usd: '', payout_usd: cents(paid), payout_state: 'paid in the year', paid_at: '', reference: '' });
  const columns = ['month', 'statement', 'royalty_usd', 'carried_in_usd', 'payout_usd', 'payout_state', 'paid_at', 'reference'] as const;
  return { filename: `earnings-${year}.csv`, csv: toCsv([...columns], rows) };
}
