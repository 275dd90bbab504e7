// Applying verified Stripe events (docs/payments.md#events): each reads the object's current state
// from Stripe rather than the event's copy, so events in any order, and repeated, end in the same
// state. Credits are granted through the ledger under a key of the Stripe object (`invoice:<id>`,
// `checkout:<id>`), payments are recorded once by payment intent, and emails are sent once.
import type Stripe from 'stripe';
import { planById, type CreditLot, type PlanId } from '../../events/plans';
import type { Email } from '../shared/email-layout';
import { ONE_DAY, sendOnce as sendEmailOnce, type Once } from '../shared/idempotency';
import { log } from '../shared/log';
import { allowancesOfPeriod, intervalOf, isLive, isoOf, paidCreditValueMicros, planCreditsExpireAt, subscriptionStateOf, type PeriodInvoice } from './billing';
import { paymentFailedEmail, planActiveEmail, planEndedEmail } from './emails';
import { canceledByErasure, isErasedCustomerEvent, noteErasedAccountEvent } from './erasure';
import { planOfCreditPrice, planOfPrice, type StripePrices } from './stripe';
import type { PaymentsStore, SubscriptionMirror } from './store';

/** A grant's lot with its origin and, for plan credits, when they expire (the ledger's lots, decision 036). */
type SourcedLot = CreditLot & { source: string; expiresAt?: string };

/** What the accounts wing does for payments: read the account, set its plan as Stripe says, grant credits. */
interface BillingAccounts {
  get(accountId: string): Promise<{ id: string; email: string; full_name: string; plan?: PlanId } | undefined>;
  setBillingPlan(accountId: string, plan: PlanId, options: { subscriptionId?: string; reason: string }): Promise<unknown>;
}
interface BillingLedger {
  grant(accountId: string, change: { credits: number; key: string; reason: string; lot: CreditLot }): Promise<unknown>;
}

export interface ApplyDeps {
  stripe: Stripe;
  prices: StripePrices;
  store: PaymentsStore;
  accounts: BillingAccounts;
  ledger: BillingLedger;
  send: (to: string, email: Email) => Promise<unknown>;
  once: Once;
  siteUrl: string;
  /** The event being applied, when the caller says which: recorded with one about an erased client. */
  event?: { id: string; type: string };
}

/** How long an email's once-record is kept: longer than Stripe goes on sending an event. */
const EMAIL_ONCE_SECONDS = 400 * ONE_DAY;

/** The id of a Stripe reference, expanded or not. */
const idOf = (ref: string | { id: string } | null | undefined): string | undefined => (typeof ref === 'string' ? ref : (ref?.id ?? undefined));

const priceOfLine = (line: Stripe.InvoiceLineItem) => idOf(line.pricing?.price_details?.price);
const isProration = (line: Stripe.InvoiceLineItem) => line.parent?.subscription_item_details?.proration === true;

async function sendOnce(deps: ApplyDeps, name: string, key: string, to: string, email: Email): Promise<void> {
  await sendEmailOnce(deps, { name, key, expiresAfterSeconds: EMAIL_ONCE_SECONDS }, to, () => email);
}

// ---- Subscriptions --------------------------------------------------------------------------------

/** The plan a subscription's schedule moves to at the period's end (a downgrade), if any. */
async function scheduledPlanOf(deps: ApplyDeps, sub: Stripe.Subscription, current: PlanId, periodEnd: number): Promise<PlanId | undefined> {
  const scheduleId = idOf(sub.schedule);
  if (!scheduleId) return undefined;
  const schedule = typeof sub.schedule === 'object' && sub.schedule ? sub.schedule : await deps.stripe.subscriptionSchedules.retrieve(scheduleId);
  if (schedule.status !== 'active' && schedule.status !== 'not_started') return undefined;
  const next = schedule.phases.find((p) => p.start_date >= periodEnd);
  const plan = planOfPrice(deps.prices, idOf(next?.items[0]?.price));
  return plan && plan !== current ? plan : undefined;
}

export interface SyncResult {
  accountId: string;
  subscription: Stripe.Subscription;
  /** The mirror as written now; absent when nothing was applied. */
  mirror?: Omit<SubscriptionMirror, 'updatedAt'>;
}

/**
 * Reads the subscription from Stripe and makes ours agree: the mirror, and the account's plan
 * (the subscription's while it is active, past due or canceling; Free once it has ended).
 * Emails "plan active" the first time it is live and "plan ended" when it ends, once each per
 * subscription. Answers undefined for a subscription that is not ours.
 */
export async function syncSubscription(deps: ApplyDeps, subscriptionId: string): Promise<SyncResult | undefined> {
  const sub = await deps.stripe.subscriptions.retrieve(subscriptionId);
  const customerId = idOf(sub.customer)!;
  const accountId = await deps.store.accountOfCustomer(customerId);
  if (!accountId) {
    // An erased client's (the erasure's own cancellation among them): recorded, nothing applied.
    if (await isErasedCustomerEvent(deps, customerId, { object: 'subscription', objectId: subscriptionId, expected: canceledByErasure(sub) })) return undefined;
    log.warn('a subscription of a customer that is no account of ours; nothing applied', { subscriptionId, customerId });
    return undefined;
  }
  const state = subscriptionStateOf(sub);
  const item = sub.items.data[0];
  const plan = planOfPrice(deps.prices, idOf(item?.price));
  if (!state || !item || !plan) {
    if (!plan) log.warn('a subscription to a price that is not one of our plans; nothing applied', { subscriptionId, price: idOf(item?.price) });
    return { accountId, subscription: sub };
  }
  const account = await deps.accounts.get(accountId);
  if (!account) {
    // Erased before its customer was marked (an erasure older than its payments step): nothing applied, no invoice either.
    await noteErasedAccountEvent(deps, { object: 'subscription', objectId: subscriptionId, customerId, accountId });
    return undefined;
  }

  if (isDuplicate(sub)) {
    // Cancelled as a second live subscription: the plan, the credits and the emails are the kept one's.
    if (state === 'ended') await deps.store.endSubscriptionMirror(accountId, sub.id);
    return { accountId, subscription: sub };
  }
  const previous = await deps.store.subscriptionOf(accountId);
  // Checked as a subscription goes live, or when the mirror names another: a renewal of the one
  // already mirrored live lists nothing.
  const knownLive = previous?.subscriptionId === sub.id && isLive(previous.state);
  if (isLive(state) && !knownLive && !(await keepsOldestLive(deps, accountId, sub))) return { accountId, subscription: await deps.stripe.subscriptions.retrieve(sub.id) };

  const scheduledPlan = state === 'ended' ? undefined : await scheduledPlanOf(deps, sub, plan, item.current_period_end);
  const mirror: Omit<SubscriptionMirror, 'updatedAt'> = {
    accountId,
    subscriptionId: sub.id,
    customerId,
    plan,
    status: sub.status,
    state,
    currentPeriodStart: isoOf(item.current_period_start),
    currentPeriodEnd: isoOf(item.current_period_end),
    ...(scheduledPlan ? { scheduledPlan } : {}),
    priceCents: planById(plan).monthlyPriceCents,
  };
  // An old subscription that ended after the account subscribed again leaves the new one alone.
  if (!(await deps.store.putSubscription(mirror))) return { accountId, subscription: sub };

  const target: PlanId = state === 'ended' ? 'free' : plan;
  const unchanged = previous?.subscriptionId === sub.id && previous.state === state && previous.plan === plan && account.plan === target;
  if (!unchanged) {
    const reason = state === 'ended' ? `${planById(plan).name} subscription ended (${sub.status})` : `${planById(plan).name} subscription ${sub.status}`;
    await deps.accounts.setBillingPlan(accountId, target, { ...(state === 'ended' ? {} : { subscriptionId: sub.id }), reason });
  }

  if (isLive(state)) {
    await sendOnce(deps, 'payments.plan-active-email', sub.id, account.email, planActiveEmail({ name: account.full_name, plan, renewsAt: mirror.currentPeriodEnd, siteUrl: deps.siteUrl }));
  } else if (sub.status !== 'incomplete_expired') {
    // A subscription whose first payment never went through was never a plan: nothing ended.
    await sendOnce(deps, 'payments.plan-ended-email', sub.id, account.email, planEndedEmail({ name: account.full_name, plan, siteUrl: deps.siteUrl }));
  }
  return { accountId, subscription: sub, mirror };
}

// ---- One live subscription per account --------------------------------------------------------

/** The comment a second live subscription is cancelled with; it marks it for every later event. */
const DUPLICATE_SUBSCRIPTION_COMMENT = 'Cancelled at once: the account already has a live subscription (the older one is kept).';
const isDuplicate = (sub: Stripe.Subscription) => sub.cancellation_details?.comment === DUPLICATE_SUBSCRIPTION_COMMENT;

/**
 * Keeps one live subscription per account, whatever raced to make two (two checkouts paid at
 * once): the customer's live subscriptions are read from Stripe, the oldest is kept, and every
 * newer one is cancelled at once (no proration) and its paid invoices refunded in full, each
 * under an idempotency key, so a repeat does nothing more. A refunded invoice's payment is
 * recorded first (with the credits granted, none if none were), so its `charge.refunded` takes
 * back whatever it granted. Answers whether `sub` is the one kept.
 */
async function keepsOldestLive(deps: ApplyDeps, accountId: string, sub: Stripe.Subscription): Promise<boolean> {
  const customer = idOf(sub.customer)!;
  const live: Stripe.Subscription[] = [];
  for await (const other of deps.stripe.subscriptions.list({ customer, limit: 100 })) {
    if (isLive(subscriptionStateOf(other)) && !isDuplicate(other)) live.push(other);
  }
  if (!live.some((l) => l.id === sub.id)) live.push(sub);
  if (live.length < 2) return true;
  // The oldest first; made in the same second, the lower id (compared by code unit, as Stripe's ids sort).
  live.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const [kept, ...extra] = live;
  for (const duplicate of extra) await cancelDuplicate(deps, accountId, duplicate.id, kept.id);
  return kept.id === sub.id;
}

async function cancelDuplicate(deps: ApplyDeps, accountId: string, subscriptionId: string, keptId: string): Promise<void> {
  const now = await deps.stripe.subscriptions.retrieve(subscriptionId);
  if (now.status !== 'canceled') {
    await deps.stripe.subscriptions.cancel(
      subscriptionId,
      { prorate: false, invoice_now: false, cancellation_details: { comment: DUPLICATE_SUBSCRIPTION_COMMENT } },
      { idempotencyKey: `duplicate-subscription:${subscriptionId}` },
    );
  }
  for await (const invoice of deps.stripe.invoices.list({ subscription: subscriptionId, status: 'paid', limit: 100 })) {
    if (invoice.amount_paid <= 0) continue;
    const paymentIntentId = await invoicePaymentIntent(deps, invoice.id!);
    if (!paymentIntentId) continue;
    const { paidAt, ...charge } = await chargeOf(deps, paymentIntentId);
    // Written once (by payment intent): the invoice's own record, with its credits, stays if it came first.
    await deps.store.recordPayment({
      paymentIntentId,
      accountId,
      kind: 'subscription',
      description: 'Second subscription, refunded',
      amountCents: invoice.amount_paid,
      credits: 0,
      at: paidAt,
      source: `invoice:${invoice.id}`,
      grantKey: `invoice:${invoice.id}`,
      invoiceId: invoice.id!,
      subscriptionId,
      ...charge,
    });
    await deps.stripe.refunds.create(
      { payment_intent: paymentIntentId, reason: 'duplicate', metadata: { accountId, subscription: subscriptionId, kept: keptId } },
      { idempotencyKey: `duplicate-subscription-refund:${invoice.id}` },
    );
  }
  log.warn('a second live subscription of one account was cancelled and refunded', { accountId, subscriptionId, kept: keptId });
}

// ---- Invoices ---------------------------------------------------------------------------------

/** Every line of an invoice (the embedded list, or all its pages when it has more). */
async function linesOf(deps: ApplyDeps, invoice: Stripe.Invoice): Promise<Stripe.InvoiceLineItem[]> {
  if (!invoice.lines.has_more) return invoice.lines.data;
  const lines: Stripe.InvoiceLineItem[] = [];
  for await (const line of deps.stripe.invoices.listLineItems(invoice.id!, { limit: 100 })) lines.push(line);
  return lines;
}

/**
 * What a paid invoice is for, from its lines: a period of a plan (its non-proration line: created
 * or renewed), or an upgrade within a period (the proration line charging the new plan).
 */
function periodInvoiceOf(deps: ApplyDeps, invoice: Stripe.Invoice, lines: Stripe.InvoiceLineItem[]): PeriodInvoice | undefined {
  const planLines = lines.filter((l) => planOfPrice(deps.prices, priceOfLine(l)));
  const period = planLines.filter((l) => !isProration(l)).at(-1);
  const upgrade = planLines.filter((l) => isProration(l) && l.amount > 0).at(-1);
  const line = period ?? upgrade;
  if (!line) return undefined;
  const plan = planOfPrice(deps.prices, priceOfLine(line))!;
  const quantity = period ? (line.quantity ?? 1) : 1;
  return {
    id: invoice.id!,
    created: invoice.created,
    number: invoice.number ?? '',
    kind: period ? 'period' : 'upgrade',
    plan,
    planCredits: planById(plan).monthlyCredits * quantity,
    planPriceCents: planById(plan).monthlyPriceCents * quantity,
    // Only what Stripe collected pays for credits: not a charge under its minimum, carried to the customer's balance.
    amountPaidCents: invoice.status === 'paid' ? invoice.amount_paid : 0,
    periodEnd: line.period.end,
  };
}

/** The payment intent (and its charge) that paid an invoice, through Stripe's invoice payments. */
async function invoicePaymentIntent(deps: ApplyDeps, invoiceId: string): Promise<string | undefined> {
  const payments = await deps.stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 });
  const paid = payments.data.find((p) => p.status === 'paid') ?? payments.data[0];
  return idOf(paid?.payment?.payment_intent);
}

/** The charge of a payment intent (refunds and disputes name it) and its receipt. */
async function chargeOf(deps: ApplyDeps, paymentIntentId: string): Promise<{ chargeId?: string; receiptUrl?: string; paidAt: string }> {
  const pi = await deps.stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
  const charge = typeof pi.latest_charge === 'object' && pi.latest_charge ? pi.latest_charge : undefined;
  return {
    ...(idOf(pi.latest_charge) ? { chargeId: idOf(pi.latest_charge) } : {}),
    ...(charge?.receipt_url ? { receiptUrl: charge.receipt_url } : {}),
    paidAt: isoOf(charge?.created ?? pi.created),
  };
}

/**
 * A paid subscription invoice: syncs the subscription, grants the period's allowance once (key
 * `invoice:<id>`; an upgrade's proration invoice grants the new plan's allowance less what the
 * period's earlier invoices granted), never more than what Stripe collected pays for at the
 * plan's rate (`allowancesOfPeriod`), as paid credits expiring at the end of the following period,
 * and records the payment. An invoice that is not paid (now), or paid without a charge (a $0
 * invoice, or an amount under Stripe's minimum moved to the customer's balance), grants nothing.
 */
export async function applyPaidInvoice(deps: ApplyDeps, invoiceId: string): Promise<void> {
  const invoice = await deps.stripe.invoices.retrieve(invoiceId);
  if (invoice.status !== 'paid') return;
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
  if (!subscriptionId) return;
  if (await isErasedCustomerEvent(deps, idOf(invoice.customer), { object: 'invoice', objectId: invoiceId })) return;
  const synced = await syncSubscription(deps, subscriptionId);
  if (!synced) return;
  const { accountId, subscription } = synced;
  // A second subscription, cancelled and refunded (its payment recorded then): it grants nothing.
  if (isDuplicate(subscription)) return;

  const mine = periodInvoiceOf(deps, invoice, await linesOf(deps, invoice));
  let credits = 0;
  let plan: PlanId | undefined;
  if (mine) {
    plan = mine.plan;
    // Every paid invoice of the same period, so the grant is the same in whatever order they come.
    const period: PeriodInvoice[] = [];
    for await (const other of deps.stripe.invoices.list({ subscription: subscriptionId, status: 'paid', limit: 100 })) {
      if (other.id === invoice.id) continue;
      const found = periodInvoiceOf(deps, other, await linesOf(deps, other));
      if (found && found.periodEnd === mine.periodEnd) period.push(found);
    }
    credits = allowancesOfPeriod([...period, mine]).get(mine.id) ?? 0;
    if (credits > 0) {
      const interval = intervalOf(subscription.items.data[0]?.price.recurring);
      const source = `invoice:${invoice.id}`;
      const lot: SourcedLot = { valueMicros: paidCreditValueMicros(invoice.amount_paid, credits), kind: 'paid', source, expiresAt: planCreditsExpireAt(mine.periodEnd, interval) };
      const name = planById(plan).name;
      await deps.ledger.grant(accountId, { credits, key: source, reason: mine.kind === 'period' ? `${name} plan credits` : `${name} plan upgrade credits`, lot });
    }
  }

  const paymentIntentId = invoice.amount_paid > 0 ? await invoicePaymentIntent(deps, invoice.id!) : undefined;
  if (paymentIntentId) {
    const paidAt = isoOf(invoice.status_transitions.paid_at ?? invoice.created);
    const what = plan ? `${planById(plan).name} plan` : 'Subscription';
    const { chargeId, receiptUrl } = await chargeOf(deps, paymentIntentId);
    await deps.store.recordPayment({
      paymentIntentId,
      accountId,
      kind: 'subscription',
      description: invoice.billing_reason === 'subscription_update' ? `${what} upgrade` : `${what}, ${paidAt.slice(0, 7)}`,
      amountCents: invoice.amount_paid,
      credits,
      at: paidAt,
      source: `invoice:${invoice.id}`,
      grantKey: `invoice:${invoice.id}`,
      invoiceId: invoice.id!,
      subscriptionId,
      ...(chargeId ? { chargeId } : {}),
      ...(receiptUrl ? { receiptUrl } : {}),
    });
  }
}

/**
 * A renewal's payment failed: emails the client once per attempt of the invoice, with the link
 * that opens the billing portal. The plan stays (Stripe retries); nothing is granted.
 */
export async function notifyPaymentFailed(deps: ApplyDeps, eventInvoice: Stripe.Invoice): Promise<void> {
  const invoice = await deps.stripe.invoices.retrieve(eventInvoice.id!);
  // Paid since, or written off: nothing to ask of the client.
  if (invoice.status !== 'open') return;
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
  const accountId = await deps.store.accountOfCustomer(idOf(invoice.customer)!);
  if (!accountId && (await isErasedCustomerEvent(deps, idOf(invoice.customer), { object: 'invoice', objectId: invoice.id! }))) return;
  if (!accountId || !subscriptionId) return;
  const account = await deps.accounts.get(accountId);
  const lines = await linesOf(deps, invoice);
  const plan = lines.map((l) => planOfPrice(deps.prices, priceOfLine(l))).find((p) => p) ?? (await deps.store.subscriptionOf(accountId))?.plan;
  if (!account || !plan) return;
  // The attempt the event tells of: its own copy names it (the invoice may have been tried again since).
  const attempt = eventInvoice.attempt_count;
  const nextAttempt = eventInvoice.next_payment_attempt;
  await sendOnce(
    deps,
    'payments.payment-failed-email',
    `${invoice.id}:${attempt}`,
    account.email,
    paymentFailedEmail({ name: account.full_name, plan, amountCents: invoice.amount_due, ...(nextAttempt ? { nextAttemptAt: isoOf(nextAttempt) } : {}), siteUrl: deps.siteUrl }),
  );
}

// ---- Checkouts --------------------------------------------------------------------------------

/**
 * A completed checkout. Credit packs (payment mode, paid): grants the credits once (key
 * `checkout:<id>`) as paid credits at what was paid over the credits, never expiring, and records
 * the payment. A plan (subscription mode): syncs the subscription and applies its first invoice.
 * Either way the checkout is then marked applied, which the portal waits for.
 */
export async function applyCompletedCheckout(deps: ApplyDeps, sessionId: string): Promise<void> {
  const session = await deps.stripe.checkout.sessions.retrieve(sessionId);
  if (session.status !== 'complete' || session.payment_status !== 'paid') return;
  const record = await deps.store.getCheckout(sessionId);
  const customerId = idOf(session.customer);
  // Paid before the client was erased, applied after: their checkout record still names the account.
  if (await isErasedCustomerEvent(deps, customerId, { object: 'checkout', objectId: sessionId })) return;
  const accountId = record?.accountId ?? (customerId ? await deps.store.accountOfCustomer(customerId) : undefined);
  if (!accountId) {
    log.warn('a checkout of no account of ours; nothing applied', { sessionId });
    return;
  }

  if (session.mode === 'subscription') {
    const subscriptionId = idOf(session.subscription);
    if (!subscriptionId) return;
    const synced = await syncSubscription(deps, subscriptionId);
    const invoiceId = idOf(session.invoice) ?? idOf(synced?.subscription.latest_invoice);
    if (invoiceId) await applyPaidInvoice(deps, invoiceId);
    if (synced?.mirror && isLive(synced.mirror.state)) await deps.store.markCheckoutApplied(sessionId);
    return;
  }

  if (session.mode !== 'payment') return;
  const lines: Stripe.LineItem[] = [];
  for await (const line of deps.stripe.checkout.sessions.listLineItems(sessionId, { limit: 100 })) lines.push(line);
  const packLines = lines.filter((l) => planOfCreditPrice(deps.prices, l.price?.id));
  const credits = packLines.reduce((n, l) => n + (l.quantity ?? 0), 0);
  const amount = session.amount_total ?? 0;
  if (credits < 1) {
    log.warn('a paid checkout that bought no credits of ours; nothing granted', { sessionId });
    return;
  }
  const source = `checkout:${sessionId}`;
  const lot: SourcedLot = { valueMicros: paidCreditValueMicros(amount, credits), kind: 'paid', source };
  await deps.ledger.grant(accountId, { credits, key: source, reason: `${credits} extra credits bought`, lot });

  const paymentIntentId = idOf(session.payment_intent);
  if (paymentIntentId) {
    const { paidAt, ...charge } = await chargeOf(deps, paymentIntentId);
    await deps.store.recordPayment({
      paymentIntentId,
      accountId,
      kind: 'credits',
      description: `${credits} extra credits`,
      amountCents: amount,
      credits,
      at: paidAt,
      source,
      grantKey: source,
      checkoutId: sessionId,
      ...charge,
    });
  }
  await deps.store.markCheckoutApplied(sessionId);
}
