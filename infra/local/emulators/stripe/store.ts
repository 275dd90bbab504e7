// What the Stripe emulator holds: every object in Stripe's own shape (objects.ts), by id, changed
// in place by the resource that owns it (customers.ts, checkout.ts, subscriptions.ts, ...), and
// the plumbing they share: the clocks, events with the request they come from, the hosted pages'
// URLs. Events and answers carry copies.
import type Stripe from 'stripe';
import type { TestCard } from './cards';
import { Clocks } from './clock';
import { missing } from './form';
import type { InvoiceLineInput } from './objects';
import type { Webhooks } from './webhooks';

export interface StoreOptions {
  /** The emulator's address, for the hosted pages' URLs. */
  endpoint: () => string;
  webhooks: Webhooks;
  log: (line: string) => void;
}

/** The request an event comes from (`event.request`), set by the server while a call runs. */
interface RequestContext {
  id: string;
  idempotencyKey: string | null;
}

export interface SubscriptionState {
  clock: string | null;
  /** Periods since the billing cycle anchor (the current period is number `periods`). */
  periods: number;
  /** Proration lines waiting for the next invoice (`proration_behavior=create_prorations`). */
  pendingLines: InvoiceLineInput[];
  /** A downgrade at the period's end (the billing portal's), through a subscription schedule. */
  scheduled?: { price: string; schedule: string };
}

type Identified = { id: string; object: string };

/** The top-level fields of `before` that differ in `now` (an `*.updated` event's `previous_attributes`); undefined when none does. */
export function changedFields(before: object, now: object): Record<string, unknown> | undefined {
  const previous: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(before)) {
    if (JSON.stringify(v) !== JSON.stringify((now as Record<string, unknown>)[k])) previous[k] = v;
  }
  return Object.keys(previous).length > 0 ? previous : undefined;
}

export class Store {
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

  /** The test card behind each payment method the emulator made. */
  readonly cards = new Map<string, TestCard>();
  readonly subState = new Map<string, SubscriptionState>();
  /** The test clock each customer follows (null: the emulator's own clock). */
  readonly customerClock = new Map<string, string | null>();
  /** Set by the server for the length of one API call (every resource call is synchronous). */
  request: RequestContext | null = null;

  constructor(private readonly options: StoreOptions) {}

  get log(): (line: string) => void {
    return this.options.log;
  }

  /** An event on the platform, created at the time of `clock`. */
  emit(type: Stripe.Event.Type, object: Identified, clock: string | null, previous?: Record<string, unknown>): void {
    this.options.webhooks.emit(type, object, { created: this.clocks.now(clock), previous, request: this.requestOfEvent() });
  }

  /** An event on a connected account (`account` set: Connect endpoints) or, Connect's, on the platform (`account` undefined). */
  emitConnected(type: Stripe.Event.Type, object: Identified, account: string | undefined, previous?: Record<string, unknown>): void {
    this.options.webhooks.emit(type, object, { created: this.clocks.now(null), previous, account, request: this.requestOfEvent() });
  }

  /** `customer.updated` and the like, with Stripe's `previous_attributes`: the top-level fields that changed. */
  emitUpdated(type: Stripe.Event.Type, now: Identified, before: object, clock: string | null): void {
    const previous = changedFields(before, now);
    if (previous) this.emit(type, now, clock, previous);
  }

  private requestOfEvent(): { id: string | null; idempotencyKey: string | null } {
    return this.request ? { id: this.request.id, idempotencyKey: this.request.idempotencyKey } : { id: null, idempotencyKey: null };
  }

  url(path: string): string {
    return `${this.options.endpoint()}${path}`;
  }

  clockOfCustomer(customerId: string | null): string | null {
    return customerId ? (this.customerClock.get(customerId) ?? null) : null;
  }

  clockOfSubscription(sub: Stripe.Subscription): string | null {
    return this.subState.get(sub.id)?.clock ?? null;
  }

  /** Any object by its id, for expansion (`expand[]=customer`). */
  lookup(id: string): Identified | undefined {
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
    ] as Array<Map<string, Identified>>) {
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

  charge(id: string, param = 'charge'): Stripe.Charge {
    const ch = this.charges.get(id);
    if (!ch) throw missing('charge', id, param);
    return ch;
  }

  subscription(id: string, param = 'id'): Stripe.Subscription {
    const s = this.subscriptions.get(id);
    if (!s) throw missing('subscription', id, param);
    return s;
  }

  productName(p: Stripe.Price): string {
    return this.products.get(typeof p.product === 'string' ? p.product : p.product.id)?.name ?? 'Product';
  }

  /** The subscription an invoice bills. */
  subscriptionOf(inv: Stripe.Invoice): Stripe.Subscription {
    const ref = inv.parent!.subscription_details!.subscription;
    return this.subscriptions.get(typeof ref === 'string' ? ref : ref.id)!;
  }
}
