// Checkout in the Stripe emulator: sessions in payment and subscription modes, their hosted page
// where a test card is typed, and what paying makes (a customer, a card, a PaymentIntent and its
// charge, or a subscription paid by its first invoice).
import type Stripe from 'stripe';
import { type Api, newest, page, refOf } from './api';
import { type Decline, declineOf, readCardForm } from './cards';
import { days } from './clock';
import { invalid, missing, type Reader } from './form';
import { formOf, type Pages, redirect, sendHtml } from './http';
import * as o from './objects';
import { type CardFormError, checkoutPage, messagePage } from './pages';
import type { Payments } from './payments';
import type { Store } from './store';
import type { Subscriptions } from './subscriptions';

interface SessionState {
  lines: Stripe.LineItem[];
  subscriptionMetadata: Stripe.Metadata;
  paymentIntentMetadata: Stripe.Metadata;
  clock: string | null;
}

export type CheckoutAnswer =
  | { ok: true; redirect: string | null }
  | { ok: false; field: 'number' | 'expiry' | 'cvc' | 'email' | 'name' | 'session'; message: string };

type CheckoutForm = { email?: string; name?: string; number?: string; expiry?: string; cvc?: string };

export class Checkout {
  private readonly sessionState = new Map<string, SessionState>();

  constructor(
    private readonly s: Store,
    private readonly payments: Payments,
    private readonly subscriptions: Subscriptions,
  ) {}

  createCheckoutSession(r: Reader): Stripe.Checkout.Session {
    const mode = r.oneOf('mode', ['payment', 'subscription', 'setup'] as const, { required: true })!;
    if (mode === 'setup') throw invalid('The emulator serves Checkout in payment and subscription modes only.', 'mode');
    r.oneOf('ui_mode', ['hosted_page'] as const);
    const customerId = r.string('customer');
    const customerEmail = r.string('customer_email', { max: 512 });
    if (customerId && customerEmail) throw invalid('You may only specify one of these parameters: customer, customer_email.', 'customer_email');
    if (customerId) this.s.customer(customerId);
    const types = r.strings('payment_method_types');
    if (types && types.some((t) => t !== 'card')) throw invalid('The emulator takes card payments only (payment_method_types: card).', 'payment_method_types');
    const lines = this.readLines(r, mode);
    const { subscriptionMetadata, paymentIntentMetadata } = this.readModeData(r, mode);
    const clock = this.s.clockOfCustomer(customerId ?? null);
    const now = this.s.clocks.now(clock);
    const expiresAt = r.integer('expires_at') ?? now + days(1);
    if (expiresAt < now + 30 * 60 || expiresAt > now + days(1)) {
      throw invalid('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', 'expires_at');
    }
    const id = `cs_test_${o.newId('a', 56).slice(2)}`;
    const session = o.checkoutSession({
      id,
      mode,
      url: this.s.url(`/c/pay/${id}`),
      amount: lines.reduce((sum, l) => sum + l.amount_total, 0),
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
    this.s.sessions.set(id, session);
    this.sessionState.set(id, { lines, subscriptionMetadata, paymentIntentMetadata, clock });
    return session;
  }

  /** `line_items`: active prices, one recurring price in subscription mode, one-time prices in payment mode, one currency. */
  private readLines(r: Reader, mode: 'payment' | 'subscription'): Stripe.LineItem[] {
    const items = r.hashes('line_items', { required: true })!;
    if (items.length === 0) throw invalid('Missing required param: line_items.', 'line_items', 'parameter_missing');
    if (items.length > 100) throw invalid('You may only specify up to 100 line items.', 'line_items');
    const lines = items.map((item, i) => {
      const pr = this.s.price(item.required('price'), `line_items[${i}][price]`);
      if (!pr.active) throw invalid(`The price specified is inactive. This field only accepts active prices.`, `line_items[${i}][price]`);
      const quantity = item.integer('quantity', { required: true, min: 1, max: 999_999 })!;
      item.done();
      return o.checkoutLineItem(pr, quantity, this.s.productName(pr));
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
    return lines;
  }

  /** `subscription_data` (subscription mode) and `payment_intent_data` (payment mode): their metadata. */
  private readModeData(r: Reader, mode: 'payment' | 'subscription'): { subscriptionMetadata: Stripe.Metadata; paymentIntentMetadata: Stripe.Metadata } {
    const subscriptionData = r.hash('subscription_data');
    const subscriptionMetadata = subscriptionData?.metadata() ?? {};
    subscriptionData?.done();
    if (subscriptionData && mode !== 'subscription') throw invalid('`subscription_data` can only be used in `subscription` mode.', 'subscription_data');
    const paymentIntentData = r.hash('payment_intent_data');
    const paymentIntentMetadata = paymentIntentData?.metadata() ?? {};
    paymentIntentData?.done();
    if (paymentIntentData && mode !== 'payment') throw invalid('`payment_intent_data` can only be used in `payment` mode.', 'payment_intent_data');
    return { subscriptionMetadata, paymentIntentMetadata };
  }

  session(id: string): Stripe.Checkout.Session {
    const s = this.s.sessions.get(id);
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
    this.s.emit('checkout.session.expired', s, this.sessionState.get(id)?.clock ?? null);
    return s;
  }

  /** Whether the session can still be paid (open and not past `expires_at`); an expired one is marked so. */
  private sessionOpen(s: Stripe.Checkout.Session): boolean {
    const clock = this.sessionState.get(s.id)?.clock ?? null;
    if (s.status === 'open' && this.s.clocks.now(clock) > s.expires_at) this.expireCheckoutSession(s.id);
    return s.status === 'open';
  }

  /** The hosted checkout page's form: pays the session with the typed card, as Stripe's page does. */
  payCheckout(id: string, form: CheckoutForm): CheckoutAnswer {
    const s = this.s.sessions.get(id);
    if (!s || !this.sessionOpen(s)) return { ok: false, field: 'session', message: 'This Checkout Session is no longer active.' };
    const state = this.sessionState.get(id)!;
    const customer = s.customer ? this.s.customers.get(typeof s.customer === 'string' ? s.customer : s.customer.id) : undefined;
    const email = (customer?.email ?? s.customer_email ?? form.email ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return { ok: false, field: 'email', message: email ? 'Your email address is invalid.' : 'Enter your email address.' };
    const name = (form.name ?? '').trim();
    if (!name) return { ok: false, field: 'name', message: 'Enter the name on your card.' };
    const read = readCardForm(form, new Date(this.s.clocks.now(state.clock) * 1000));
    if ('decline' in read) return { ok: false, field: read.field, message: read.decline.message };
    // The card is tried before anything is made, as the page confirms the payment first.
    const upfront = declineOf(read.card, false);
    if (upfront && s.mode === 'subscription') return { ok: false, field: 'number', message: upfront.message };

    let customerId = customer?.id ?? null;
    if (!customerId && s.mode === 'subscription') {
      const c = o.customer({ id: o.newId('cus', 14), email, name, metadata: {}, created: this.s.clocks.now(state.clock), testClock: null });
      this.s.customers.set(c.id, c);
      this.s.customerClock.set(c.id, null);
      this.s.emit('customer.created', c, state.clock);
      customerId = c.id;
    }
    const pm = this.payments.newPaymentMethod(read.card, read.expMonth, read.expYear, { name, email }, customerId);
    if (s.mode === 'payment') {
      const decline = this.payOnce(s, state, customerId, pm.id);
      if (decline) return { ok: false, field: 'number', message: decline.message };
    } else {
      const sub = this.subscriptions.subscribe(customerId!, state.lines[0], pm.id, state.subscriptionMetadata, state.clock);
      s.subscription = sub.id;
      s.invoice = typeof sub.latest_invoice === 'string' ? sub.latest_invoice : null;
    }
    s.customer = customerId;
    s.customer_details = { address: null, business_name: null, email, individual_name: null, name, phone: null, tax_exempt: 'none', tax_ids: [] };
    s.status = 'complete';
    s.payment_status = 'paid';
    s.url = null;
    this.s.emit('checkout.session.completed', s, state.clock);
    return { ok: true, redirect: s.success_url ? s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id) : null };
  }

  /** A payment-mode session's charge, through its PaymentIntent (the same one on a second try); the decline, if declined. */
  private payOnce(s: Stripe.Checkout.Session, state: SessionState, customerId: string | null, pmId: string): Decline | undefined {
    let pi = s.payment_intent ? this.s.paymentIntents.get(s.payment_intent as string) : undefined;
    pi ??= this.payments.newPaymentIntent({
      amount: s.amount_total ?? 0,
      currency: s.currency ?? 'usd',
      customer: customerId,
      description: state.lines.map((l) => `${l.quantity} x ${l.description}`).join(', '),
      metadata: state.paymentIntentMetadata,
      clock: state.clock,
    });
    s.payment_intent = pi.id;
    return this.payments.chargeCard(pi, pmId, false, state.clock).decline;
  }

  routes(api: Api): void {
    api.on('POST', '/v1/checkout/sessions', (r) => this.createCheckoutSession(r));
    api.on('GET', '/v1/checkout/sessions', (r) => {
      const customer = r.string('customer');
      const pi = r.string('payment_intent');
      const sub = r.string('subscription');
      const status = r.oneOf('status', ['open', 'complete', 'expired'] as const);
      return page(
        newest(this.s.sessions.values()).filter(
          (s) => (!customer || refOf(s.customer) === customer) && (!pi || refOf(s.payment_intent) === pi) && (!sub || refOf(s.subscription) === sub) && (!status || s.status === status),
        ),
        r,
        '/v1/checkout/sessions',
        'checkout.session',
      );
    });
    api.on('GET', '/v1/checkout/sessions/:id', (_r, [id]) => this.session(id));
    api.on('GET', '/v1/checkout/sessions/:id/line_items', (r, [id]) => page(this.sessionLines(this.session(id).id), r, `/v1/checkout/sessions/${id}/line_items`, 'line_item'));
    api.on('POST', '/v1/checkout/sessions/:id/expire', (_r, [id]) => this.expireCheckoutSession(id));
  }

  /** The hosted checkout page: GET shows it, POST pays with the typed card. */
  pages(pages: Pages): void {
    pages.on(/^\/c\/pay\/(cs_test_[A-Za-z0-9]+)$/, ['GET', 'POST'], async ({ req, res, match: [id], method }) => {
      const s = this.s.sessions.get(id);
      if (!s) return sendHtml(res, 404, messagePage('Page not found', 'This checkout link is not valid.'));
      const customer = s.customer ? this.s.customers.get(s.customer as string) : undefined;
      const lockedEmail = customer?.email ?? s.customer_email ?? null;
      const show = (status: number, error?: CardFormError, values?: Record<string, string>) =>
        sendHtml(res, status, checkoutPage({ session: s, lines: this.sessionLines(id), lockedEmail, error, values }));
      if (method === 'GET') {
        if (s.status === 'complete') {
          return sendHtml(res, 200, messagePage('Payment complete', 'This payment has been made. You can close this page.', s.success_url ? { href: s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id), text: 'Continue to Humanly' } : undefined));
        }
        if (s.status !== 'open' || this.s.clocks.now(this.s.clockOfCustomer(customer?.id ?? null)) > s.expires_at) {
          return sendHtml(res, 410, messagePage('Session expired', 'This Checkout Session is no longer active.', s.cancel_url ? { href: s.cancel_url, text: 'Return to Humanly' } : undefined));
        }
        return show(200);
      }
      const form = await formOf(req);
      const answer = this.payCheckout(id, form);
      if (answer.ok) {
        this.s.log(`${id}: paid`);
        return answer.redirect ? redirect(res, answer.redirect) : sendHtml(res, 200, messagePage('Payment complete', 'Thank you: your payment has been made.'));
      }
      const values = { email: form.email ?? '', name: form.name ?? '', number: form.number ?? '', expiry: form.expiry ?? '', cvc: '' };
      return show(answer.field === 'session' ? 410 : answer.message.startsWith('Your card was declined') || answer.message.includes('insufficient') ? 402 : 400, answer, values);
    });
  }
}
