// Refunds in the Stripe emulator: of a charge or a PaymentIntent's charge, whole or in part,
// never beyond what is left nor on a disputed charge.
import type Stripe from 'stripe';
import { type Api, found, newest, page } from './api';
import { formatAmount } from './format';
import { invalid, missing, type Reader } from './form';
import * as o from './objects';
import type { Store } from './store';

export class Refunds {
  constructor(private readonly s: Store) {}

  /** The charge a refund is asked for: `charge`, or the `payment_intent`'s successful one. */
  private chargeToRefund(r: Reader): Stripe.Charge {
    const chargeId = r.string('charge');
    const piId = r.string('payment_intent');
    if (!chargeId && !piId) throw invalid('One of the following params should be provided for this request: payment_intent or charge.', undefined, 'parameter_missing');
    if (chargeId && piId) throw invalid('You cannot pass both `charge` and `payment_intent`.', 'payment_intent');
    if (!piId) return this.s.charge(chargeId!);
    const pi = this.s.paymentIntents.get(piId);
    if (!pi) throw missing('payment_intent', piId, 'payment_intent');
    if (pi.status !== 'succeeded' || !pi.latest_charge) {
      throw invalid(`This PaymentIntent (${piId}) does not have a successful charge to refund.`, 'payment_intent', 'charge_not_refundable' as string);
    }
    return this.s.charge(pi.latest_charge as string);
  }

  createRefund(r: Reader): Stripe.Refund {
    const ch = this.chargeToRefund(r);
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
    const clock = this.s.clockOfCustomer(ch.customer as string | null);
    const re = o.refund({ id: o.newId('re'), amount, charge: ch, reason, metadata, created: this.s.clocks.now(clock) });
    this.s.refunds.set(re.id, re);
    const before = structuredClone(ch);
    ch.amount_refunded += amount;
    ch.refunded = ch.amount_refunded === ch.amount;
    ch.refunds = o.list(`/v1/charges/${ch.id}/refunds`, [re, ...(ch.refunds?.data ?? [])]);
    this.s.emit('refund.created', re, clock);
    const previous = { amount_refunded: before.amount_refunded, refunded: before.refunded, refunds: before.refunds };
    this.s.emit('charge.refunded', ch, clock, previous);
    return re;
  }

  routes(api: Api): void {
    api.on('POST', '/v1/refunds', (r) => this.createRefund(r));
    api.on('GET', '/v1/refunds', (r) => {
      const charge = r.string('charge');
      const pi = r.string('payment_intent');
      return page(newest(this.s.refunds.values()).filter((x) => (!charge || x.charge === charge) && (!pi || x.payment_intent === pi)), r, '/v1/refunds', 'refund');
    });
    api.on('GET', '/v1/refunds/:id', (_r, [id]) => found(this.s.refunds.get(id), 'refund', id));
  }
}
