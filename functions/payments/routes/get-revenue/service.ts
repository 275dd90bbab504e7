import type { RevenueResponse } from '../../../../events/payments';
import type { SubscriptionState } from '../../../../events/payment-values';
import { PLAN_IDS, planById, type PlanId } from '../../../../events/plans';
import type { ConsoleStore } from '../../console-store';

/** Subscriptions that bring money in every month: paid up, retrying a renewal, or running to their period's end. */
export const RECURRING_STATES: readonly SubscriptionState[] = ['active', 'past_due', 'canceling'];

/** `YYYY-MM` of a time, UTC. */
export const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/**
 * The dashboard's money: what was paid this calendar month (UTC) less what was refunded of those
 * payments, the monthly price of every live subscription, and how many accounts spent credits
 * that were refunded or disputed afterwards.
 */
export async function revenue(deps: { payments: Pick<ConsoleStore, 'paymentsOfMonth' | 'subscriptions' | 'flags'>; now?: () => Date }): Promise<RevenueResponse> {
  const month = monthOf((deps.now ?? (() => new Date()))());
  const [payments, subscriptions, flags] = await Promise.all([deps.payments.paymentsOfMonth(month), deps.payments.subscriptions(), deps.payments.flags()]);
  const live = subscriptions.filter((s) => (RECURRING_STATES as readonly string[]).includes(s.state) && (PLAN_IDS as readonly string[]).includes(s.plan));
  return {
    month,
    monthToDateCents: payments.reduce((sum, p) => sum + p.amountCents - Math.min(p.refundedCents, p.amountCents), 0),
    recurringCents: live.reduce((sum, s) => sum + planById(s.plan as PlanId).monthlyPriceCents, 0),
    activeSubscriptions: live.length,
    flaggedAccounts: flags.filter((f) => f.spentRefundedCredits > 0).length,
  };
}
