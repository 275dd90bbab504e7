// Subscriptions in the Stripe emulator: made by Checkout and paid by their first invoice, one
// item each; cancelled at the period's end or now, switched to another price with prorations
// (invoiced now, with the next invoice, or not at all). Renewals are renewals.ts.
import type Stripe from 'stripe';
import { type Api, newest, page } from './api';
import { addIntervals, type Interval } from './clock';
import { formatDate } from './format';
import { invalid, mergeMetadata, missing, type Reader } from './form';
import type { Invoices } from './invoices';
import * as o from './objects';
import type { Schedules } from './schedules';
import type { Store } from './store';

type ProrationBehavior = 'create_prorations' | 'always_invoice' | 'none';

export class Subscriptions {
  constructor(
    private readonly s: Store,
    private readonly invoices: Invoices,
    private readonly schedules: Schedules,
  ) {}

  /** A subscription paid by its first invoice (Checkout in subscription mode). */
  subscribe(customerId: string, line: Stripe.LineItem, pmId: string, metadata: Stripe.Metadata, clock: string | null): Stripe.Subscription {
    const pr = line.price!;
    const start = this.s.clocks.now(clock);
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
    this.s.subscriptions.set(sub.id, sub);
    this.s.subState.set(sub.id, { clock, periods: 0, pendingLines: [] });
    this.s.emit('customer.subscription.created', sub, clock);
    this.invoices.bill(sub, 'subscription_create', [this.invoices.periodLine(item)], { start, end: start }, false);
    return sub;
  }

  /** `POST /v1/subscriptions/:id`: cancel at the period's end (or not), switch price with prorations, metadata, card. */
  updateSubscription(id: string, r: Reader): Stripe.Subscription {
    const sub = this.s.subscription(id);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      throw invalid(`A canceled subscription can only update its cancellation_details and metadata.`, undefined, 'subscription_canceled' as string);
    }
    const clock = this.s.clockOfSubscription(sub);
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
      if (pm && this.s.paymentMethods.get(pm)?.customer !== sub.customer) throw missing('PaymentMethod', pm, 'default_payment_method');
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
    const invoiceNow = items && items.length > 0 ? this.updateItem(sub, items, prorationBehavior) : [];
    this.s.emitUpdated('customer.subscription.updated', sub, before, clock);
    if (invoiceNow.length > 0) this.invoiceNow(sub, invoiceNow);
    return sub;
  }

  /** `items` of an update: the one item's new price or quantity; returns the proration lines to invoice now. */
  private updateItem(sub: Stripe.Subscription, items: Reader[], prorationBehavior: ProrationBehavior): o.InvoiceLineInput[] {
    if (items.length > 1) throw invalid('The emulator keeps one item per subscription.', 'items');
    const item = items[0];
    const itemId = item.string('id');
    const item0 = sub.items.data[0];
    if (itemId !== undefined && itemId !== item0.id) throw invalid(`Subscription item ${itemId} does not belong to subscription ${sub.id}.`, 'items[0][id]');
    const priceId = item.string('price');
    const quantity = item.integer('quantity', { min: 1 });
    item.done();
    if (priceId) {
      const next = this.s.price(priceId, 'items[0][price]');
      if (!next.recurring) throw invalid('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', 'items[0][price]');
      if (next.currency !== sub.currency) throw invalid('All prices on a subscription must have the same currency.', 'items[0][price]');
      return this.switchPrice(sub, next, quantity ?? item0.quantity ?? 1, prorationBehavior);
    }
    if (quantity !== undefined) return this.switchPrice(sub, item0.price, quantity, prorationBehavior);
    return [];
  }

  setCancelAtPeriodEnd(sub: Stripe.Subscription, cancel: boolean): void {
    const now = this.s.clocks.now(this.s.clockOfSubscription(sub));
    sub.cancel_at_period_end = cancel;
    sub.cancel_at = cancel ? sub.items.data[0].current_period_end : null;
    sub.canceled_at = cancel ? now : null;
    sub.cancellation_details = { ...sub.cancellation_details!, reason: cancel ? 'cancellation_requested' : null };
  }

  /**
   * Moves the item to a new price now. Returns the proration lines to invoice at once
   * (`always_invoice`); `create_prorations` keeps them for the next invoice, `none` makes none.
   */
  switchPrice(sub: Stripe.Subscription, next: Stripe.Price, quantity: number, behavior: ProrationBehavior): o.InvoiceLineInput[] {
    const item = sub.items.data[0];
    const now = this.s.clocks.now(this.s.clockOfSubscription(sub));
    const state = this.s.subState.get(sub.id)!;
    if (state.scheduled) this.schedules.releaseSchedule(sub, state, 'released');
    const span = item.current_period_end - item.current_period_start;
    const left = Math.max(0, item.current_period_end - now);
    const oldQty = item.quantity ?? 1;
    const proration = (description: string, amount: number, qty: number, price: Stripe.Price): o.InvoiceLineInput => ({
      description,
      amount,
      quantity: qty,
      price,
      periodStart: now,
      periodEnd: item.current_period_end,
      proration: true,
      subscriptionItem: item.id,
    });
    const lines = [
      proration(`Unused time on ${oldQty} × ${this.s.productName(item.price)} after ${formatDate(now)}`, -Math.round(((item.price.unit_amount ?? 0) * oldQty * left) / span), oldQty, item.price),
      proration(`Remaining time on ${quantity} × ${this.s.productName(next)} after ${formatDate(now)}`, Math.round(((next.unit_amount ?? 0) * quantity * left) / span), quantity, next),
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

  invoiceNow(sub: Stripe.Subscription, lines: o.InvoiceLineInput[]): void {
    const now = this.s.clocks.now(this.s.clockOfSubscription(sub));
    this.invoices.bill(sub, 'subscription_update', lines, { start: now, end: now }, true);
  }

  /** `DELETE /v1/subscriptions/:id`: ends it now. */
  cancelSubscription(id: string, r: Reader): Stripe.Subscription {
    const sub = this.s.subscription(id);
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

  cancelNow(sub: Stripe.Subscription, reason: 'cancellation_requested' | 'payment_failed' | 'payment_disputed'): void {
    const clock = this.s.clockOfSubscription(sub);
    const now = this.s.clocks.now(clock);
    sub.status = 'canceled';
    sub.canceled_at ??= now;
    sub.ended_at = now;
    sub.cancellation_details = { ...sub.cancellation_details!, reason };
    const state = this.s.subState.get(sub.id);
    if (state?.scheduled) this.schedules.releaseSchedule(sub, state, 'canceled');
    for (const inv of this.s.invoices.values()) {
      if (inv.status === 'open' && this.s.subscriptionOf(inv) === sub) inv.next_payment_attempt = null;
    }
    this.s.emit('customer.subscription.deleted', sub, clock);
  }

  routes(api: Api): void {
    api.on('GET', '/v1/subscriptions', (r) => {
      const customer = r.string('customer');
      const price = r.string('price');
      const status = r.oneOf('status', ['active', 'all', 'canceled', 'ended', 'incomplete', 'incomplete_expired', 'past_due', 'paused', 'trialing', 'unpaid'] as const);
      const testClock = r.string('test_clock');
      const matches = (s: Stripe.Subscription) =>
        status === 'all' ||
        (status === 'ended' ? ['canceled', 'incomplete_expired'].includes(s.status) : status ? s.status === status : !['canceled', 'incomplete_expired'].includes(s.status));
      return page(
        newest(this.s.subscriptions.values()).filter(
          (s) => matches(s) && (!customer || s.customer === customer) && (!price || s.items.data[0].price.id === price) && (!testClock || s.test_clock === testClock),
        ),
        r,
        '/v1/subscriptions',
        'subscription',
      );
    });
    api.on('GET', '/v1/subscriptions/:id', (_r, [id]) => this.s.subscription(id));
    api.on('POST', '/v1/subscriptions/:id', (r, [id]) => this.updateSubscription(id, r));
    api.on('DELETE', '/v1/subscriptions/:id', (r, [id]) => this.cancelSubscription(id, r));
  }
}
