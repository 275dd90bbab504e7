import type { BillingResponse, SubscriptionSummary } from '../../../../events/payments';
import { planById, STARTING_PLAN } from '../../../../events/plans';
import type { AccountCaller } from '../../../shared/auth';
import type { ClientDeps } from '../../client';
import type { PaymentsStore, SubscriptionMirror } from '../../store';

export interface BillingDeps extends ClientDeps {
  store: Pick<PaymentsStore, 'customerOf' | 'subscriptionOf'>;
}

function subscriptionSummaryOf(mirror: SubscriptionMirror): SubscriptionSummary {
  return {
    id: mirror.subscriptionId,
    plan: mirror.plan,
    state: mirror.state,
    currentPeriodEnd: mirror.currentPeriodEnd,
    ...(mirror.scheduledPlan ? { scheduledPlan: mirror.scheduledPlan } : {}),
  };
}

/** `GET /me/billing`: the plan on the account, the subscription as last read from Stripe, the portal's availability. */
export async function getBilling(deps: BillingDeps, caller: AccountCaller): Promise<BillingResponse> {
  const account = await deps.account(caller);
  const [customer, mirror] = await Promise.all([deps.store.customerOf(account.id), deps.store.subscriptionOf(account.id)]);
  const plan = account.plan ?? STARTING_PLAN;
  return {
    plan,
    ...(mirror ? { subscription: subscriptionSummaryOf(mirror) } : {}),
    hasBillingAccount: customer !== undefined,
    extraCreditCents: planById(plan).extraCreditCents,
  };
}
