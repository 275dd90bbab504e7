import type { PayoutRun } from '../../../../events/payouts';
import { monthParam } from '../../months';
import { ValidationError } from '../../../shared/errors';
import type { HistoryEntry, PayoutStore } from '../../store';
import { readRun, runCsv, type RunReadDeps } from '../../views';

export interface PayoutReadDeps extends RunReadDeps {
  store: RunReadDeps['store'] & Pick<PayoutStore, 'history'>;
}

/** `GET /admin/payout-runs/{month}`: the month's payouts, Stripe's transfers and the reconciliation. */
export const payoutRun = (deps: PayoutReadDeps, month: string | undefined): Promise<PayoutRun> => readRun(deps, monthParam(month));

/** `GET /admin/payout-runs/{month}/csv`: the same, one row per statement, for accounting. */
export async function payoutRunCsv(deps: PayoutReadDeps, month: string | undefined): Promise<{ filename: string; csv: string }> {
  return runCsv(await payoutRun(deps, month));
}

/** `GET /admin/talent/{id}/payout-history`: account events, bank changes and payouts, newest first. */
export async function payoutHistory(deps: PayoutReadDeps, talentId: string | undefined): Promise<{ entries: HistoryEntry[] }> {
  if (!talentId || !/^[a-z0-9][a-z0-9-]{0,99}$/i.test(talentId)) throw new ValidationError('The talent id is missing or malformed.', { id: 'The talent id is missing or malformed.' });
  return { entries: await deps.store.history(talentId) };
}
