import type { AdminUserDetail } from '../../../../events/accounts';
import { planById, type PlanId } from '../../../../events/plans';
import { ConflictError, NotFoundError } from '../../../shared/errors';
import { ACCOUNT_NOT_FOUND_MESSAGE, type AccountStore, type Actor } from '../../store';
import { userDetail } from '../../users';

export const TALENT_HAS_NO_PLAN_MESSAGE = 'Only client accounts have a plan: this is a talent account.';
export const SAME_PLAN_MESSAGE = (name: string) => `This account is already on the ${name} plan.`;
/** Stripe sets a subscriber's plan: a change here would be undone by the next event and bill nothing. */
export const BILLED_BY_STRIPE_MESSAGE =
  'This client pays through a Stripe subscription, which sets their plan. They change it in the billing portal; to end it, refund or cancel the subscription in Stripe.';

type Store = Pick<AccountStore, 'get' | 'setPlan' | 'detail'>;

/**
 * Sets a client's plan (an admin's change, recorded in the audit with who and when; a pending
 * plan request is marked done) and answers the account as the console shows it. A plan that a
 * Stripe subscription sets is not the console's to change.
 */
export async function setUserPlan(store: Store, id: string, plan: PlanId, by: Actor): Promise<AdminUserDetail> {
  const account = await store.get(id);
  if (!account) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
  if (account.role !== 'client') throw new ConflictError(TALENT_HAS_NO_PLAN_MESSAGE);
  if (account.plan === plan) throw new ConflictError(SAME_PLAN_MESSAGE(planById(plan).name));
  if (account.billing === 'stripe') throw new ConflictError(BILLED_BY_STRIPE_MESSAGE);
  await store.setPlan(id, plan, by);
  return userDetail(store, id);
}
