import { monthParam } from '../../months';
import { readRun, runCsv, type RunReadDeps } from '../../views';

/** `GET /admin/payout-runs/{month}/csv`: the month's run, one row per statement, for accounting. */
export async function payoutRunCsv(deps: RunReadDeps, month: string | undefined): Promise<{ filename: string; csv: string }> {
  return runCsv(await readRun(deps, monthParam(month)));
}
