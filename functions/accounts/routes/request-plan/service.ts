import type { PlanRequest } from '../../../../events/accounts';
import { planById, type PlanId } from '../../../../events/plans';
import { currentAccount } from '../../access';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import type { RateLimiter, RateRule } from '../../../shared/rate-limit';
import { ALREADY_ON_PLAN_MESSAGE, type AccountStore } from '../../store';

const PLAN_REQUESTS_PER_DAY = 5;
const PLAN_REQUEST_LIMIT_MESSAGE = `You can ask for a plan change ${PLAN_REQUESTS_PER_DAY} times a day. Try again tomorrow.`;

const rules = (accountId: string): RateRule[] => [
  { name: 'plan-request.account', subject: accountId, limit: PLAN_REQUESTS_PER_DAY, windowSeconds: 24 * 60 * 60, message: PLAN_REQUEST_LIMIT_MESSAGE },
];

/** `POST /me/plan-requests`: a client asks for another plan (admins set plans until payments exist). */
export async function requestPlan(
  deps: { accounts: Pick<AccountStore, 'get' | 'create' | 'requestPlan'>; limit: RateLimiter },
  caller: AccountCaller,
  plan: PlanId,
): Promise<PlanRequest> {
  const account = await currentAccount(deps.accounts, caller);
  if (account.plan === plan) throw new ConflictError(ALREADY_ON_PLAN_MESSAGE(planById(plan).name));
  await deps.limit(rules(account.id));
  return deps.accounts.requestPlan(account.id, plan);
}
