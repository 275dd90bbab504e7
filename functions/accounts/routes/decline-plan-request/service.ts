import type { AdminUserDetail } from '../../../../events/accounts';
import { ConflictError, NotFoundError } from '../../../shared/errors';
import { ACCOUNT_NOT_FOUND_MESSAGE, type AccountStore, type Actor } from '../../store';
import { userDetail } from '../../users';

export const NO_PENDING_PLAN_REQUEST_MESSAGE = 'This account has no pending plan request to decline.';

/** Declines a client's pending plan request (recorded in the audit); the plan stays as it is. */
export async function declinePlanRequest(
  store: Pick<AccountStore, 'get' | 'pendingPlanRequest' | 'declinePlanRequest' | 'detail'>,
  id: string,
  by: Actor,
): Promise<AdminUserDetail> {
  if (!(await store.get(id))) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
  if (!(await store.pendingPlanRequest(id))) throw new ConflictError(NO_PENDING_PLAN_REQUEST_MESSAGE);
  await store.declinePlanRequest(id, by);
  return userDetail(store, id);
}
