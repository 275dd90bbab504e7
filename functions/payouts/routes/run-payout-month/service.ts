import type { PayoutRun } from '../../../../events/payouts';
import type { AdminActor } from '../../../shared/auth';
import { monthParam } from '../../months';
import { runMonth, type PayoutDeps } from '../../run';
import { readRun } from '../../views';

/**
 * `POST /admin/payout-runs/{month}`: runs the month now (idempotent: a rerun pays nothing twice)
 * and answers the run. The run, and each payout it changes, records the admin.
 */
export async function runNow(deps: PayoutDeps, month: string | undefined, by: AdminActor): Promise<PayoutRun> {
  const m = monthParam(month);
  await runMonth(deps, m, by);
  return readRun(deps, m);
}
