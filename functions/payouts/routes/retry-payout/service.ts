import type { StatementPayout } from '../../../../events/payouts';
import type { AdminActor } from '../../../shared/auth';
import { retryPayout, type PayoutDeps } from '../../run';
import { payoutView } from '../../views';

/** `POST /admin/payouts/{statementId}/retry`: a failed transfer once more, with the next attempt's key; the payout records the admin. */
export async function retry(deps: PayoutDeps, statementId: string | undefined, by: AdminActor): Promise<StatementPayout> {
  return payoutView(await retryPayout(deps, statementId, by));
}
