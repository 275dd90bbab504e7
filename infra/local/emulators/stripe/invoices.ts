// Invoices in the Stripe emulator: a subscription's first, cycle and update invoices, finalized
// and paid with the subscription's (or customer's) card, retried on Stripe's schedule when the
// card fails; amounts under the minimum charge carried to the customer's balance; the hosted
// invoice page.
import type Stripe from 'stripe';
import { type Api, found, newest, page, refOf } from './api';
import { days } from './clock';
import { formatAmount } from './format';
import { invalid, missing, type Reader, StripeApiError } from './form';
import { type Pages, sendHtml } from './http';
import * as o from './objects';
import { documentPage, messagePage } from './pages';
import type { Payments } from './payments';
import type { Store } from './store';

/** The smallest charge Stripe makes in USD: an invoice due less is marked paid, its amount carried to the customer's balance. */
const MINIMUM_CHARGE_CENTS = 50;

export interface InvoicesOptions {
  /** Days after each failed attempt when a renewal's payment is tried again (Stripe's custom schedule). */
  retryScheduleDays: number[];
  /** What happens to the subscription once every retry failed (Stripe's setting: cancel it, or mark it unpaid). */
  afterFailedRetries: 'cancel' | 'unpaid';
  /** Ends a subscription now (the subscriptions' own way). */
  cancel: (sub: Stripe.Subscription, reason: 'payment_failed') => void;
}

export class Invoices {
  /** The PaymentIntent of each invoice that was tried with a card. */
  private readonly invoicePaymentIntent = new Map<string, string>();

  constructor(
    private readonly s: Store,
    private readonly payments: Payments,
    private readonly options: InvoicesOptions,
  ) {}

  periodLine(item: Stripe.SubscriptionItem): o.InvoiceLineInput {
    const qty = item.quantity ?? 1;
    return {
      description: `${qty} × ${this.s.productName(item.price)} (at ${formatAmount(item.price.unit_amount ?? 0, item.price.currency)} / ${item.price.recurring?.interval ?? 'month'})`,
      amount: (item.price.unit_amount ?? 0) * qty,
      quantity: qty,
      price: item.price,
      periodStart: item.current_period_start,
      periodEnd: item.current_period_end,
      proration: false,
      subscriptionItem: item.id,
    };
  }

  /** An invoice of the subscription, made, finalized and tried at once, as Stripe does for subscriptions charged automatically. */
  bill(sub: Stripe.Subscription, reason: Stripe.Invoice.BillingReason, lines: o.InvoiceLineInput[], period: { start: number; end: number }, offSession: boolean): Stripe.Invoice {
    const inv = this.newInvoice(sub, reason, lines, period.start, period.end);
    this.finalize(inv);
    this.payInvoice(inv, offSession);
    return inv;
  }

  private newInvoice(sub: Stripe.Subscription, reason: Stripe.Invoice.BillingReason, lines: o.InvoiceLineInput[], periodStart: number, periodEnd: number): Stripe.Invoice {
    const c = this.s.customer(sub.customer as string);
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
      created: this.s.clocks.now(this.s.clockOfSubscription(sub)),
      hostedUrl: this.s.url(`/invoices/${id}`),
    });
    if (c.balance > 0) {
      // What an earlier invoice did not collect (under the minimum charge) is owed on this one.
      inv.starting_balance = c.balance;
      inv.amount_due += c.balance;
      inv.amount_remaining = inv.amount_due;
      c.balance = 0;
      inv.ending_balance = 0;
    }
    this.s.invoices.set(id, inv);
    sub.latest_invoice = id;
    this.s.emit('invoice.created', inv, this.s.clockOfSubscription(sub));
    return inv;
  }

  private finalize(inv: Stripe.Invoice): void {
    const clock = this.s.clockOfSubscription(this.s.subscriptionOf(inv));
    inv.status = 'open';
    inv.status_transitions.finalized_at = this.s.clocks.now(clock);
    inv.effective_at = inv.status_transitions.finalized_at;
    this.s.emit('invoice.finalized', inv, clock);
  }

  /** One payment attempt of an open invoice with the subscription's (or customer's) card. */
  payInvoice(inv: Stripe.Invoice, offSession: boolean): boolean {
    const sub = this.s.subscriptionOf(inv);
    const clock = this.s.clockOfSubscription(sub);
    const c = this.s.customer(sub.customer as string);
    const now = this.s.clocks.now(clock);
    const before = structuredClone(sub);
    if (inv.amount_due === 0) {
      this.markPaid(inv, now, clock);
    } else if (inv.amount_due < MINIMUM_CHARGE_CENTS) {
      // Under Stripe's minimum charge: nothing is collected; the invoice is marked paid and its
      // amount moves to the customer's balance, which the next invoice collects.
      c.balance += inv.amount_due;
      inv.ending_balance = c.balance;
      this.markPaid(inv, now, clock, 0);
    } else if (!this.chargeInvoice(inv, sub, c, offSession, now)) {
      this.failed(inv, sub, before, now);
      return false;
    }
    if (['incomplete', 'past_due', 'unpaid'].includes(sub.status)) {
      sub.status = 'active';
      this.s.emitUpdated('customer.subscription.updated', sub, before, clock);
    }
    return true;
  }

  /** Charges the invoice's card (when there is one), marking the invoice paid on success. */
  private chargeInvoice(inv: Stripe.Invoice, sub: Stripe.Subscription, c: Stripe.Customer, offSession: boolean, now: number): boolean {
    const clock = this.s.clockOfSubscription(sub);
    const pmId = (sub.default_payment_method as string | null) ?? (c.invoice_settings.default_payment_method as string | null);
    inv.attempt_count += 1;
    inv.attempted = true;
    if (!pmId || !this.s.cards.has(pmId)) return false;
    let pi = this.s.paymentIntents.get(this.invoicePaymentIntent.get(inv.id) ?? '');
    if (!pi) {
      pi = this.payments.newPaymentIntent({
        amount: inv.amount_due,
        currency: inv.currency,
        customer: c.id,
        description: inv.billing_reason === 'subscription_create' ? 'Subscription creation' : inv.billing_reason === 'subscription_update' ? 'Subscription update' : 'Subscription cycle',
        metadata: {},
        clock,
      });
      this.invoicePaymentIntent.set(inv.id, pi.id);
    }
    const paid = !this.payments.chargeCard(pi, pmId, offSession, clock).decline;
    if (paid) {
      const payment = o.invoicePayment({ invoice: inv, paymentIntent: pi, paid: true, created: now });
      this.s.invoicePayments.set(payment.id, payment);
      this.markPaid(inv, now, clock);
    }
    return paid;
  }

  /** A failed attempt: the next retry on the schedule, the subscription past due, and after the last retry, Stripe's setting. */
  private failed(inv: Stripe.Invoice, sub: Stripe.Subscription, before: Stripe.Subscription, now: number): void {
    const clock = this.s.clockOfSubscription(sub);
    const retries = this.options.retryScheduleDays;
    const next = inv.attempt_count - 1 < retries.length ? now + days(retries[inv.attempt_count - 1]) : null;
    inv.next_payment_attempt = next;
    this.s.emit('invoice.payment_failed', inv, clock);
    if (sub.status === 'active' || sub.status === 'trialing') {
      sub.status = 'past_due';
      this.s.emitUpdated('customer.subscription.updated', sub, before, clock);
    }
    if (next === null) this.afterLastRetry(sub);
  }

  private markPaid(inv: Stripe.Invoice, now: number, clock: string | null, collected = inv.amount_due): void {
    inv.status = 'paid';
    inv.amount_paid = collected;
    inv.amount_remaining = 0;
    inv.next_payment_attempt = null;
    inv.status_transitions.paid_at = now;
    this.s.emit('invoice.paid', inv, clock);
    this.s.emit('invoice.payment_succeeded', inv, clock);
  }

  private afterLastRetry(sub: Stripe.Subscription): void {
    if (this.options.afterFailedRetries === 'unpaid') {
      const before = structuredClone(sub);
      sub.status = 'unpaid';
      this.s.emitUpdated('customer.subscription.updated', sub, before, this.s.clockOfSubscription(sub));
    } else this.options.cancel(sub, 'payment_failed');
  }

  /** `POST /v1/invoices/:id/pay`: one attempt now, with the subscription's or customer's card. */
  payInvoiceNow(id: string, r: Reader): Stripe.Invoice {
    const inv = this.s.invoices.get(id);
    if (!inv) throw missing('invoice', id);
    const pm = r.string('payment_method');
    r.boolean('off_session');
    r.done();
    if (inv.status === 'paid') throw invalid('Invoice is already paid', undefined, 'invoice_already_paid' as string);
    if (inv.status !== 'open') throw invalid(`You can only pay an invoice that is open. This invoice is ${inv.status}.`, undefined, 'invoice_not_editable');
    if (pm) {
      const sub = this.s.subscriptionOf(inv);
      if (this.s.paymentMethods.get(pm)?.customer !== sub.customer) throw missing('PaymentMethod', pm, 'payment_method');
      sub.default_payment_method = pm;
    }
    if (!this.payInvoice(inv, true)) {
      const pi = this.s.paymentIntents.get(this.invoicePaymentIntent.get(inv.id) ?? '');
      const err = pi?.last_payment_error;
      throw new StripeApiError(402, 'card_error', err?.message ?? 'This customer has no attached payment source or default payment method.', {
        code: err?.code ?? 'invoice_no_customer_line_items',
        ...(err?.decline_code && { decline_code: err.decline_code }),
        ...(err?.charge && { charge: err.charge }),
      });
    }
    return inv;
  }

  invoicePaymentsOf(invoiceId: string): Stripe.InvoicePayment[] {
    return [...this.s.invoicePayments.values()].filter((p) => p.invoice === invoiceId);
  }

  routes(api: Api): void {
    const s = this.s;
    api.on('GET', '/v1/invoices', (r) => {
      const customer = r.string('customer');
      const sub = r.string('subscription');
      const status = r.oneOf('status', ['draft', 'open', 'paid', 'uncollectible', 'void'] as const);
      return page(
        newest(s.invoices.values()).filter(
          (i) => (!customer || i.customer === customer) && (!sub || refOf(i.parent?.subscription_details?.subscription) === sub) && (!status || i.status === status),
        ),
        r,
        '/v1/invoices',
        'invoice',
      );
    });
    api.on('GET', '/v1/invoices/:id', (_r, [id]) => found(s.invoices.get(id), 'invoice', id));
    api.on('GET', '/v1/invoices/:id/lines', (r, [id]) => page(found(s.invoices.get(id), 'invoice', id).lines.data, r, `/v1/invoices/${id}/lines`, 'line_item'));
    api.on('POST', '/v1/invoices/:id/pay', (r, [id]) => this.payInvoiceNow(id, r));
    api.on('GET', '/v1/invoice_payments', (r) => {
      const invoice = r.string('invoice');
      const payment = r.hash('payment');
      const pi = payment?.string('payment_intent');
      payment?.oneOf('type', ['payment_intent'] as const);
      payment?.done();
      const status = r.oneOf('status', ['canceled', 'open', 'paid'] as const);
      return page(
        newest(s.invoicePayments.values()).filter((p) => (!invoice || p.invoice === invoice) && (!pi || p.payment.payment_intent === pi) && (!status || p.status === status)),
        r,
        '/v1/invoice_payments',
        'invoice_payment',
      );
    });
    api.on('GET', '/v1/invoice_payments/:id', (_r, [id]) => found(s.invoicePayments.get(id), 'invoice_payment', id));
  }

  /** An invoice's hosted page. */
  pages(pages: Pages): void {
    pages.on(/^\/invoices\/((?:ch|in)_[A-Za-z0-9]+)$/, ['GET'], ({ res, match: [id] }) => {
      const inv = this.s.invoices.get(id);
      if (!inv) return sendHtml(res, 404, messagePage('Page not found', 'No such invoice.'));
      return sendHtml(
        res,
        200,
        documentPage({
          title: 'Invoice',
          number: inv.number,
          date: inv.created,
          email: inv.customer_email,
          rows: inv.lines.data.map((l) => ({ text: l.description ?? '', amount: l.amount })),
          total: inv.total,
          currency: inv.currency,
          status: inv.status === 'paid' ? 'Paid' : inv.status === 'open' ? `Due: ${formatAmount(inv.amount_remaining, inv.currency)}` : String(inv.status),
        }),
      );
    });
  }
}
