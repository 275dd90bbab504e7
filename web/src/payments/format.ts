// Words and numbers of billing as the pricing page and the client portal show them
// (docs/product.md#pricing, #client-portal). Pure, so they are the same wherever they run.
import { CREDIT_PACK_SIZES, MAX_PACK_QUANTITY, PAID_PLAN_IDS, type PaidPlanId } from '../../../events/payment-values';
import type { CheckoutStatus, SubscriptionSummary } from '../../../events/payments';
import { PLANS, planById, type Plan, type PlanId } from '../../../events/plans';

/** "Nov 24, 2026" in the reader's time zone (or the one given, for tests). */
function day(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${iso}`);
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone });
}

/** What a subscription's state means for the client: a short label, a sentence, and how it looks. */
export interface StateText {
  label: string;
  body: string;
  tone: 'ok' | 'warn' | 'bad' | 'muted';
}

/** A subscription's state in the client's words, with the date that matters to it. */
export function subscriptionStateText(sub: SubscriptionSummary, timeZone?: string): StateText {
  const date = day(sub.currentPeriodEnd, timeZone);
  switch (sub.state) {
    case 'active':
      return { label: 'Active', body: `Renews on ${date}.`, tone: 'ok' };
    case 'past_due':
      return {
        label: 'Payment failed',
        body: 'Your last payment did not go through. Update your card in Manage billing to keep your plan; we try the payment again over the next days.',
        tone: 'bad',
      };
    case 'canceling':
      return { label: `Cancels on ${date}`, body: `Your plan ends on ${date}. You keep its credits until then; you can undo this in Manage billing.`, tone: 'warn' };
    case 'ended':
      return { label: 'Ended', body: `Your ${planById(sub.plan).name} plan ended. Choose a plan to subscribe again.`, tone: 'muted' };
  }
}

/** "Changes to Starter on Dec 27, 2026." for a downgrade waiting for the period's end. */
export function scheduledChangeText(sub: SubscriptionSummary, timeZone?: string): string | undefined {
  if (!sub.scheduledPlan || sub.scheduledPlan === sub.plan) return undefined;
  return `Changes to ${planById(sub.scheduledPlan).name} on ${day(sub.currentPeriodEnd, timeZone)}.`;
}

/** The paid plans above the current one, cheapest first: what "Upgrade" offers. */
export function upgradeChoices(current: PlanId): Plan[] {
  const price = planById(current).monthlyPriceCents;
  return PLANS.filter((p) => (PAID_PLAN_IDS as readonly PlanId[]).includes(p.id) && p.monthlyPriceCents > price);
}

/** True when the value names a plan a client can subscribe to. */
export function isPaidPlanId(value: string | null | undefined): value is PaidPlanId {
  return (PAID_PLAN_IDS as readonly string[]).includes(value ?? '');
}

/** Where a plan's button on /pricing leads: checkout when signed in, else sign-up and back to the same choice. */
export function planChoicePath(plan: PlanId, signedIn: boolean): string {
  if (plan === 'free') return signedIn ? '/client-portal' : '/sign-up?role=client';
  const checkout = `/checkout?plan=${plan}`;
  return signedIn ? checkout : `/sign-up?role=client&next=${encodeURIComponent(checkout)}`;
}

/** The price of `quantity` packs of `pack` credits at `extraCreditCents` a credit, in cents (integers throughout). */
export function packTotalCents(pack: number, quantity: number, extraCreditCents: number): number {
  if (!(CREDIT_PACK_SIZES as readonly number[]).includes(pack)) throw new RangeError(`pack must be one of ${CREDIT_PACK_SIZES.join(', ')}, got ${pack}`);
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_PACK_QUANTITY) throw new RangeError(`quantity must be a whole number from 1 to ${MAX_PACK_QUANTITY}, got ${quantity}`);
  if (!Number.isInteger(extraCreditCents) || extraCreditCents <= 0) throw new RangeError(`extraCreditCents must be a positive integer, got ${extraCreditCents}`);
  return pack * quantity * extraCreditCents;
}

/** What the portal says once a checkout it came back from has ended. */
export function checkoutOutcomeText(status: CheckoutStatus): { tone: 'ok' | 'muted'; text: string } {
  if (status.state === 'expired') return { tone: 'muted', text: 'This checkout was not completed, so nothing was charged.' };
  if (status.kind === 'credits') {
    return { tone: 'ok', text: status.credits ? `Payment confirmed: ${added(status.credits)} to your balance.` : 'Payment confirmed: your credits were added to your balance.' };
  }
  const plan = status.plan ? planById(status.plan) : undefined;
  if (!plan) return { tone: 'ok', text: 'Payment confirmed: your plan is active.' };
  return { tone: 'ok', text: `Payment confirmed: you are on ${plan.name}. ${added(status.credits ?? plan.monthlyCredits)} to your balance.` };
}

/** "80 credits were added", "1 credit was added". */
function added(n: number): string {
  return n === 1 ? '1 credit was added' : `${n.toLocaleString('en-US')} credits were added`;
}
