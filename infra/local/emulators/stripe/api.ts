// The Stripe emulator's REST routes: Stripe's paths under /v1, each read with its parameters
// (unknown ones refused, as Stripe does), lists with `limit`, `starting_after` and
// `ending_before`, and `expand[]` on any answer.
import type Stripe from 'stripe';
import type { Connect } from './connect';
import type { Engine } from './engine';
import { invalid, missing, type Reader } from './form';
import { list } from './objects';
import type { Webhooks } from './webhooks';

/** What a call carries besides its parameters: the connected account of its `Stripe-Account` header, if any. */
export interface CallContext {
  account: string | null;
}

type Handler = (r: Reader, m: string[], ctx: CallContext) => unknown;
interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: RegExp;
  handler: Handler;
  /** Served on a connected account too (with the `Stripe-Account` header). */
  connected: boolean;
}

/** Stripe refuses expansions deeper than four levels. */
const MAX_EXPAND_DEPTH = 4;

interface Listed {
  id: string;
  created?: number;
}

/** One page of a list, newest first, as Stripe pages: `limit` (1-100, default 10), `starting_after`, `ending_before`. */
function page<T extends Listed>(all: T[], r: Reader, url: string, kind: string): Stripe.ApiList<T> {
  const limit = r.integer('limit', { min: 1, max: 100 }) ?? 10;
  const after = r.string('starting_after');
  const before = r.string('ending_before');
  if (after && before) throw invalid('You may only specify one of these parameters: ending_before, starting_after.', 'ending_before');
  const created = createdFilter(r);
  const items = created ? all.filter((x) => created(x.created ?? 0)) : all;
  if (after) {
    const i = items.findIndex((x) => x.id === after);
    if (i < 0) throw missing(kind, after, 'starting_after');
    const data = items.slice(i + 1, i + 1 + limit);
    return list(url, data, i + 1 + limit < items.length);
  }
  if (before) {
    const i = items.findIndex((x) => x.id === before);
    if (i < 0) throw missing(kind, before, 'ending_before');
    const start = Math.max(0, i - limit);
    return list(url, items.slice(start, i), start > 0);
  }
  return list(url, items.slice(0, limit), items.length > limit);
}

/** `created=<t>` or `created[gt|gte|lt|lte]=<t>`. */
function createdFilter(r: Reader): ((t: number) => boolean) | undefined {
  if (!r.has('created')) return undefined;
  if (typeof r.params.created === 'string') {
    const t = r.integer('created')!;
    return (x) => x === t;
  }
  const h = r.hash('created')!;
  const [gt, gte, lt, lte] = [h.integer('gt'), h.integer('gte'), h.integer('lt'), h.integer('lte')];
  h.done();
  return (x) => (gt === undefined || x > gt) && (gte === undefined || x >= gte) && (lt === undefined || x < lt) && (lte === undefined || x <= lte);
}

/** Newest first (later insertion first when created at the same second). */
const newest = <T extends Listed>(items: Iterable<T>): T[] =>
  [...items].map((x, i) => ({ x, i })).sort((a, b) => (b.x.created ?? 0) - (a.x.created ?? 0) || b.i - a.i).map(({ x }) => x);

const refOf = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && 'id' in v ? String((v as { id: unknown }).id) : null);

export class Api {
  private readonly routes: Route[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly webhooks: Webhooks,
    private readonly connect: Connect,
  ) {
    this.define();
  }

  /** The answer to one call, expanded as asked; undefined when no route matches. */
  call(method: string, pathname: string, r: Reader, ctx: CallContext = { account: null }): { found: boolean; body?: unknown } {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.path.exec(pathname);
      if (!m) continue;
      if (ctx.account && !route.connected) {
        throw invalid(
          `The emulator serves the Stripe-Account header on GET /v1/balance, /v1/payouts and /v1/events only, not on ${method} ${pathname}.`,
          'Stripe-Account',
        );
      }
      const expand = r.strings('expand') ?? [];
      const body = route.handler(r, m.slice(1).map(decodeURIComponent), ctx);
      r.done();
      return { found: true, body: this.expand(body, expand) };
    }
    return { found: false };
  }

  /** Replaces ids by their objects along each `expand[]` path (`data.` first for a list), and adds includable fields (`line_items`, `payments`). */
  private expand(body: unknown, paths: string[]): unknown {
    if (paths.length === 0) return body;
    const out = structuredClone(body);
    for (const path of paths) {
      const parts = path.split('.');
      if (parts.length > MAX_EXPAND_DEPTH + ((out as { object?: string }).object === 'list' ? 1 : 0)) {
        throw invalid(`You cannot expand more than ${MAX_EXPAND_DEPTH} levels of a property. Property: ${path}`, 'expand');
      }
      this.expandAt(out, parts, path);
    }
    return out;
  }

  private expandAt(node: unknown, parts: string[], path: string): void {
    if (Array.isArray(node)) {
      for (const n of node) this.expandAt(n, parts, path);
      return;
    }
    if (!node || typeof node !== 'object' || parts.length === 0) return;
    const obj = node as Record<string, unknown>;
    const [head, ...rest] = parts;
    const value = obj[head];
    if (typeof value === 'string') {
      const found = this.engine.lookup(value) ?? this.connect.lookup(value) ?? (value.startsWith('we_') ? this.webhooks.endpoint(value) : undefined);
      if (!found) throw invalid(`This property cannot be expanded (${head}).`, 'expand');
      obj[head] = structuredClone(found);
    } else if (value === undefined) {
      const included = this.includable(obj, head);
      if (included === undefined) throw invalid(`This property cannot be expanded (${head}).`, 'expand');
      obj[head] = included;
    }
    if (rest.length) this.expandAt(obj[head], rest, path);
  }

  /** Fields Stripe leaves out unless expanded. */
  private includable(obj: Record<string, unknown>, field: string): unknown {
    if (obj.object === 'checkout.session' && field === 'line_items') {
      return list(`/v1/checkout/sessions/${obj.id}/line_items`, structuredClone(this.engine.sessionLines(String(obj.id))));
    }
    if (obj.object === 'invoice' && field === 'payments') {
      return list(`/v1/invoice_payments?invoice=${obj.id}`, structuredClone(this.engine.invoicePaymentsOf(String(obj.id))));
    }
    return undefined;
  }

  private on(method: Route['method'], path: string, handler: Handler, opts: { connected?: boolean } = {}): void {
    this.routes.push({ method, path: new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`), handler, connected: opts.connected ?? false });
  }

  private define(): void {
    const e = this.engine;
    const found = <T>(value: T | undefined, kind: string, id: string): T => {
      if (value === undefined) throw missing(kind, id);
      return value;
    };

    // Customers and payment methods.
    this.on('POST', '/v1/customers', (r) => e.createCustomer(r));
    this.on('GET', '/v1/customers', (r) => {
      const email = r.string('email');
      const testClock = r.string('test_clock');
      return page(newest(e.customers.values()).filter((c) => (!email || c.email === email) && (!testClock || c.test_clock === testClock)), r, '/v1/customers', 'customer');
    });
    this.on('GET', '/v1/customers/:id', (_r, [id]) => e.customer(id, 'id'));
    this.on('POST', '/v1/customers/:id', (r, [id]) => e.updateCustomer(id, r));
    this.on('DELETE', '/v1/customers/:id', (_r, [id]) => e.deleteCustomer(id));
    this.on('GET', '/v1/customers/:id/payment_methods', (r, [id]) => {
      e.customer(id, 'customer');
      r.oneOf('type', ['card'] as const);
      return page(newest(e.paymentMethods.values()).filter((p) => p.customer === id), r, `/v1/customers/${id}/payment_methods`, 'payment_method');
    });
    this.on('GET', '/v1/payment_methods', (r) => {
      const customer = r.string('customer');
      r.oneOf('type', ['card'] as const);
      return page(newest(e.paymentMethods.values()).filter((p) => !customer || p.customer === customer), r, '/v1/payment_methods', 'payment_method');
    });
    this.on('GET', '/v1/payment_methods/:id', (_r, [id]) => found(e.paymentMethods.get(id), 'PaymentMethod', id));
    this.on('POST', '/v1/payment_methods/:id/attach', (r, [id]) => e.attachPaymentMethod(id, r.required('customer')));
    this.on('POST', '/v1/payment_methods/:id/detach', (_r, [id]) => e.detachPaymentMethod(id));

    // The catalogue.
    this.on('POST', '/v1/products', (r) => e.createProduct(r));
    this.on('GET', '/v1/products', (r) => {
      const active = r.boolean('active');
      return page(newest(e.products.values()).filter((p) => active === undefined || p.active === active), r, '/v1/products', 'product');
    });
    this.on('GET', '/v1/products/:id', (_r, [id]) => found(e.products.get(id), 'product', id));
    this.on('POST', '/v1/prices', (r) => e.createPrice(r));
    this.on('GET', '/v1/prices', (r) => {
      const active = r.boolean('active');
      const product = r.string('product');
      const type = r.oneOf('type', ['one_time', 'recurring'] as const);
      const lookupKeys = r.strings('lookup_keys');
      return page(
        newest(e.prices.values()).filter(
          (p) =>
            (active === undefined || p.active === active) &&
            (!product || p.product === product) &&
            (!type || p.type === type) &&
            (!lookupKeys || (p.lookup_key !== null && lookupKeys.includes(p.lookup_key))),
        ),
        r,
        '/v1/prices',
        'price',
      );
    });
    this.on('GET', '/v1/prices/:id', (_r, [id]) => e.price(id, 'id'));

    // Checkout.
    this.on('POST', '/v1/checkout/sessions', (r) => e.createCheckoutSession(r));
    this.on('GET', '/v1/checkout/sessions', (r) => {
      const customer = r.string('customer');
      const pi = r.string('payment_intent');
      const sub = r.string('subscription');
      const status = r.oneOf('status', ['open', 'complete', 'expired'] as const);
      return page(
        newest(e.sessions.values()).filter(
          (s) => (!customer || refOf(s.customer) === customer) && (!pi || refOf(s.payment_intent) === pi) && (!sub || refOf(s.subscription) === sub) && (!status || s.status === status),
        ),
        r,
        '/v1/checkout/sessions',
        'checkout.session',
      );
    });
    this.on('GET', '/v1/checkout/sessions/:id', (_r, [id]) => e.session(id));
    this.on('GET', '/v1/checkout/sessions/:id/line_items', (r, [id]) => page(e.sessionLines(e.session(id).id), r, `/v1/checkout/sessions/${id}/line_items`, 'line_item'));
    this.on('POST', '/v1/checkout/sessions/:id/expire', (_r, [id]) => e.expireCheckoutSession(id));

    // Subscriptions and invoices.
    this.on('GET', '/v1/subscriptions', (r) => {
      const customer = r.string('customer');
      const price = r.string('price');
      const status = r.oneOf('status', ['active', 'all', 'canceled', 'ended', 'incomplete', 'incomplete_expired', 'past_due', 'paused', 'trialing', 'unpaid'] as const);
      const testClock = r.string('test_clock');
      const matches = (s: Stripe.Subscription) =>
        status === 'all' ||
        (status === 'ended' ? ['canceled', 'incomplete_expired'].includes(s.status) : status ? s.status === status : !['canceled', 'incomplete_expired'].includes(s.status));
      return page(
        newest(e.subscriptions.values()).filter(
          (s) => matches(s) && (!customer || s.customer === customer) && (!price || s.items.data[0].price.id === price) && (!testClock || s.test_clock === testClock),
        ),
        r,
        '/v1/subscriptions',
        'subscription',
      );
    });
    this.on('GET', '/v1/subscriptions/:id', (_r, [id]) => e.subscription(id));
    this.on('POST', '/v1/subscriptions/:id', (r, [id]) => e.updateSubscription(id, r));
    this.on('DELETE', '/v1/subscriptions/:id', (r, [id]) => e.cancelSubscription(id, r));
    this.on('GET', '/v1/subscription_schedules/:id', (_r, [id]) => found(e.schedules.get(id), 'subscription_schedule', id));
    this.on('POST', '/v1/subscription_schedules/:id/release', (r, [id]) => {
      r.boolean('preserve_cancel_date');
      return e.releaseScheduleById(id);
    });
    this.on('GET', '/v1/invoices', (r) => {
      const customer = r.string('customer');
      const sub = r.string('subscription');
      const status = r.oneOf('status', ['draft', 'open', 'paid', 'uncollectible', 'void'] as const);
      return page(
        newest(e.invoices.values()).filter(
          (i) => (!customer || i.customer === customer) && (!sub || refOf(i.parent?.subscription_details?.subscription) === sub) && (!status || i.status === status),
        ),
        r,
        '/v1/invoices',
        'invoice',
      );
    });
    this.on('GET', '/v1/invoices/:id', (_r, [id]) => found(e.invoices.get(id), 'invoice', id));
    this.on('GET', '/v1/invoices/:id/lines', (r, [id]) => page(found(e.invoices.get(id), 'invoice', id).lines.data, r, `/v1/invoices/${id}/lines`, 'line_item'));
    this.on('POST', '/v1/invoices/:id/pay', (r, [id]) => e.payInvoiceNow(id, r));
    this.on('GET', '/v1/invoice_payments', (r) => {
      const invoice = r.string('invoice');
      const payment = r.hash('payment');
      const pi = payment?.string('payment_intent');
      payment?.oneOf('type', ['payment_intent'] as const);
      payment?.done();
      const status = r.oneOf('status', ['canceled', 'open', 'paid'] as const);
      return page(
        newest(e.invoicePayments.values()).filter(
          (p) => (!invoice || p.invoice === invoice) && (!pi || p.payment.payment_intent === pi) && (!status || p.status === status),
        ),
        r,
        '/v1/invoice_payments',
        'invoice_payment',
      );
    });
    this.on('GET', '/v1/invoice_payments/:id', (_r, [id]) => found(e.invoicePayments.get(id), 'invoice_payment', id));

    // Payments, refunds and disputes.
    this.on('GET', '/v1/payment_intents', (r) => {
      const customer = r.string('customer');
      return page(newest(e.paymentIntents.values()).filter((p) => !customer || p.customer === customer), r, '/v1/payment_intents', 'payment_intent');
    });
    this.on('GET', '/v1/payment_intents/:id', (_r, [id]) => found(e.paymentIntents.get(id), 'payment_intent', id));
    this.on('GET', '/v1/charges', (r) => {
      const customer = r.string('customer');
      const pi = r.string('payment_intent');
      return page(newest(e.charges.values()).filter((c) => (!customer || c.customer === customer) && (!pi || c.payment_intent === pi)), r, '/v1/charges', 'charge');
    });
    this.on('GET', '/v1/charges/:id', (_r, [id]) => e.charge(id, 'id'));
    this.on('POST', '/v1/refunds', (r) => e.createRefund(r));
    this.on('GET', '/v1/refunds', (r) => {
      const charge = r.string('charge');
      const pi = r.string('payment_intent');
      return page(newest(e.refunds.values()).filter((x) => (!charge || x.charge === charge) && (!pi || x.payment_intent === pi)), r, '/v1/refunds', 'refund');
    });
    this.on('GET', '/v1/refunds/:id', (_r, [id]) => found(e.refunds.get(id), 'refund', id));
    this.on('GET', '/v1/disputes', (r) => {
      const charge = r.string('charge');
      const pi = r.string('payment_intent');
      return page(newest(e.disputes.values()).filter((x) => (!charge || x.charge === charge) && (!pi || x.payment_intent === pi)), r, '/v1/disputes', 'dispute');
    });
    this.on('GET', '/v1/disputes/:id', (_r, [id]) => e.dispute(id));
    this.on('POST', '/v1/disputes/:id', (r, [id]) => e.updateDispute(id, r));
    this.on('POST', '/v1/disputes/:id/close', (_r, [id]) => e.closeDispute(id));

    // The billing portal.
    this.on('POST', '/v1/billing_portal/sessions', (r) => e.createPortalSession(r));

    // Webhook endpoints and events.
    const w = this.webhooks;
    this.on('POST', '/v1/webhook_endpoints', (r) => {
      const url = r.url('url', { required: true })!;
      const enabled = r.strings('enabled_events');
      if (!enabled || enabled.length === 0) throw invalid('Missing required param: enabled_events.', 'enabled_events', 'parameter_missing');
      r.string('api_version');
      const endpoint = w.addEndpoint({
        url,
        enabledEvents: enabled,
        description: r.string('description') ?? null,
        metadata: r.metadata() ?? {},
        connect: r.boolean('connect') ?? false,
        created: Math.floor(Date.now() / 1000),
      });
      return endpoint;
    });
    this.on('GET', '/v1/webhook_endpoints', (r) => page(newest(w.allEndpoints()).map((x) => w.listed(x)), r, '/v1/webhook_endpoints', 'webhook_endpoint'));
    this.on('GET', '/v1/webhook_endpoints/:id', (_r, [id]) => w.listed(found(w.endpoint(id), 'webhook endpoint', id)));
    this.on('POST', '/v1/webhook_endpoints/:id', (r, [id]) => {
      found(w.endpoint(id), 'webhook endpoint', id);
      const enabled = r.strings('enabled_events');
      const updated = w.updateEndpoint(id, {
        url: r.url('url'),
        enabledEvents: enabled,
        disabled: r.boolean('disabled'),
        description: r.string('description'),
        metadata: r.metadata() ?? undefined,
      })!;
      return w.listed(updated);
    });
    this.on('DELETE', '/v1/webhook_endpoints/:id', (_r, [id]) => {
      found(w.endpoint(id), 'webhook endpoint', id);
      w.deleteEndpoint(id);
      return { id, object: 'webhook_endpoint', deleted: true };
    });
    // A connected account's events are listed with its Stripe-Account header; the platform's, without.
    this.on(
      'GET',
      '/v1/events',
      (r, _m, ctx) => {
        const type = r.string('type');
        const types = r.strings('types');
        if (type && types) throw invalid('You may only specify one of these parameters: type, types.', 'types');
        const matches = (t: string) => (!type || (type.endsWith('.*') ? t.startsWith(type.slice(0, -1)) : t === type)) && (!types || types.includes(t));
        const all = [...w.events].reverse().filter((ev) => (ev.account ?? null) === ctx.account && matches(ev.type));
        return page(all, r, '/v1/events', 'event');
      },
      { connected: true },
    );
    this.on('GET', '/v1/events/:id', (_r, [id], ctx) => found([w.event(id)].find((ev) => ev && (ev.account ?? null) === ctx.account), 'event', id), { connected: true });

    // Connect: connected accounts, account links, transfers, balances and payouts.
    const c = this.connect;
    this.on('POST', '/v1/accounts', (r) => c.createAccount(r));
    this.on('GET', '/v1/accounts', (r) => page(newest(c.accounts.values()), r, '/v1/accounts', 'account'));
    this.on('GET', '/v1/accounts/:id', (_r, [id]) => c.account(id, 'id'));
    this.on('POST', '/v1/accounts/:id', (r, [id]) => c.updateAccount(id, r));
    this.on('DELETE', '/v1/accounts/:id', (_r, [id]) => c.deleteAccount(id));
    this.on('GET', '/v1/accounts/:id/external_accounts', (r, [id]) => {
      r.oneOf('object', ['bank_account', 'card'] as const);
      return page(c.externalAccounts(id), r, `/v1/accounts/${id}/external_accounts`, 'external_account');
    });
    this.on('GET', '/v1/accounts/:id/external_accounts/:ba', (_r, [id, ba]) => found(c.externalAccounts(id).find((x) => x.id === ba), 'external_account', ba));
    this.on('POST', '/v1/account_links', (r) => c.createAccountLink(r));
    this.on('GET', '/v1/balance', (_r, _m, ctx) => (ctx.account ? c.connectedBalanceObject(ctx.account) : c.platformBalanceObject()), { connected: true });
    this.on('POST', '/v1/transfers', (r) => c.createTransfer(r));
    this.on('GET', '/v1/transfers', (r) => {
      const group = r.string('transfer_group');
      const destination = r.string('destination');
      return page(
        newest(c.transfers.values()).filter((t) => (!group || t.transfer_group === group) && (!destination || t.destination === destination)),
        r,
        '/v1/transfers',
        'transfer',
      );
    });
    this.on('GET', '/v1/transfers/:id', (_r, [id]) => c.transfer(id));
    this.on('POST', '/v1/transfers/:id', (r, [id]) => c.updateTransfer(id, r));
    this.on('POST', '/v1/transfers/:id/reversals', (r, [id]) => c.reverseTransfer(id, r));
    this.on('GET', '/v1/transfers/:id/reversals', (r, [id]) => page(c.transfer(id).reversals.data, r, `/v1/transfers/${id}/reversals`, 'transfer_reversal'));
    this.on(
      'GET',
      '/v1/payouts',
      (r, _m, ctx) => {
        const status = r.oneOf('status', ['pending', 'paid', 'failed', 'canceled', 'in_transit'] as const);
        const destination = r.string('destination');
        return page(
          newest(c.payoutsOf(ctx.account)).filter((p) => (!status || p.status === status) && (!destination || p.destination === destination)),
          r,
          '/v1/payouts',
          'payout',
        );
      },
      { connected: true },
    );
    this.on('GET', '/v1/payouts/:id', (_r, [id], ctx) => c.payoutOf(ctx.account ?? '', id), { connected: true });

    // Test clocks.
    this.on('POST', '/v1/test_helpers/test_clocks', (r) => e.createTestClock(r));
    this.on('GET', '/v1/test_helpers/test_clocks', (r) => page(newest(e.testClocks.values()), r, '/v1/test_helpers/test_clocks', 'test_helpers.test_clock'));
    this.on('GET', '/v1/test_helpers/test_clocks/:id', (_r, [id]) => e.testClock(id));
    this.on('DELETE', '/v1/test_helpers/test_clocks/:id', (_r, [id]) => e.deleteTestClock(id));
    this.on('POST', '/v1/test_helpers/test_clocks/:id/advance', (r, [id]) => e.advanceTestClock(id, r));
  }
}
