// Payments in the Stripe emulator: cards (payment methods made from the test cards typed on a
// hosted page or named `pm_card_*`), PaymentIntents and the charges of each attempt, which
// succeed or fail as the test card says, and the receipt page of a charge.
import type Stripe from 'stripe';
import { type Api, found, newest, page } from './api';
import { cardDetails, declineOf, type Decline, type TestCard } from './cards';
import type { Disputes } from './disputes';
import { type Pages, sendHtml } from './http';
import * as o from './objects';
import { documentPage, messagePage } from './pages';
import type { Store } from './store';

export class Payments {
  constructor(
    private readonly s: Store,
    private readonly disputes: Disputes,
  ) {}

  newPaymentMethod(card: TestCard, expMonth: number, expYear: number, billing: { name: string | null; email: string | null }, customer: string | null): Stripe.PaymentMethod {
    const pm = o.paymentMethod({
      id: o.newId('pm'),
      card: cardDetails(card, expMonth, expYear),
      customer,
      name: billing.name,
      email: billing.email,
      created: this.s.clocks.now(this.s.clockOfCustomer(customer)),
    });
    this.s.paymentMethods.set(pm.id, pm);
    this.s.cards.set(pm.id, card);
    if (customer) this.s.emit('payment_method.attached', pm, this.s.clockOfCustomer(customer));
    return pm;
  }

  newPaymentIntent(p: { amount: number; currency: string; customer: string | null; description: string | null; metadata: Stripe.Metadata; clock: string | null }): Stripe.PaymentIntent {
    const pi = o.paymentIntent({ id: o.newId('pi'), amount: p.amount, currency: p.currency, customer: p.customer, description: p.description, metadata: p.metadata, created: this.s.clocks.now(p.clock) });
    this.s.paymentIntents.set(pi.id, pi);
    this.s.emit('payment_intent.created', pi, p.clock);
    return pi;
  }

  /**
   * One attempt to charge a card through a PaymentIntent (made on the first attempt): a charge
   * that succeeds or fails as the test card says, with Stripe's events.
   */
  chargeCard(pi: Stripe.PaymentIntent, pmId: string, offSession: boolean, clock: string | null): { charge: Stripe.Charge; decline?: Decline } {
    const pm = this.s.paymentMethods.get(pmId)!;
    const card = this.s.cards.get(pmId)!;
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
      created: this.s.clocks.now(clock),
      receiptUrl: this.s.url(`/receipts/${chargeId}`),
      failure: decline ? { code: decline.code, message: decline.message, declineCode: decline.declineCode } : null,
    });
    this.s.charges.set(ch.id, ch);
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
      this.s.emit('charge.failed', ch, clock);
      this.s.emit('payment_intent.payment_failed', pi, clock);
      return { charge: ch, decline };
    }
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.last_payment_error = null;
    this.s.emit('charge.succeeded', ch, clock);
    this.s.emit('payment_intent.succeeded', pi, clock);
    if (card.behaviour === 'disputed') this.disputes.openDispute(ch.id, 'fraudulent');
    return { charge: ch };
  }

  routes(api: Api): void {
    const s = this.s;
    api.on('GET', '/v1/payment_intents', (r) => {
      const customer = r.string('customer');
      return page(newest(s.paymentIntents.values()).filter((p) => !customer || p.customer === customer), r, '/v1/payment_intents', 'payment_intent');
    });
    api.on('GET', '/v1/payment_intents/:id', (_r, [id]) => found(s.paymentIntents.get(id), 'payment_intent', id));
    api.on('GET', '/v1/charges', (r) => {
      const customer = r.string('customer');
      const pi = r.string('payment_intent');
      return page(newest(s.charges.values()).filter((c) => (!customer || c.customer === customer) && (!pi || c.payment_intent === pi)), r, '/v1/charges', 'charge');
    });
    api.on('GET', '/v1/charges/:id', (_r, [id]) => s.charge(id, 'id'));
  }

  /** A charge's receipt. */
  pages(pages: Pages): void {
    pages.on(/^\/receipts\/((?:ch|in)_[A-Za-z0-9]+)$/, ['GET'], ({ res, match: [id] }) => {
      const ch = this.s.charges.get(id);
      if (!ch || ch.status !== 'succeeded') return sendHtml(res, 404, messagePage('Page not found', 'No such receipt.'));
      const card = ch.payment_method_details?.card;
      return sendHtml(
        res,
        200,
        documentPage({
          title: 'Receipt',
          number: null,
          date: ch.created,
          email: ch.receipt_email,
          rows: [{ text: ch.description ?? 'Payment', amount: ch.amount }, ...(ch.amount_refunded ? [{ text: 'Refunded', amount: -ch.amount_refunded }] : [])],
          total: ch.amount - ch.amount_refunded,
          currency: ch.currency,
          status: ch.refunded ? 'Refunded' : 'Paid',
          card: card ? `${(card.brand ?? 'card').toUpperCase()} ending in ${card.last4}` : undefined,
        }),
      );
    });
  }
}
