// What the Stripe emulator holds and does: the catalogue, customers and their cards, Checkout
// Sessions and their payment, subscriptions with invoices that renew, fail and are retried on
// Stripe's schedule, plan switches, refunds and disputes, each change announced by its event.
// Objects are kept in Stripe's own shapes (objects.ts) and changed in place; events and answers
// carry copies.
import type Stripe from 'stripe';
import { cardDetails, declineOf, readCardForm, testCardByPaymentMethod, type Decline, type TestCard } from './cards';
import { addIntervals, Clocks, days, type Interval } from './clock';
import { invalid, mergeMetadata, missing, StripeApiError, type Reader } from './form';
import * as o from './objects';
import type { Webhooks } from './webhooks';

/** A product of the catalogue the emulator starts with (the twin's: one per plan, decision 042). */
export interface CatalogProduct {
  id: string;
  name: string;
  description?: string;
  metadata?: Record<string, string>;
  prices: CatalogPrice[];
}

/** A price of a catalogue product; its id is kept, so server configuration can name it. */
interface CatalogPrice {
  id: string;
  unitAmount: number;
  currency?: string;
  recurring?: { interval: Interval; intervalCount?: number };
  lookupKey?: string;
  nickname?: string;
  metadata?: Record<string, string>;
}

export interface EngineOptions {
  /** The emulator's address, for the hosted pages' URLs. */
  endpoint: () => string;
  webhooks: Webhooks;
  /** Days after each failed attempt when a renewal's payment is tried again (Stripe's custom schedule). */
  retryScheduleDays: number[];
  /** What happens to the subscription once every retry failed (Stripe's setting: cancel it, or mark it unpaid). */
  afterFailedRetries: 'cancel' | 'unpaid';
  log: (line: string) => void;
}

/** The request an event comes from (`event.request`), set by the server while a call runs. */
interface RequestContext {
  id: string;
  idempotencyKey: string | null;
}

interface SubscriptionState {
  clock: string | null;
  /** Periods since the billing cycle anchor (the current period is number `periods`). */
  periods: number;
  /** Proration lines waiting for the next invoice (`proration_behavior=create_prorations`). */
  pendingLines: o.InvoiceLineInput[];
  /** A downgrade at the period's end (the billing portal's), through a subscription schedule. */
  scheduled?: { price: string; schedule: string };
}

interface SessionState {
  lines: Stripe.LineItem[];
  subscriptionMetadata: Stripe.Metadata;
  paymentIntentMetadata: Stripe.Metadata;
  clock: string | null;
}

export type CheckoutAnswer =
  | { ok: true; redirect: string | null }
  | { ok: false; field: 'number' | 'expiry' | 'cvc' | 'email' | 'name' | 'session'; message: string };

const DISPUTE_RESPONSE_DAYS = 7;
/** The smallest charge Stripe makes in USD: an invoice due less is marked paid, its amount carried to the customer's balance. */
const MINIMUM_CHARGE_CENTS = 50;

export class Engine {
  readonly clocks = new Clocks();
  readonly products = new Map<string, Stripe.Product>();
  readonly prices = new Map<string, Stripe.Price>();
  readonly customers = new Map<string, Stripe.Customer>();
  readonly paymentMethods = new Map<string, Stripe.PaymentMethod>();
  readonly sessions = new Map<string, Stripe.Checkout.Session>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly refunds = new Map<string, Stripe.Refund>();
  readonly disputes = new Map<string, Stripe.Dispute>();
  readonly subscriptions = new Map<string, Stripe.Subscription>();
  readonly schedules = new Map<string, Stripe.SubscriptionSchedule>();
  readonly invoices = new Map<string, Stripe.Invoice>();
  readonly invoicePayments = new Map<string, Stripe.InvoicePayment>();
  readonly portalSessions = new Map<string, Stripe.BillingPortal.Session>();
  readonly testClocks = new Map<string, Stripe.TestHelpers.TestClock>();

  private readonly cards = new Map<string, TestCard>();
  private readonly subState = new Map<string, SubscriptionState>();
  private readonly sessionState = new Map<string, SessionState>();
  private readonly invoicePaymentIntent = new Map<string, string>();
  private readonly customerClock = new Map<string, string | null>();
  /** Set by the server for the length of one API call (every engine call is synchronous). */
  request: RequestContext | null = null;

  constructor(private readonly options: EngineOptions) {}

  // --- plumbing ---

  private emit(type: Stripe.Event.Type, object: { id: string; object: string }, clock: string | null, previous?: Record<string, unknown>): void {
    this.options.webhooks.emit(type, object, {
      created: this.clocks.now(clock),
      previous,
      request: this.request ? { id: this.request.id, idempotencyKey: this.request.idempotencyKey } : { id: null, idempotencyKey: null },
    });
  }

  private url(path: string): string {
    return `${this.options.endpoint()}${path}`;
  }

  clockOfCustomer(customerId: string | null): string | null {
    return customerId ? (this.customerClock.get(customerId) ?? null) : null;
  }

  private clockOfSubscription(sub: Stripe.Subscription): string | null {
    return this.subState.get(sub.id)?.clock ?? null;
  }

  /** Any object by its id, for expansion (`expand[]=customer`). */
  lookup(id: string): { id: string; object: string } | undefined {
    for (const map of [
      this.customers,
      this.subscriptions,
      this.invoices,
      this.paymentIntents,
      this.charges,
      this.prices,
      this.products,
      this.paymentMethods,
      this.sessions,
      this.refunds,
      this.disputes,
      this.schedules,
      this.testClocks,
      this.invoicePayments,
    ] as Array<Map<string, { id: string; object: string }>>) {
      const hit = map.get(id);
      if (hit) return hit;
    }
    return undefined;
  }

  customer(id: string, param = 'customer'): Stripe.Customer {
    const c = this.customers.get(id);
    if (!c) throw missing('customer', id, param);
    return c;
  }

  price(id: string, param = 'price'): Stripe.Price {
    const p = this.prices.get(id);
    if (!p) throw missing('price', id, param);
    return p;
  }

  productName(p: Stripe.Price): string {
    return this.products.get(typeof p.product === 'string' ? p.product : p.product.id)?.name ?? 'Product';
  }

  // --- catalogue ---

  seed(catalog: CatalogProduct[]): void {
    const created = this.clocks.now(null);
    for (const p of catalog) {
      this.products.set(p.id, o.product({ id: p.id, name: p.name, description: p.description, metadata: p.metadata, created }));
      for (const pr of p.prices) {
        if (!Number.isInteger(pr.unitAmount) || pr.unitAmount < 0) throw new Error(`catalogue price ${pr.id}: unitAmount must be a whole number of cents`);
        this.prices.set(
          pr.id,
          o.price({
            id: pr.id,
            product: p.id,
            unitAmount: pr.unitAmount,
            currency: pr.currency ?? 'usd',
            recurring: pr.recurring ? { interval: pr.recurring.interval, intervalCount: pr.recurring.intervalCount ?? 1 } : null,
            lookupKey: pr.lookupKey,
            nickname: pr.nickname,
            metadata: pr.metadata,
            created,
          }),
        );
      }
      const first = p.prices[0];
      if (first) this.products.get(p.id)!.default_price = first.id;
    }
  }

  createProduct(r: Reader): Stripe.Product {
    const id = r.string('id', { max: 100 }) || o.newId('prod', 14);
    if (this.products.has(id)) throw invalid(`Product already exists.`, 'id', 'resource_already_exists');
    const p = o.product({ id, name: r.required('name', { max: 250 }), description: r.string('description') ?? null, metadata: r.metadata() ?? {}, created: this.clocks.now(null) });
    const active = r.boolean('active');
    if (active !== undefined) p.active = active;
    r.done();
    this.products.set(id, p);
    this.emit('product.created', p, null);
    return p;
  }

  createPrice(r: Reader): Stripe.Price {
    const productId = r.required('product');
    if (!this.products.has(productId)) throw missing('product', productId, 'product');
    const recurring = r.hash('recurring');
    const interval = recurring?.oneOf('interval', ['day', 'week', 'month', 'year'] as const, { required: true });
    const intervalCount = recurring?.integer('interval_count', { min: 1, max: 12 }) ?? 1;
    recurring?.done();
    const lookupKey = r.string('lookup_key', { max: 200 });
    if (lookupKey && [...this.prices.values()].some((p) => p.lookup_key === lookupKey)) {
      throw invalid(`A price (\`${[...this.prices.values()].find((p) => p.lookup_key === lookupKey)!.id}\`) already uses that lookup key.`, 'lookup_key');
    }
    const p = o.price({
      id: o.newId('price'),
      product: productId,
      unitAmount: r.integer('unit_amount', { required: true, min: 0, max: 99_999_999 })!,
      currency: r.required('currency').toLowerCase(),
      recurring: interval ? { interval, intervalCount } : null,
      lookupKey,
      nickname: r.string('nickname'),
      metadata: r.metadata() ?? {},
      created: this.clocks.now(null),
    });
    r.done();
    this.prices.set(p.id, p);
    this.emit('price.created', p, null);
    return p;
  }

  // --- customers and payment methods ---

  createCustomer(r: Reader): Stripe.Customer {
    const testClock = r.string('test_clock');
    if (testClock && !this.testClocks.has(testClock)) throw missing('test_clock', testClock, 'test_clock');
    const c = o.customer({
      id: o.newId('cus', 14),
      email: r.string('email', { max: 512 }) || null,
      name: r.string('name', { max: 256 }) || null,
      metadata: r.metadata() ?? {},
      created: this.clocks.now(testClock ?? null),
      testClock: testClock ?? null,
    });
    const description = r.string('description');
    if (description) c.description = description;
    const pm = r.string('payment_method');
    r.done();
    this.customers.set(c.id, c);
    this.customerClock.set(c.id, testClock ?? null);
    this.emit('customer.created', c, testClock ?? null);
    if (pm) this.attachPaymentMethod(pm, c.id);
    return c;
  }

  updateCustomer(id: string, r: Reader): Stripe.Customer {
    const c = this.customer(id, 'id');
    const before = structuredClone(c);
    const email = r.string('email', { max: 512 });
    if (email !== undefined) c.email = email || null;
    const name = r.string('name', { max: 256 });
    if (name !== undefined) c.name = name || null;
    const description = r.string('description');
    if (description !== undefined) c.description = description || null;
    c.metadata = mergeMetadata(c.metadata, r.metadata());
    const settings = r.hash('invoice_settings');
    const pm = settings?.string('default_payment_method');
    settings?.done();
    r.done();
    if (pm !== undefined) {
      if (pm && this.paymentMethods.get(pm)?.customer !== c.id) {
        throw invalid(`No such PaymentMethod: '${pm}'; It's possible this PaymentMethod exists on one of your connected accounts, in which case you should retry this request on that connected account.`, 'invoice_settings[default_payment_method]', 'resource_missing');
      }
      c.invoice_settings.default_payment_method = pm || null;
    }
    this.emitUpdated('customer.updated', c, before, this.clockOfCustomer(c.id));
    return c;
  }

  deleteCustomer(id: string): Stripe.DeletedCustomer {
    const c = this.customer(id, 'id');
    for (const sub of this.subscriptions.values()) {
      if (sub.customer === id && !['canceled', 'incomplete_expired'].includes(sub.status)) this.cancelNow(sub, 'cancellation_requested');
    }
    this.customers.delete(id);
    this.emit('customer.deleted', c, this.clockOfCustomer(id));
    return { id, object: 'customer', deleted: true };
  }

  /** `customer.updated` and the like, with Stripe's `previous_attributes`: the top-level fields that changed. */
  private emitUpdated(type: Stripe.Event.Type, now: { id: string; object: string }, before: object, clock: string | null): void {
    const previous: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(before)) {
      if (JSON.stringify(v) !== JSON.stringify((now as Record<string, unknown>)[k])) previous[k] = v;
    }
    if (Object.keys(previous).length > 0) this.emit(type, now, clock, previous);
  }

  private newPaymentMethod(card: TestCard, expMonth: number, expYear: number, billing: { name: string | null; email: string | null }, customer: string | null): Stripe.PaymentMethod {
    const pm = o.paymentMethod({
      id: o.newId('pm'),
      card: cardDetails(card, expMonth, expYear),
      customer,
      name: billing.name,
      email: billing.email,
      created: this.clocks.now(this.clockOfCustomer(customer)),
    });
    this.paymentMethods.set(pm.id, pm);
    this.cards.set(pm.id, card);
    if (customer) this.emit('payment_method.attached', pm, this.clockOfCustomer(customer));
    return pm;
  }

  /**
   * `POST /v1/payment_methods/:id/attach`: a test payment method (`pm_card_visa`,
   * `pm_card_chargeCustomerFail`, ...) makes a new card for the customer, as on Stripe; a card
   * of nobody's is attached as it is.
   */
  attachPaymentMethod(id: string, customerId: string): Stripe.PaymentMethod {
    const c = this.customer(customerId);
    const test = testCardByPaymentMethod(id);
    if (test) {
      const year = new Date(this.clocks.now(this.clockOfCustomer(c.id)) * 1000).getUTCFullYear() + 3;
      return this.newPaymentMethod(test, 12, year, { name: c.name ?? null, email: c.email }, c.id);
    }
    const pm = this.paymentMethods.get(id);
    if (!pm) throw missing('PaymentMethod', id, 'payment_method');
    if (pm.customer && pm.customer !== c.id) throw invalid('The payment method you provided has already been attached to a customer.', 'payment_method', 'payment_method_unexpected_state');
    pm.customer = c.id;
    this.emit('payment_method.attached', pm, this.clockOfCustomer(c.id));
    return pm;
  }

  detachPaymentMethod(id: string): Stripe.PaymentMethod {
    const pm = this.paymentMethods.get(id);
    if (!pm) throw missing('PaymentMethod', id);
    if (!pm.customer) throw invalid('The payment method you provided is not attached to a customer so detachment is impossible.', undefined, 'payment_method_unexpected_state');
    const customer = typeof pm.customer === 'string' ? pm.customer : pm.customer.id;
    pm.customer = null;
    const c = this.customers.get(customer);
    if (c?.invoice_settings.default_payment_method === id) c.invoice_settings.default_payment_method = null;
    this.emit('payment_method.detached', pm, this.clockOfCustomer(customer));
    return pm;
  }

  // --- charging a card ---

  /**
   * One attempt to charge a card through a PaymentIntent (made on the first attempt): a charge
   * that succeeds or fails as the test card says, with Stripe's events.
   */
  private chargeCard(pi: Stripe.PaymentIntent, pmId: string, offSession: boolean, clock: string | null): { charge: Stripe.Charge; decline?: Decline } {
    const pm = this.paymentMethods.get(pmId)!;
    const card = this.cards.get(pmId)!;
    const decline = declineOf(card, offSession);
    const chargeId = o.newId('ch');
    const ch = o.charge({
      id: chargeId,
      amount: pi.amount,
      currency: pi.currency,
      customer: typeof pi.customer === 'string' ? pi.customer : (pi.customer?.id ?? null),
      paymentIntent: pi.id,
      paymentMethod: pm,
      description: pi.description,
      metadata: pi.metadata,
      created: this.clocks.now(clock),
      receiptUrl: this.url(`/receipts/${chargeId}`),
      failure: decline ? { code: decline.code, message: decline.message, declineCode: decline.declineCode } : null,
    });
    this.charges.set(ch.id, ch);
    pi.latest_charge = ch.id;
    pi.payment_method = pm.id;
    if (decline) {
      pi.status = 'requires_payment_method';
      pi.last_payment_error = {
        charge: ch.id,
        code: decline.code,
        decline_code: decline.declineCode,
        doc_url: `https://docs.stripe.com/error-codes/${decline.code.replace(/_/g, '-')}`,
        message: decline.message,
        payment_method: pm,
        type: 'card_error',
      };
      this.emit('charge.failed', ch, clock);
      this.emit('payment_intent.payment_failed', pi, clock);
      return { charge: ch, decline };
    }
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.last_payment_error = null;
    this.emit('charge.succeeded', ch, clock);
    this.emit('payment_intent.succeeded', pi, clock);
    if (card.behaviour === 'disputed') this.openDispute(ch.id, 'fraudulent');
    return { charge: ch };
  }

  private newPaymentIntent(p: { amount: number; currency: string; customer: string | null; description: string | null; metadata: Stripe.Metadata; clock: string | null }): Stripe.PaymentIntent {
    const pi = o.paymentIntent({ id: o.newId('pi'), amount: p.amount, currency: p.currency, customer: p.customer, description: p.description, metadata: p.metadata, created: this.clocks.now(p.clock) });
    this.paymentIntents.set(pi.id, pi);
    this.emit('payment_intent.created', pi, p.clock);
    return pi;
  }

  // --- Checkout ---

  createCheckoutSession(r: Reader): Stripe.Checkout.Session {
    const mode = r.oneOf('mode', ['payment', 'subscription', 'setup'] as const, { required: true })!;
    if (mode === 'setup') throw invalid('The emulator serves Checkout in payment and subscription modes only.', 'mode');
    const uiMode = r.oneOf('ui_mode', ['hosted_page'] as const);
    void uiMode;
    const customerId = r.string('customer');
    const customerEmail = r.string('customer_email', { max: 512 });
    if (customerId && customerEmail) throw invalid('You may only specify one of these parameters: customer, customer_email.', 'customer_email');
    if (customerId) this.customer(customerId);
    const types = r.strings('payment_method_types');
    if (types && types.some((t) => t !== 'card')) throw invalid('The emulator takes card payments only (payment_method_types: card).', 'payment_method_types');
    const items = r.hashes('line_items', { required: true })!;
    if (items.length === 0) throw invalid('Missing required param: line_items.', 'line_items', 'parameter_missing');
    if (items.length > 100) throw invalid('You may only specify up to 100 line items.', 'line_items');
    const clock = this.clockOfCustomer(customerId ?? null);
    const lines = items.map((item, i) => {
      const pr = this.price(item.required('price'), `line_items[${i}][price]`);
      if (!pr.active) throw invalid(`The price specified is inactive. This field only accepts active prices.`, `line_items[${i}][price]`);
      const quantity = item.integer('quantity', { required: true, min: 1, max: 999_999 })!;
      item.done();
      return o.checkoutLineItem(pr, quantity, this.productName(pr));
    });
    const recurring = lines.filter((l) => l.price?.recurring);
    if (mode === 'subscription' && recurring.length === 0) {
      throw invalid('You must provide at least one recurring price in `subscription` mode when using prices.', 'line_items');
    }
    if (mode === 'subscription' && lines.length > 1) {
      throw invalid('The emulator sells one recurring price per subscription (one line item in `subscription` mode).', 'line_items');
    }
    if (mode === 'payment' && recurring.length > 0) {
      throw invalid('You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', 'line_items');
    }
    const currencies = new Set(lines.map((l) => l.currency));
    if (currencies.size > 1) throw invalid('All prices must be in the same currency.', 'line_items');
    const subscriptionData = r.hash('subscription_data');
    const subscriptionMetadata = subscriptionData?.metadata() ?? {};
    subscriptionData?.done();
    if (subscriptionData && mode !== 'subscription') throw invalid('`subscription_data` can only be used in `subscription` mode.', 'subscription_data');
    const paymentIntentData = r.hash('payment_intent_data');
    const paymentIntentMetadata = paymentIntentData?.metadata() ?? {};
    paymentIntentData?.done();
    if (paymentIntentData && mode !== 'payment') throw invalid('`payment_intent_data` can only be used in `payment` mode.', 'payment_intent_data');
    const now = this.clocks.now(clock);
    const expiresAt = r.integer('expires_at') ?? now + days(1);
    if (expiresAt < now + 30 * 60 || expiresAt > now + days(1)) {
      throw invalid('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', 'expires_at');
    }
    const id = `cs_test_${o.newId('a', 56).slice(2)}`;
    const session = o.checkoutSession({
      id,
      mode,
      url: this.url(`/c/pay/${id}`),
      amount: lines.reduce((s, l) => s + l.amount_total, 0),
      currency: lines[0].currency,
      customer: customerId ?? null,
      customerEmail: customerEmail || null,
      clientReferenceId: r.string('client_reference_id', { max: 200 }) ?? null,
      metadata: r.metadata() ?? {},
      successUrl: r.url('success_url') ?? null,
      cancelUrl: r.url('cancel_url') ?? null,
      created: now,
      expiresAt,
    });
    r.done();
    this.sessions.set(id, session);
    this.sessionState.set(id, { lines, subscriptionMetadata, paymentIntentMetadata, clock });
    return session;
  }

  session(id: string): Stripe.Checkout.Session {
    const s = this.sessions.get(id);
    if (!s) throw missing('checkout.session', id, 'session');
    return s;
  }

  sessionLines(id: string): Stripe.LineItem[] {
    return this.sessionState.get(id)?.lines ?? [];
  }

  expireCheckoutSession(id: string): Stripe.Checkout.Session {
    const s = this.session(id);
    if (s.status !== 'open') throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`, undefined, 'checkout_session_not_open');
    s.status = 'expired';
    s.url = null;
    this.emit('checkout.session.expired', s, this.sessionState.get(id)?.clock ?? null);
    return s;
  }

  /** Whether the session can still be paid (open and not past `expires_at`); an expired one is marked so. */
  private sessionOpen(s: Stripe.Checkout.Session): boolean {
    const clock = this.sessionState.get(s.id)?.clock ?? null;
    if (s.status === 'open' && this.clocks.now(clock) > s.expires_at) this.expireCheckoutSession(s.id);
    return s.status === 'open';
  }

  /** The hosted checkout page's form: pays the session with the typed card, as Stripe's page does. */
  payCheckout(id: string, form: { email?: string; name?: string; number?: string; expiry?: string; cvc?: string }): CheckoutAnswer {
    const s = this.sessions.get(id);
    if (!s || !this.sessionOpen(s)) return { ok: false, field: 'session', message: 'This Checkout Session is no longer active.' };
    const state = this.sessionState.get(id)!;
    const customer = s.customer ? this.customers.get(typeof s.customer === 'string' ? s.customer : s.customer.id) : undefined;
    const email = (customer?.email ?? s.customer_email ?? form.email ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return { ok: false, field: 'email', message: email ? 'Your email address is invalid.' : 'Enter your email address.' };
    const name = (form.name ?? '').trim();
    if (!name) return { ok: false, field: 'name', message: 'Enter the name on your card.' };
    const read = readCardForm(form, new Date(this.clocks.now(state.clock) * 1000));
    if ('decline' in read) return { ok: false, field: read.field, message: read.decline.message };
    // The card is tried before anything is made, as the page confirms the payment first.
    const upfront = declineOf(read.card, false);
    if (upfront && s.mode === 'subscription') return { ok: false, field: 'number', message: upfront.message };

    let customerId = customer?.id ?? null;
    if (!customerId && s.mode === 'subscription') {
      const c = o.customer({ id: o.newId('cus', 14), email, name, metadata: {}, created: this.clocks.now(state.clock), testClock: null });
      this.customers.set(c.id, c);
      this.customerClock.set(c.id, null);
      this.emit('customer.created', c, state.clock);
      customerId = c.id;
    }
    const pm = this.newPaymentMethod(read.card, read.expMonth, read.expYear, { name, email }, customerId);
    const details: Stripe.Checkout.Session.CustomerDetails = { address: null, business_name: null, email, individual_name: null, name, phone: null, tax_exempt: 'none', tax_ids: [] };

    if (s.mode === 'payment') {
      let pi = s.payment_intent ? this.paymentIntents.get(s.payment_intent as string) : undefined;
      pi ??= this.newPaymentIntent({
        amount: s.amount_total ?? 0,
        currency: s.currency ?? 'usd',
        customer: customerId,
        description: state.lines.map((l) => `${l.quantity} x ${l.description}`).join(', '),
        metadata: state.paymentIntentMetadata,
        clock: state.clock,
      });
      s.payment_intent = pi.id;
      const { decline } = this.chargeCard(pi, pm.id, false, state.clock);
      if (decline) return { ok: false, field: 'number', message: decline.message };
    } else {
      const sub = this.subscribe(customerId!, state.lines[0], pm.id, state.subscriptionMetadata, state.clock);
      s.subscription = sub.id;
      s.invoice = typeof sub.latest_invoice === 'string' ? sub.latest_invoice : null;
    }
    s.customer = customerId;
    s.customer_details = details;
    s.status = 'complete';
    s.payment_status = 'paid';
    s.url = null;
    this.emit('checkout.session.completed', s, state.clock);
    return { ok: true, redirect: s.success_url ? s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id) : null };
  }

  // --- subscriptions and invoices ---

  /** A subscription paid by its first invoice (Checkout in subscription mode). */
  private subscribe(customerId: string, line: Stripe.LineItem, pmId: string, metadata: Stripe.Metadata, clock: string | null): Stripe.Subscription {
    const pr = line.price!;
    const start = this.clocks.now(clock);
    const subId = o.newId('sub');
    const interval = pr.recurring!.interval as Interval;
    const item = o.subscriptionItem({
      id: o.newId('si', 14),
      price: pr,
      quantity: line.quantity ?? 1,
      subscription: subId,
      periodStart: start,
      periodEnd: addIntervals(start, interval, pr.recurring!.interval_count, 1),
      created: start,
    });
    const sub = o.subscription({ id: subId, customer: customerId, item, currency: pr.currency, defaultPaymentMethod: pmId, metadata, created: start, testClock: clock });
    this.subscriptions.set(sub.id, sub);
    this.subState.set(sub.id, { clock, periods: 0, pendingLines: [] });
    this.emit('customer.subscription.created', sub, clock);
    const inv = this.newInvoice(sub, 'subscription_create', [this.periodLine(item)], start, start);
    this.finalize(inv);
    this.payInvoice(inv, false);
    return sub;
  }

  private periodLine(item: Stripe.SubscriptionItem): o.InvoiceLineInput {
    const qty = item.quantity ?? 1;
    return {
      description: `${qty} × ${this.productName(item.price)} (at ${formatAmount(item.price.unit_amount ?? 0, item.price.currency)} / ${item.price.recurring?.interval ?? 'month'})`,
      amount: (item.price.unit_amount ?? 0) * qty,
      quantity: qty,
      price: item.price,
      periodStart: item.current_period_start,
      periodEnd: item.current_period_end,
      proration: false,
      subscriptionItem: item.id,
    };
  }

  private newInvoice(sub: Stripe.Subscription, reason: Stripe.Invoice.BillingReason, lines: o.InvoiceLineInput[], periodStart: number, periodEnd: number): Stripe.Invoice {
    const c = this.customer(sub.customer as string);
    const id = o.newId('in');
    const seq = c.next_invoice_sequence ?? 1;
    c.next_invoice_sequence = seq + 1;
    const inv = o.invoice({
      id,
      number: `${c.invoice_prefix}-${String(seq).padStart(4, '0')}`,
      customer: c,
      subscription: sub,
      reason,
      lines: lines.map((l) => o.invoiceLine(id, sub.id, l)),
      periodStart,
      periodEnd,
      created: this.clocks.now(this.clockOfSubscription(sub)),
      hostedUrl: this.url(`/invoices/${id}`),
    });
    if (c.balance > 0) {
      // What an earlier invoice did not collect (under the minimum charge) is owed on this one.
      inv.starting_balance = c.balance;
      inv.amount_due += c.balance;
      inv.amount_remaining = inv.amount_due;
      c.balance = 0;
      inv.ending_balance = 0;
    }
    this.invoices.set(id, inv);
    sub.latest_invoice = id;
    this.emit('invoice.created', inv, this.clockOfSubscription(sub));
    return inv;
  }

  private subscriptionOf(inv: Stripe.Invoice): Stripe.Subscription {
    const ref = inv.parent!.subscription_details!.subscription;
    return this.subscriptions.get(typeof ref === 'string' ? ref : ref.id)!;
  }

  private finalize(inv: Stripe.Invoice): void {
    const clock = this.clockOfSubscription(this.subscriptionOf(inv));
    inv.status = 'open';
    inv.status_transitions.finalized_at = this.clocks.now(clock);
    inv.effective_at = inv.status_transitions.finalized_at;
    this.emit('invoice.finalized', inv, clock);
  }

  /** One payment attempt of an open invoice with the subscription's (or customer's) card. */
  private payInvoice(inv: Stripe.Invoice, offSession: boolean): boolean {
    const sub = this.subscriptionOf(inv);
    const clock = this.clockOfSubscription(sub);
    const c = this.customer(sub.customer as string);
    const now = this.clocks.now(clock);
    const before = structuredClone(sub);
    if (inv.amount_due === 0) {
      this.markPaid(inv, now, clock);
    } else if (inv.amount_due < MINIMUM_CHARGE_CENTS) {
      // Under Stripe's minimum charge: nothing is collected; the invoice is marked paid and its
      // amount moves to the customer's balance, which the next invoice collects.
      c.balance += inv.amount_due;
      inv.ending_balance = c.balance;
      this.markPaid(inv, now, clock, 0);
    } else {
      const pmId = (sub.default_payment_method as string | null) ?? (c.invoice_settings.default_payment_method as string | null);
      let paid = false;
      if (pmId && this.cards.has(pmId)) {
        let pi = this.paymentIntents.get(this.invoicePaymentIntent.get(inv.id) ?? '');
        if (!pi) {
          pi = this.newPaymentIntent({
            amount: inv.amount_due,
            currency: inv.currency,
            customer: c.id,
            description: inv.billing_reason === 'subscription_create' ? 'Subscription creation' : inv.billing_reason === 'subscription_update' ? 'Subscription update' : 'Subscription cycle',
            metadata: {},
            clock,
          });
          this.invoicePaymentIntent.set(inv.id, pi.id);
        }
        paid = !this.chargeCard(pi, pmId, offSession, clock).decline;
        inv.attempt_count += 1;
        inv.attempted = true;
        if (paid) {
          this.addInvoicePayment(inv, pi, now);
          this.markPaid(inv, now, clock);
        }
      } else {
        inv.attempt_count += 1;
        inv.attempted = true;
      }
      if (!paid) {
        const retries = this.options.retryScheduleDays;
        const next = inv.attempt_count - 1 < retries.length ? now + days(retries[inv.attempt_count - 1]) : null;
        inv.next_payment_attempt = next;
        this.emit('invoice.payment_failed', inv, clock);
        if (sub.status === 'active' || sub.status === 'trialing') {
          sub.status = 'past_due';
          this.emitUpdated('customer.subscription.updated', sub, before, clock);
        }
        if (next === null) this.afterLastRetry(sub);
        return false;
      }
    }
    if (['incomplete', 'past_due', 'unpaid'].includes(sub.status)) {
      sub.status = 'active';
      this.emitUpdated('customer.subscription.updated', sub, before, clock);
    }
    return true;
  }

  private addInvoicePayment(inv: Stripe.Invoice, pi: Stripe.PaymentIntent, now: number): void {
    const payment = o.invoicePayment({ invoice: inv, paymentIntent: pi, paid: true, created: now });
    this.invoicePayments.set(payment.id, payment);
  }

  private markPaid(inv: Stripe.Invoice, now: number, clock: string | null, collected = inv.amount_due): void {
    inv.status = 'paid';
    inv.amount_paid = collected;
    inv.amount_remaining = 0;
    inv.next_payment_attempt = null;
    inv.status_transitions.paid_at = now;
    this.emit('invoice.paid', inv, clock);
    this.emit('invoice.payment_succeeded', inv, clock);
  }

  private afterLastRetry(sub: Stripe.Subscription): void {
    if (this.options.afterFailedRetries === 'unpaid') {
      const before = structuredClone(sub);
      sub.status = 'unpaid';
      this.emitUpdated('customer.subscription.updated', sub, before, this.clockOfSubscription(sub));
    } else this.cancelNow(sub, 'payment_failed');
  }

  private cancelNow(sub: Stripe.Subscription, reason: 'cancellation_requested' | 'payment_failed' | 'payment_disputed'): void {
    const clock = this.clockOfSubscription(sub);
    const now = this.clocks.now(clock);
    sub.status = 'canceled';
    sub.canceled_at ??= now;
    sub.ended_at = now;
    sub.cancellation_details = { ...sub.cancellation_details!, reason };
    const state = this.subState.get(sub.id);
    if (state?.scheduled) this.releaseSchedule(sub, state, 'canceled');
    for (const inv of this.invoices.values()) {
      if (inv.status === 'open' && this.subscriptionOf(inv) === sub) inv.next_payment_attempt = null;
    }
    this.emit('customer.subscription.deleted', sub, clock);
  }

  subscription(id: string, param = 'id'): Stripe.Subscription {
    const s = this.subscriptions.get(id);
    if (!s) throw missing('subscription', id, param);
    return s;
  }

  /** `POST /v1/subscriptions/:id`: cancel at the period's end (or not), switch price with prorations, metadata, card. */
  updateSubscription(id: string, r: Reader): Stripe.Subscription {
    const sub = this.subscription(id);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      throw invalid(`A canceled subscription can only update its cancellation_details and metadata.`, undefined, 'subscription_canceled' as string);
    }
    const clock = this.clockOfSubscription(sub);
    const before = structuredClone(sub);
    const cancelAtPeriodEnd = r.boolean('cancel_at_period_end');
    const cancelAt = r.string('cancel_at');
    const prorationBehavior = r.oneOf('proration_behavior', ['create_prorations', 'always_invoice', 'none'] as const) ?? 'create_prorations';
    const items = r.hashes('items');
    const pm = r.string('default_payment_method');
    r.string('payment_behavior');
    sub.metadata = mergeMetadata(sub.metadata, r.metadata());
    const details = r.hash('cancellation_details');
    const comment = details?.string('comment');
    details?.done();
    r.done();
    if (comment !== undefined) sub.cancellation_details = { ...sub.cancellation_details!, comment: comment || null };
    if (pm !== undefined) {
      if (pm && this.paymentMethods.get(pm)?.customer !== sub.customer) throw missing('PaymentMethod', pm, 'default_payment_method');
      sub.default_payment_method = pm || null;
    }
    if ((cancelAtPeriodEnd !== undefined || cancelAt !== undefined) && sub.schedule) {
      throw invalid('The subscription is managed by the subscription schedule, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.', 'cancel_at_period_end');
    }
    if (cancelAtPeriodEnd !== undefined) this.setCancelAtPeriodEnd(sub, cancelAtPeriodEnd);
    if (cancelAt !== undefined) {
      if (cancelAt === '') this.setCancelAtPeriodEnd(sub, false);
      else throw invalid('The emulator cancels at the period end only (cancel_at_period_end); cancel_at takes "" to undo it.', 'cancel_at');
    }
    let invoiceNow: o.InvoiceLineInput[] = [];
    if (items && items.length > 0) {
      if (items.length > 1) throw invalid('The emulator keeps one item per subscription.', 'items');
      const item = items[0];
      const itemId = item.string('id');
      const item0 = sub.items.data[0];
      if (itemId !== undefined && itemId !== item0.id) throw invalid(`Subscription item ${itemId} does not belong to subscription ${sub.id}.`, 'items[0][id]');
      const priceId = item.string('price');
      const quantity = item.integer('quantity', { min: 1 });
      item.done();
      if (priceId) {
        const next = this.price(priceId, 'items[0][price]');
        if (!next.recurring) throw invalid('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', 'items[0][price]');
        if (next.currency !== sub.currency) throw invalid('All prices on a subscription must have the same currency.', 'items[0][price]');
        invoiceNow = this.switchPrice(sub, next, quantity ?? item0.quantity ?? 1, prorationBehavior);
      } else if (quantity !== undefined) {
        invoiceNow = this.switchPrice(sub, item0.price, quantity, prorationBehavior);
      }
    }
    this.emitUpdated('customer.subscription.updated', sub, before, clock);
    if (invoiceNow.length > 0) this.invoiceNow(sub, invoiceNow);
    return sub;
  }

  private setCancelAtPeriodEnd(sub: Stripe.Subscription, cancel: boolean): void {
    const now = this.clocks.now(this.clockOfSubscription(sub));
    sub.cancel_at_period_end = cancel;
    sub.cancel_at = cancel ? sub.items.data[0].current_period_end : null;
    sub.canceled_at = cancel ? now : null;
    sub.cancellation_details = { ...sub.cancellation_details!, reason: cancel ? 'cancellation_requested' : null };
  }

  /**
   * Moves the item to a new price now. Returns the proration lines to invoice at once
   * (`always_invoice`); `create_prorations` keeps them for the next invoice, `none` makes none.
   */
  private switchPrice(sub: Stripe.Subscription, next: Stripe.Price, quantity: number, behavior: 'create_prorations' | 'always_invoice' | 'none'): o.InvoiceLineInput[] {
    const item = sub.items.data[0];
    const now = this.clocks.now(this.clockOfSubscription(sub));
    const state = this.subState.get(sub.id)!;
    if (state.scheduled) this.releaseSchedule(sub, state, 'released');
    const span = item.current_period_end - item.current_period_start;
    const left = Math.max(0, item.current_period_end - now);
    const oldQty = item.quantity ?? 1;
    const lines: o.InvoiceLineInput[] = [
      {
        description: `Unused time on ${oldQty} × ${this.productName(item.price)} after ${formatDate(now)}`,
        amount: -Math.round(((item.price.unit_amount ?? 0) * oldQty * left) / span),
        quantity: oldQty,
        price: item.price,
        periodStart: now,
        periodEnd: item.current_period_end,
        proration: true,
        subscriptionItem: item.id,
      },
      {
        description: `Remaining time on ${quantity} × ${this.productName(next)} after ${formatDate(now)}`,
        amount: Math.round(((next.unit_amount ?? 0) * quantity * left) / span),
        quantity,
        price: next,
        periodStart: now,
        periodEnd: item.current_period_end,
        proration: true,
        subscriptionItem: item.id,
      },
    ];
    item.price = next;
    item.plan = o.planOf(next);
    item.quantity = quantity;
    if (behavior === 'none') return [];
    if (behavior === 'create_prorations') {
      state.pendingLines.push(...lines);
      return [];
    }
    return lines;
  }

  private invoiceNow(sub: Stripe.Subscription, lines: o.InvoiceLineInput[]): void {
    const now = this.clocks.now(this.clockOfSubscription(sub));
    const inv = this.newInvoice(sub, 'subscription_update', lines, now, now);
    this.finalize(inv);
    this.payInvoice(inv, true);
  }

  /** `DELETE /v1/subscriptions/:id`: ends it now. */
  cancelSubscription(id: string, r: Reader): Stripe.Subscription {
    const sub = this.subscription(id);
    r.boolean('invoice_now');
    r.boolean('prorate');
    const details = r.hash('cancellation_details');
    const comment = details?.string('comment');
    details?.string('feedback');
    details?.done();
    r.done();
    if (sub.status === 'canceled') throw invalid(`No such subscription: '${id}'`, 'id', 'resource_missing');
    if (comment) sub.cancellation_details = { ...sub.cancellation_details!, comment };
    this.cancelNow(sub, 'cancellation_requested');
    return sub;
  }

  /** A downgrade at the period's end, as the billing portal schedules it: a subscription schedule of two phases. */
  scheduleDowngrade(sub: Stripe.Subscription, next: Stripe.Price): void {
    const state = this.subState.get(sub.id)!;
    if (state.scheduled) this.releaseSchedule(sub, state, 'released');
    const item = sub.items.data[0];
    const clock = this.clockOfSubscription(sub);
    const nextEnd = addIntervals(item.current_period_end, next.recurring!.interval as Interval, next.recurring!.interval_count, 1);
    const schedule = o.subscriptionSchedule({
      id: o.newId('sub_sched'),
      subscription: sub,
      current: { price: item.price.id, start: item.current_period_start, end: item.current_period_end },
      next: { price: next.id, start: item.current_period_end, end: nextEnd },
      created: this.clocks.now(clock),
    });
    this.schedules.set(schedule.id, schedule);
    state.scheduled = { price: next.id, schedule: schedule.id };
    const before = structuredClone(sub);
    sub.schedule = schedule.id;
    this.emit('subscription_schedule.created', schedule, clock);
    this.emitUpdated('customer.subscription.updated', sub, before, clock);
  }

  private releaseSchedule(sub: Stripe.Subscription, state: SubscriptionState, how: 'released' | 'canceled' | 'completed'): void {
    const schedule = this.schedules.get(state.scheduled!.schedule)!;
    const clock = this.clockOfSubscription(sub);
    const now = this.clocks.now(clock);
    state.scheduled = undefined;
    sub.schedule = null;
    schedule.current_phase = null;
    if (how === 'canceled') {
      schedule.status = 'canceled';
      schedule.canceled_at = now;
      this.emit('subscription_schedule.canceled', schedule, clock);
    } else {
      schedule.status = 'released';
      schedule.released_at = now;
      schedule.released_subscription = sub.id;
      this.emit('subscription_schedule.released', schedule, clock);
    }
  }

  releaseScheduleById(id: string): Stripe.SubscriptionSchedule {
    const schedule = this.schedules.get(id);
    if (!schedule) throw missing('subscription_schedule', id);
    if (schedule.status !== 'active') throw invalid(`You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`);
    const sub = this.subscriptions.get(schedule.subscription as string)!;
    const before = structuredClone(sub);
    this.releaseSchedule(sub, this.subState.get(sub.id)!, 'released');
    this.emitUpdated('customer.subscription.updated', sub, before, this.clockOfSubscription(sub));
    return schedule;
  }

  /** `POST /v1/invoices/:id/pay`: one attempt now, with the subscription's or customer's card. */
  payInvoiceNow(id: string, r: Reader): Stripe.Invoice {
    const inv = this.invoices.get(id);
    if (!inv) throw missing('invoice', id);
    const pm = r.string('payment_method');
    r.boolean('off_session');
    r.done();
    if (inv.status === 'paid') throw invalid('Invoice is already paid', undefined, 'invoice_already_paid' as string);
    if (inv.status !== 'open') throw invalid(`You can only pay an invoice that is open. This invoice is ${inv.status}.`, undefined, 'invoice_not_editable');
    if (pm) {
      const sub = this.subscriptionOf(inv);
      if (this.paymentMethods.get(pm)?.customer !== sub.customer) throw missing('PaymentMethod', pm, 'payment_method');
      sub.default_payment_method = pm;
    }
    if (!this.payInvoice(inv, true)) {
      const pi = this.paymentIntents.get(this.invoicePaymentIntent.get(inv.id) ?? '');
      const err = pi?.last_payment_error;
      throw new StripeApiError(402, 'card_error', err?.message ?? 'This customer has no attached payment source or default payment method.', {
        code: err?.code ?? 'invoice_no_customer_line_items',
        ...(err?.decline_code && { decline_code: err.decline_code }),
        ...(err?.charge && { charge: err.charge }),
      });
    }
    return inv;
  }

  // --- due work: renewals, retries, cancellations at the period's end ---

  /** Carries out everything due on a clock up to `until`, in time order, each at its own time. */
  runDue(clock: string | null, until: number): void {
    for (let guard = 0; guard < 10_000; guard++) {
      const next = this.nextDue(clock);
      if (!next || next.at > until) break;
      this.clocks.pin(clock, next.at);
      try {
        next.run();
      } finally {
        this.clocks.unpin(clock);
      }
    }
    this.clocks.set(clock, until);
  }

  private nextDue(clock: string | null): { at: number; run: () => void } | undefined {
    let best: { at: number; run: () => void } | undefined;
    const consider = (at: number, run: () => void) => {
      if (!best || at < best.at) best = { at, run };
    };
    for (const sub of this.subscriptions.values()) {
      const state = this.subState.get(sub.id)!;
      if (state.clock !== clock || !['active', 'past_due', 'trialing'].includes(sub.status)) continue;
      consider(sub.items.data[0].current_period_end, () => this.periodEnd(sub));
    }
    for (const inv of this.invoices.values()) {
      if (inv.status !== 'open' || inv.next_payment_attempt === null) continue;
      const sub = this.subscriptionOf(inv);
      if (this.clockOfSubscription(sub) !== clock || sub.status === 'canceled') continue;
      consider(inv.next_payment_attempt, () => {
        inv.next_payment_attempt = null;
        this.payInvoice(inv, true);
      });
    }
    return best;
  }

  private periodEnd(sub: Stripe.Subscription): void {
    const clock = this.clockOfSubscription(sub);
    const state = this.subState.get(sub.id)!;
    const item = sub.items.data[0];
    if (sub.cancel_at !== null && sub.cancel_at <= item.current_period_end) {
      this.cancelNow(sub, 'cancellation_requested');
      return;
    }
    const before = structuredClone(sub);
    const previousStart = item.current_period_start;
    const previousEnd = item.current_period_end;
    if (state.scheduled) {
      const next = this.price(state.scheduled.price);
      this.releaseSchedule(sub, state, 'completed');
      item.price = next;
      item.plan = o.planOf(next);
    }
    state.periods += 1;
    const pr = item.price;
    item.current_period_start = previousEnd;
    item.current_period_end = addIntervals(sub.billing_cycle_anchor, pr.recurring!.interval as Interval, pr.recurring!.interval_count, state.periods + 1);
    this.emitUpdated('customer.subscription.updated', sub, before, clock);
    const lines = [...state.pendingLines, this.periodLine(item)];
    state.pendingLines = [];
    // A cycle invoice's own period is the one that just ended (its lines carry the new one), as on Stripe.
    const inv = this.newInvoice(sub, 'subscription_cycle', lines, previousStart, previousEnd);
    this.finalize(inv);
    this.payInvoice(inv, true);
  }

  // --- test clocks ---

  createTestClock(r: Reader): Stripe.TestHelpers.TestClock {
    const frozenTime = r.integer('frozen_time', { required: true, min: 0 })!;
    const name = r.string('name', { max: 300 }) ?? null;
    r.done();
    const clock = o.testClock({ id: o.newId('clock'), frozenTime, name, created: Math.floor(Date.now() / 1000) });
    this.testClocks.set(clock.id, clock);
    this.clocks.addTestClock(clock.id, frozenTime);
    this.emit('test_helpers.test_clock.created', clock, clock.id);
    return clock;
  }

  testClock(id: string): Stripe.TestHelpers.TestClock {
    const c = this.testClocks.get(id);
    if (!c) throw missing('test_helpers.test_clock', id, 'test_clock');
    return c;
  }

  /**
   * `POST /v1/test_helpers/test_clocks/:id/advance`: answers `advancing` at once, then carries
   * out what fell due (renewals, retries, cancellations) and turns `ready`, as Stripe does.
   */
  advanceTestClock(id: string, r: Reader): Stripe.TestHelpers.TestClock {
    const clock = this.testClock(id);
    const to = r.integer('frozen_time', { required: true })!;
    r.done();
    if (clock.status !== 'ready') throw invalid(`The test clock ${id} is currently advancing. Wait until its status is \`ready\` to advance it again.`, undefined, 'test_clock_not_ready' as string);
    if (to <= clock.frozen_time) throw invalid('The frozen_time must be later than the test clock\'s current frozen_time.', 'frozen_time');
    // Stripe's limit: two intervals of the clock's shortest subscription, or two years without one.
    const limits = [...this.subscriptions.values()]
      .filter((s) => this.subState.get(s.id)?.clock === id && !['canceled', 'incomplete_expired'].includes(s.status))
      .map((s) => addIntervals(clock.frozen_time, s.items.data[0].price.recurring!.interval as Interval, s.items.data[0].price.recurring!.interval_count, 2));
    const limit = Math.min(addIntervals(clock.frozen_time, 'year', 1, 2), ...limits);
    if (to > limit) {
      throw invalid(`Cannot advance the test clock more than two intervals of its shortest subscription (or two years) at once: frozen_time must be at most ${limit}.`, 'frozen_time');
    }
    clock.status = 'advancing';
    clock.status_details = { advancing: { target_frozen_time: to } };
    this.emit('test_helpers.test_clock.advancing', clock, id);
    const answer = structuredClone(clock);
    setImmediate(() => {
      if (!this.testClocks.has(id)) return;
      try {
        this.runDue(id, to);
      } catch (err) {
        this.options.log(`test clock ${id}: ${(err as Error).message}`);
      }
      clock.frozen_time = to;
      clock.status = 'ready';
      clock.status_details = {};
      this.emit('test_helpers.test_clock.ready', clock, id);
    });
    return answer;
  }

  deleteTestClock(id: string): Stripe.TestHelpers.DeletedTestClock {
    const clock = this.testClock(id);
    for (const [customer, c] of this.customerClock) {
      if (c === id) this.customers.delete(customer);
    }
    for (const [sub, state] of this.subState) {
      if (state.clock === id) this.subscriptions.delete(sub);
    }
    this.testClocks.delete(id);
    this.clocks.removeTestClock(id);
    this.emit('test_helpers.test_clock.deleted', clock, null);
    return { id, object: 'test_helpers.test_clock', deleted: true };
  }

  // --- refunds and disputes ---

  charge(id: string, param = 'charge'): Stripe.Charge {
    const ch = this.charges.get(id);
    if (!ch) throw missing('charge', id, param);
    return ch;
  }

  createRefund(r: Reader): Stripe.Refund {
    const chargeId = r.string('charge');
    const piId = r.string('payment_intent');
    if (!chargeId && !piId) throw invalid('One of the following params should be provided for this request: payment_intent or charge.', undefined, 'parameter_missing');
    if (chargeId && piId) throw invalid('You cannot pass both `charge` and `payment_intent`.', 'payment_intent');
    let ch: Stripe.Charge;
    if (piId) {
      const pi = this.paymentIntents.get(piId);
      if (!pi) throw missing('payment_intent', piId, 'payment_intent');
      if (pi.status !== 'succeeded' || !pi.latest_charge) {
        throw invalid(`This PaymentIntent (${piId}) does not have a successful charge to refund.`, 'payment_intent', 'charge_not_refundable' as string);
      }
      ch = this.charge(pi.latest_charge as string);
    } else ch = this.charge(chargeId!);
    const reason = r.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
    const metadata = r.metadata() ?? {};
    const left = ch.amount - ch.amount_refunded;
    const amount = r.integer('amount', { min: 1 }) ?? left;
    r.done();
    if (ch.status !== 'succeeded') throw invalid(`Charge ${ch.id} has not succeeded and cannot be refunded.`, 'charge', 'charge_not_refundable' as string);
    if (ch.disputed) throw invalid(`Charge ${ch.id} has been charged back; cannot issue a refund.`, undefined, 'charge_disputed');
    if (left === 0) throw invalid(`Charge ${ch.id} has already been refunded.`, undefined, 'charge_already_refunded');
    if (amount > left) {
      throw invalid(`Refund amount (${formatAmount(amount, ch.currency)}) is greater than unrefunded amount on charge (${formatAmount(left, ch.currency)})`, 'amount', 'amount_too_large');
    }
    const clock = this.clockOfCustomer(ch.customer as string | null);
    const re = o.refund({ id: o.newId('re'), amount, charge: ch, reason, metadata, created: this.clocks.now(clock) });
    this.refunds.set(re.id, re);
    const before = structuredClone(ch);
    ch.amount_refunded += amount;
    ch.refunded = ch.amount_refunded === ch.amount;
    ch.refunds = o.list(`/v1/charges/${ch.id}/refunds`, [re, ...(ch.refunds?.data ?? [])]);
    this.emit('refund.created', re, clock);
    const previous = { amount_refunded: before.amount_refunded, refunded: before.refunded, refunds: before.refunds };
    this.emit('charge.refunded', ch, clock, previous);
    return re;
  }

  /** Opens a dispute on a charge, as a cardholder's bank does (`charge.dispute.created`). */
  openDispute(chargeId: string, reason = 'fraudulent'): Stripe.Dispute {
    const ch = this.charge(chargeId);
    if (ch.status !== 'succeeded') throw invalid(`Charge ${ch.id} did not succeed; there is nothing to dispute.`, 'charge');
    if (ch.disputed) throw invalid(`Charge ${ch.id} is already disputed.`, 'charge');
    const clock = this.clockOfCustomer(ch.customer as string | null);
    const now = this.clocks.now(clock);
    const dp = o.dispute({ id: o.newId('du'), charge: ch, reason, created: now, dueBy: now + days(DISPUTE_RESPONSE_DAYS) });
    this.disputes.set(dp.id, dp);
    ch.disputed = true;
    this.emit('charge.dispute.created', dp, clock);
    this.emit('charge.dispute.funds_withdrawn', dp, clock);
    return dp;
  }

  dispute(id: string): Stripe.Dispute {
    const dp = this.disputes.get(id);
    if (!dp) throw missing('dispute', id, 'dispute');
    return dp;
  }

  /** `POST /v1/disputes/:id/close`: we accept the dispute; it is lost. */
  closeDispute(id: string): Stripe.Dispute {
    const dp = this.dispute(id);
    if (!['needs_response', 'warning_needs_response', 'under_review', 'warning_under_review'].includes(dp.status)) {
      throw invalid(`This dispute is already closed (${dp.status}).`, undefined, 'dispute_already_closed' as string);
    }
    this.settleDispute(dp, 'lost');
    return dp;
  }

  /**
   * `POST /v1/disputes/:id` with evidence: in test mode, `evidence[uncategorized_text]` of
   * `winning_evidence` wins the dispute and `losing_evidence` loses it, as on Stripe.
   */
  updateDispute(id: string, r: Reader): Stripe.Dispute {
    const dp = this.dispute(id);
    const evidence = r.hash('evidence');
    const text = evidence?.string('uncategorized_text', { max: 20_000 });
    evidence?.done();
    dp.metadata = mergeMetadata(dp.metadata, r.metadata());
    const submit = r.boolean('submit') ?? true;
    r.done();
    if (text !== undefined) {
      dp.evidence.uncategorized_text = text;
      dp.evidence_details.has_evidence = true;
    }
    const clock = this.clockOfCustomer(this.charge(dp.charge as string).customer as string | null);
    if (submit && dp.status === 'needs_response' && text !== undefined) {
      dp.evidence_details.submission_count += 1;
      dp.status = 'under_review';
      this.emit('charge.dispute.updated', dp, clock);
      if (text === 'winning_evidence') this.settleDispute(dp, 'won');
      else if (text === 'losing_evidence') this.settleDispute(dp, 'lost');
    } else this.emit('charge.dispute.updated', dp, clock);
    return dp;
  }

  private settleDispute(dp: Stripe.Dispute, outcome: 'won' | 'lost'): void {
    const clock = this.clockOfCustomer(this.charge(dp.charge as string).customer as string | null);
    dp.status = outcome;
    this.emit('charge.dispute.closed', dp, clock);
    if (outcome === 'won') this.emit('charge.dispute.funds_reinstated', dp, clock);
  }

  // --- the billing portal ---

  createPortalSession(r: Reader): Stripe.BillingPortal.Session {
    const customer = this.customer(r.required('customer'));
    const returnUrl = r.url('return_url') ?? null;
    r.string('configuration');
    r.string('locale');
    r.done();
    const id = o.newId('bps');
    const session = o.billingPortalSession({ id, customer: customer.id, returnUrl, url: this.url(`/p/session/${id}`), created: this.clocks.now(this.clockOfCustomer(customer.id)) });
    this.portalSessions.set(id, session);
    return session;
  }

  /** The customer's subscription the portal manages: the newest one not ended. */
  portalSubscription(customerId: string): Stripe.Subscription | undefined {
    return [...this.subscriptions.values()].reverse().find((s) => s.customer === customerId && !['canceled', 'incomplete_expired'].includes(s.status));
  }

  portalCancel(customerId: string, cancel: boolean): void {
    const sub = this.portalSubscription(customerId);
    if (!sub) return;
    const before = structuredClone(sub);
    // Cancelling drops a downgrade waiting for the period's end, as the portal does.
    const state = this.subState.get(sub.id)!;
    if (cancel && state.scheduled) this.releaseSchedule(sub, state, 'released');
    this.setCancelAtPeriodEnd(sub, cancel);
    this.emitUpdated('customer.subscription.updated', sub, before, this.clockOfSubscription(sub));
  }

  /** The portal's plan switch: an upgrade at once with proration, invoiced now; a downgrade at the period's end. */
  portalSwitch(customerId: string, priceId: string): string | undefined {
    const sub = this.portalSubscription(customerId);
    const next = this.prices.get(priceId);
    if (!sub || !next?.recurring || !next.active) return 'That plan is not available.';
    const item = sub.items.data[0];
    if (next.id === item.price.id) return undefined;
    if ((next.unit_amount ?? 0) > (item.price.unit_amount ?? 0)) {
      const before = structuredClone(sub);
      const lines = this.switchPrice(sub, next, item.quantity ?? 1, 'always_invoice');
      this.emitUpdated('customer.subscription.updated', sub, before, this.clockOfSubscription(sub));
      this.invoiceNow(sub, lines);
    } else this.scheduleDowngrade(sub, next);
    return undefined;
  }

  /** The portal's new card: the customer's default from now on; an open invoice is tried with it at once. */
  portalUpdateCard(customerId: string, form: { name?: string; number?: string; expiry?: string; cvc?: string }): { field: 'number' | 'expiry' | 'cvc' | 'name'; message: string } | undefined {
    const c = this.customer(customerId);
    const clock = this.clockOfCustomer(c.id);
    const name = (form.name ?? '').trim();
    if (!name) return { field: 'name', message: 'Enter the name on your card.' };
    const read = readCardForm(form, new Date(this.clocks.now(clock) * 1000));
    if ('decline' in read) return { field: read.field, message: read.decline.message };
    const pm = this.newPaymentMethod(read.card, read.expMonth, read.expYear, { name, email: c.email }, c.id);
    const before = structuredClone(c);
    c.invoice_settings.default_payment_method = pm.id;
    this.emitUpdated('customer.updated', c, before, clock);
    const sub = this.portalSubscription(c.id);
    if (sub) {
      const subBefore = structuredClone(sub);
      sub.default_payment_method = pm.id;
      this.emitUpdated('customer.subscription.updated', sub, subBefore, clock);
      for (const inv of [...this.invoices.values()]) {
        if (inv.status === 'open' && this.subscriptionOf(inv) === sub) this.payInvoice(inv, false);
      }
    }
    return undefined;
  }

  /** The customer's cards and invoices, newest first, for the portal page. */
  portalView(customerId: string): { customer: Stripe.Customer; subscription?: Stripe.Subscription; card?: Stripe.PaymentMethod; invoices: Stripe.Invoice[] } {
    const c = this.customer(customerId);
    const sub = this.portalSubscription(c.id);
    const pmId = (sub?.default_payment_method as string | null) ?? (c.invoice_settings.default_payment_method as string | null);
    return {
      customer: c,
      subscription: sub,
      card: pmId ? this.paymentMethods.get(pmId) : undefined,
      invoices: [...this.invoices.values()].filter((i) => i.customer === c.id).reverse(),
    };
  }

  invoicePaymentsOf(invoiceId: string): Stripe.InvoicePayment[] {
    return [...this.invoicePayments.values()].filter((p) => p.invoice === invoiceId);
  }

  /** The card a charge was made with (for a receipt). */
  cardOf(pmId: string | null): Stripe.PaymentMethod | undefined {
    return pmId ? this.paymentMethods.get(pmId) : undefined;
  }
}

/** `$35.00` (cents to text, for descriptions and messages). */
export function formatAmount(cents: number, currency: string): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const symbol = currency.toLowerCase() === 'usd' ? '$' : `${currency.toUpperCase()} `;
  return `${sign}${symbol}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** `27 Nov 2026` */
export function formatDate(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}
