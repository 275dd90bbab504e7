import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { UPGRADE_FIRST_MESSAGE, USE_PORTAL_MESSAGE } from '../../../../events/payment-values';
import type { CreateCheckoutRequest, RedirectResponse } from '../../../../events/payments';
import { planById, STARTING_PLAN, type PlanId } from '../../../../events/plans';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import type { RateLimiter } from '../../../shared/rate-limit';
import { isLive } from '../../billing';
import { checkoutRule, type ClientDeps } from '../../client';
import type { PaymentsStore } from '../../store';
import type { StripePrices } from '../../stripe';

export interface CheckoutDeps extends ClientDeps {
  stripe: Stripe;
  prices: StripePrices;
  store: Pick<PaymentsStore, 'customerOf' | 'linkCustomer' | 'putCheckout' | 'getCheckout' | 'subscriptionOf' | 'claimPlanCheckout' | 'openPlanCheckout' | 'dropPlanCheckout'>;
  limit: RateLimiter;
  /** The site's address, without a trailing slash: Stripe sends the browser back there. */
  siteUrl: string;
}

const alreadyOnPlanMessage = (name: string) => `You are already on the ${name} plan.`;
/** A second plan checkout while the first one's session is still being made (two tabs at once). */
export const PLAN_CHECKOUT_OPENING_MESSAGE = 'A plan checkout is already being opened for your account, in another tab or window. Use that one, or try again in a minute.';
/** A plan checkout asked for while the account's open one has just been paid. */
const PLAN_CHECKOUT_PAID_MESSAGE = 'Your plan checkout has just been paid: your plan shows in a moment. To change plans after that, use the billing portal.';

/** How long a claim holds while its session is being made (a crash in between frees it then). */
const CLAIM_PENDING_MS = 60_000;

/**
 * The account's Stripe customer, created the first time: under an idempotency key of the account
 * (two tabs at once make one customer), with the account's id in its metadata and its email; the
 * mapping is written both ways under a condition, and the one written first wins.
 */
async function customerOf(deps: CheckoutDeps, account: { id: string; email: string; full_name: string }): Promise<string> {
  const known = await deps.store.customerOf(account.id);
  if (known) return known;
  const customer = await deps.stripe.customers.create(
    { email: account.email, ...(account.full_name ? { name: account.full_name } : {}), metadata: { accountId: account.id } },
    { idempotencyKey: `customer-of-account-${account.id}` },
  );
  return deps.store.linkCustomer(account.id, customer.id);
}

/**
 * `POST /me/checkout-sessions`: Stripe Checkout for a paid plan (subscription mode, the plan's
 * monthly price) or credit packs (payment mode, the current plan's extra-credit price, pack times
 * quantity credits). Prices and the account come from the server: the body names only what.
 * Refused (409) for a plan while a subscription is live (plan changes go through the billing
 * portal), for the plan the account is on, and for credits on the Free plan. Nothing is granted
 * here: only Stripe's verified event does.
 */
export async function createCheckout(deps: CheckoutDeps, caller: AccountCaller, request: CreateCheckoutRequest): Promise<RedirectResponse> {
  const account = await deps.account(caller);
  await deps.limit([checkoutRule(account.id)]);
  const current = account.plan ?? STARTING_PLAN;
  const common = { client_reference_id: account.id, success_url: `${deps.siteUrl}/client-portal?checkout={CHECKOUT_SESSION_ID}` };

  let params: Stripe.Checkout.SessionCreateParams;
  let record: { kind: 'plan' | 'credits'; plan?: typeof current; credits?: number };
  if (request.kind === 'plan') {
    const plan = request.plan as Exclude<typeof current, 'free'>;
    const subscription = await deps.store.subscriptionOf(account.id);
    if (subscription && isLive(subscription.state)) throw new ConflictError(USE_PORTAL_MESSAGE);
    if (current === plan) throw new ConflictError(alreadyOnPlanMessage(planById(plan).name));
    const metadata = { accountId: account.id, kind: 'plan', plan };
    params = {
      ...common,
      mode: 'subscription',
      line_items: [{ price: deps.prices[plan].monthly, quantity: 1 }],
      cancel_url: `${deps.siteUrl}/pricing?checkout=cancelled`,
      metadata,
      subscription_data: { metadata },
    };
    record = { kind: 'plan', plan };
  } else {
    if (current === 'free') throw new ConflictError(UPGRADE_FIRST_MESSAGE);
    const credits = request.pack * request.quantity;
    const metadata = { accountId: account.id, kind: 'credits', credits: String(credits) };
    params = {
      ...common,
      mode: 'payment',
      line_items: [{ price: deps.prices[current].credit, quantity: credits }],
      cancel_url: `${deps.siteUrl}/client-portal?checkout=cancelled`,
      metadata,
      payment_intent_data: { metadata },
    };
    record = { kind: 'credits', credits };
  }

  const customer = await customerOf(deps, account);
  if (record.kind === 'plan') return planCheckout(deps, account.id, record.plan!, { ...params, customer }, record);
  const session = await deps.stripe.checkout.sessions.create({ ...params, customer });
  if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without its page's address`);
  await deps.store.putCheckout({ sessionId: session.id, accountId: account.id, ...record, createdAt: new Date(session.created * 1000).toISOString() });
  return { id: session.id, url: session.url };
}

/**
 * One open plan checkout per account, so two tabs never pay for two subscriptions: the session is
 * made only by the request that claims the account's plan checkout (a conditional write that
 * lapses with the session's `expires_at`). A second request reads the open session from Stripe:
 * for the same plan it gets that session again; for another plan the open session is expired at
 * Stripe and the claim replaced; an expired one is replaced; while the first session is still
 * being made, or once it is paid, the answer is 409. The webhook defends
 * too (a second live subscription is canceled and refunded, docs/payments.md).
 */
async function planCheckout(
  deps: CheckoutDeps,
  accountId: string,
  plan: PlanId,
  params: Stripe.Checkout.SessionCreateParams,
  record: { kind: 'plan' | 'credits'; plan?: PlanId; credits?: number },
): Promise<RedirectResponse> {
  let replacing: string | undefined;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const token = randomUUID();
    const standing = await deps.store.claimPlanCheckout({ accountId, token, plan, expiresAt: new Date(Date.now() + CLAIM_PENDING_MS).toISOString() }, replacing);
    if (!standing) {
      try {
        const session = await deps.stripe.checkout.sessions.create(params);
        if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without its page's address`);
        await deps.store.putCheckout({ sessionId: session.id, accountId, ...record, createdAt: new Date(session.created * 1000).toISOString() });
        await deps.store.openPlanCheckout(accountId, token, { sessionId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000).toISOString() });
        return { id: session.id, url: session.url };
      } catch (err) {
        await deps.store.dropPlanCheckout(accountId, token);
        throw err;
      }
    }
    replacing = undefined;
    if (!standing.token) continue;
    if (!standing.sessionId) throw new ConflictError(PLAN_CHECKOUT_OPENING_MESSAGE);
    const open = await deps.stripe.checkout.sessions.retrieve(standing.sessionId);
    // Paid and applied: the claim is stale (that subscription has ended since, or the checks above would refuse).
    if (open.status === 'complete' && !(await deps.store.getCheckout(open.id))?.appliedAt) throw new ConflictError(PLAN_CHECKOUT_PAID_MESSAGE);
    if (open.status === 'open' && standing.plan === plan && open.url) return { id: open.id, url: open.url };
    if (open.status === 'open') {
      try {
        await deps.stripe.checkout.sessions.expire(open.id);
      } catch (err) {
        // Paid in the meantime: only one plan checkout may be paid.
        if ((await deps.stripe.checkout.sessions.retrieve(open.id)).status === 'complete') throw new ConflictError(PLAN_CHECKOUT_PAID_MESSAGE);
        throw err;
      }
    }
    replacing = standing.token;
  }
  throw new ConflictError(PLAN_CHECKOUT_OPENING_MESSAGE);
}
