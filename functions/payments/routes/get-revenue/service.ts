import type { RevenueResponse } from '../../../../events/payments';
import type { SubscriptionState } from '../../../../events/payment-values';
import { PLAN_IDS, planById } from '../../../../events/plans';
import type { PaymentsStore } from '../../store';

/** Subscriptions that bring money in every month: paid up, retrying a renewal, or running to their period's end. */
const RECURRING_STATES: readonly SubscriptionState[] = ['active', 'past_due', 'canceling'];

/** `YYYY-MM` of a time, UTC. */
const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/**
 * The dashboard's money: what was paid this calendar month (UTC) less what was refunded of those
 * payments, the monthly price of every live subscription (its plan's price today), and how many
 * accounts spent credits that were refunded or disputed afterwards.
 */
export async function revenue(deps: { payments: Pick<PaymentsStore, 'paymentsInMonth' | 'subscriptions' | 'flaggedAccounts'>; now?: () => Date }): Promise<RevenueResponse> {
  const month = monthOf((deps.now ?? (() => new Date()))());
  const [payments, subscriptions, flagged] = await Promise.all([deps.payments.paymentsInMonth(month), deps.payments.subscriptions(), deps.payments.flaggedAccounts()]);
  const live = subscriptions.filter((s) => RECURRING_STATES.includes(s.state) && PLAN_IDS.includes(s.plan));
  return {
    month,
    monthToDateCents: payments.reduce((sum, p) => sum + p.amountCents - Math.min(p.refundedCents, p.amountCents), 0),
    recurringCents: live.reduce((sum, s) => sum + planById(s.plan).monthlyPriceCents, 0),
    activeSubscriptions: live.length,
    flaggedAccounts: flagged.filter((f) => f.spentCredits > 0).length,
  };
}
