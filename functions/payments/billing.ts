// The payments wing's rules as pure functions (docs/payments.md): what a Stripe subscription
// status means for the plan, what a paid credit is worth, when plan credits expire, and what a
// paid invoice grants (never more credits than it collected money for). The webhook's service applies them; unit tests pin them.
import type Stripe from 'stripe';
import type { SubscriptionState } from '../../events/payment-values';
import type { PlanId } from '../../events/plans';

/** Unix seconds (Stripe's times) as an ISO time. */
export const isoOf = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/** Stripe statuses under which the plan is the subscription's: paid up, or unpaid while Stripe retries. */
const LIVE_STATUSES: readonly Stripe.Subscription.Status[] = ['active', 'trialing', 'past_due'];
/** Statuses that end the plan: the account goes back to Free. */
const ENDED_STATUSES: readonly Stripe.Subscription.Status[] = ['canceled', 'unpaid', 'incomplete_expired'];

/**
 * A subscription's state as the portal shows it, from Stripe's status: `past_due` while a
 * renewal is retried, `canceling` when it ends at the period's end, `ended` once over; undefined
 * while its first payment is incomplete (nothing to apply yet).
 */
export function subscriptionStateOf(sub: Pick<Stripe.Subscription, 'status' | 'cancel_at_period_end'>): SubscriptionState | undefined {
  if (ENDED_STATUSES.includes(sub.status)) return 'ended';
  if (!LIVE_STATUSES.includes(sub.status)) return undefined;
  if (sub.status === 'past_due') return 'past_due';
  return sub.cancel_at_period_end ? 'canceling' : 'active';
}

/** True for a state that holds a paid plan (a checkout for another plan goes through the portal). */
export const isLive = (state: SubscriptionState | undefined) => state === 'active' || state === 'past_due' || state === 'canceling';

/**
 * What one credit of a paid grant is worth, in micro-dollars: what was paid (cents) over the
 * credits, rounded down (1 cent = 10,000 micro-dollars).
 */
export function paidCreditValueMicros(amountPaidCents: number, credits: number): number {
  if (!Number.isSafeInteger(amountPaidCents) || amountPaidCents < 0) throw new RangeError(`amount paid must be whole cents, 0 or more (got ${amountPaidCents})`);
  if (!Number.isSafeInteger(credits) || credits < 1) throw new RangeError(`credits must be a whole number of at least 1 (got ${credits})`);
  return Math.floor((amountPaidCents * 10_000) / credits);
}

/** A subscription price's billing interval (Stripe's `recurring`). */
export interface BillingInterval {
  interval: 'day' | 'week' | 'month' | 'year';
  count: number;
}

const UNITS: readonly string[] = ['day', 'week', 'month', 'year'];

/** A price's `recurring` as a billing interval (a month when it names none we know). */
export function intervalOf(recurring: { interval: string; interval_count: number } | null | undefined): BillingInterval {
  const unit = recurring?.interval ?? 'month';
  return { interval: (UNITS.includes(unit) ? unit : 'month') as BillingInterval['interval'], count: recurring?.interval_count || 1 };
}

/**
 * `unixSeconds` plus `count` intervals, on the calendar (UTC) as Stripe bills: a month later is
 * the same day of the next month, or its last day when it has no such day (January 31 -> February
 * 28).
 */
export function addInterval(unixSeconds: number, { interval, count }: BillingInterval): number {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`an interval count must be a whole number of at least 1 (got ${count})`);
  const d = new Date(unixSeconds * 1000);
  if (interval === 'day' || interval === 'week') return unixSeconds + count * (interval === 'day' ? 1 : 7) * 86_400;
  const months = interval === 'year' ? 12 * count : count;
  const day = d.getUTCDate();
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime() / 1000;
}

/**
 * When a period's plan credits expire: at the end of the following billing period, the period's
 * end plus one more interval of the plan's price (unix seconds in, ISO out).
 */
export function planCreditsExpireAt(periodEnd: number, interval: BillingInterval): string {
  return isoOf(addInterval(periodEnd, interval));
}

/**
 * What an upgrade's proration invoice may grant at most: the new plan's monthly allowance less
 * what this period's earlier grants already gave, never negative.
 */
export function upgradeAllowance(newPlanCredits: number, grantedThisPeriod: number): number {
  return Math.max(0, newPlanCredits - Math.max(0, grantedThisPeriod));
}

/**
 * The credits an amount actually collected pays for at a plan's own rate (its monthly price for
 * its monthly credits), rounded down: never a credit that was not paid for. An invoice Stripe did
 * not collect (`amount_paid` 0: a $0 invoice, or a charge under Stripe's minimum that moved to the
 * customer's balance) pays for none.
 */
export function creditsPaidFor(amountPaidCents: number, planCredits: number, planPriceCents: number): number {
  if (!Number.isSafeInteger(amountPaidCents) || amountPaidCents < 0) throw new RangeError(`amount paid must be whole cents, 0 or more (got ${amountPaidCents})`);
  if (!Number.isSafeInteger(planCredits) || planCredits < 0) throw new RangeError(`plan credits must be a whole number, 0 or more (got ${planCredits})`);
  if (!Number.isSafeInteger(planPriceCents) || planPriceCents < 1) throw new RangeError(`a paid plan's price must be whole cents, 1 or more (got ${planPriceCents})`);
  return Math.floor((amountPaidCents * planCredits) / planPriceCents);
}

/** A paid invoice of a subscription, as far as its credits go. */
export interface PeriodInvoice {
  id: string;
  /** Unix seconds; with `number` (the customer's invoice sequence), the order invoices were made in. */
  created: number;
  number: string;
  /** `period`: a period's own invoice (created or renewed); `upgrade`: a plan switch's proration within it. */
  kind: 'period' | 'upgrade';
  plan: PlanId;
  /** The plan's monthly allowance (of the new plan, for an upgrade), times the quantity for a period. */
  planCredits: number;
  /** The plan's monthly price for those credits, in cents. */
  planPriceCents: number;
  /** What Stripe collected for the invoice (`amount_paid`), in cents. */
  amountPaidCents: number;
  periodEnd: number;
}

/**
 * The credits each paid invoice of one period grants, taken in the order the invoices were made:
 * the period's own invoice its plan's allowance, each upgrade the new plan's allowance less what
 * the invoices before it granted (`upgradeAllowance`); and never more than the invoice's
 * collected amount pays for at its plan's rate (`creditsPaidFor`). So an upgrade late in a period
 * is charged a prorated few dollars and grants that many dollars' worth of credits, and one Stripe
 * did not collect grants none. The same answer whatever order the events arrive in, since it is
 * computed from every invoice of the period.
 */
export function allowancesOfPeriod(invoices: readonly PeriodInvoice[]): Map<string, number> {
  const ordered = [...invoices].sort((a, b) => a.created - b.created || a.number.localeCompare(b.number, 'en', { numeric: true }) || a.id.localeCompare(b.id));
  const out = new Map<string, number>();
  let granted = 0;
  for (const inv of ordered) {
    const allowance = inv.kind === 'period' ? inv.planCredits : upgradeAllowance(inv.planCredits, granted);
    const credits = Math.min(allowance, creditsPaidFor(inv.amountPaidCents, inv.planCredits, inv.planPriceCents));
    out.set(inv.id, credits);
    granted += credits;
  }
  return out;
}
