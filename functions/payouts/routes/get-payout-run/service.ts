import type { PayoutRun } from '../../../../events/payouts';
import { monthParam } from '../../months';
import { readRun, type RunReadDeps } from '../../views';

/** `GET /admin/payout-runs/{month}`: the month's payouts, Stripe's transfers and the reconciliation. */
export const payoutRun = (deps: RunReadDeps, month: string | undefined): Promise<PayoutRun> => readRun(deps, monthParam(month));
