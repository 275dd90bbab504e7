import type { StatementPayout } from '../../../../events/payouts';
import type { AdminActor } from '../../../shared/auth';
import { manualPayout, type PayoutDeps } from '../../run';
import { payoutView } from '../../views';

/** `POST /admin/payouts/{statementId}/manual`: paid outside Stripe, with a reference and a reason. */
export async function manual(deps: PayoutDeps, statementId: string | undefined, request: { reference: string; reason: string; paidAt?: string }, admin: AdminActor): Promise<StatementPayout> {
  return payoutView(await manualPayout(deps, statementId, request, admin));
}
