import type { PayoutRun, StatementPayout } from '../../../../events/payouts';
import type { AdminActor } from '../../../shared/auth';
import { manualPayout, retryPayout, runMonth, type PayoutDeps } from '../../run';
import { payoutView, readRun } from '../../views';
import { monthParam } from '../../months';

/**
 * `POST /admin/payout-runs/{month}`: runs the month now (idempotent: a rerun pays nothing twice)
 * and answers the run. The run, and each payout it changes, records the admin.
 */
export async function runNow(deps: PayoutDeps, month: string | undefined, by: AdminActor): Promise<PayoutRun> {
  const m = monthParam(month);
  await runMonth(deps, m, by);
  return readRun(deps, m);
}

/** `POST /admin/payouts/{statementId}/retry`: a failed transfer once more, with the next attempt's key; the payout records the admin. */
export async function retry(deps: PayoutDeps, statementId: string | undefined, by: AdminActor): Promise<StatementPayout> {
  return payoutView(await retryPayout(deps, statementId, by));
}

/** `POST /admin/payouts/{statementId}/manual`: paid outside Stripe, with a reference and a reason. */
export async function manual(deps: PayoutDeps, statementId: string | undefined, request: { reference: string; reason: string; paidAt?: string }, admin: AdminActor): Promise<StatementPayout> {
  return payoutView(await manualPayout(deps, statementId, request, admin));
}
