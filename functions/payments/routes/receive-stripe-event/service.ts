// `POST /webhooks/stripe` (signed): verifies the delivery with the `stripe` package on the raw body
// and the endpoint's signing secret, then applies the event once (docs/payments.md#events).
import type Stripe from 'stripe';
import type { HttpEvent, HttpResult } from '../../../shared/http';
import { receiveStripeDelivery } from '../../../shared/stripe-events';
import { applyCompletedCheckout, applyPaidInvoice, notifyPaymentFailed, syncSubscription, type ApplyDeps } from '../../apply';
import { applyChargeEvent, type ChargeEventDeps } from '../../refunds';

export interface ReceiveDeps extends ApplyDeps {
  /** The webhook endpoint's signing secret (`whsec_...`). */
  secret: () => Promise<string>;
  /** What refunds and disputes need (refunds.ts `chargeEventDeps`). */
  charges: ChargeEventDeps;
}

/** Applies one verified event by its type; anything else is acknowledged and ignored. */
async function applyStripeEvent(receive: ReceiveDeps, event: Stripe.Event): Promise<'applied' | 'ignored'> {
  // The event itself goes along: one about an erased client is recorded by its id.
  const deps: ReceiveDeps = { ...receive, event: { id: event.id, type: event.type } };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      await applyCompletedCheckout(deps, event.data.object.id);
      return 'applied';
    case 'invoice.paid':
      await applyPaidInvoice(deps, event.data.object.id!);
      return 'applied';
    case 'invoice.payment_failed':
      await notifyPaymentFailed(deps, event.data.object);
      return 'applied';
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      await syncSubscription(deps, event.data.object.id);
      return 'applied';
    case 'charge.refunded':
    case 'charge.dispute.created':
    case 'charge.dispute.closed':
    case 'charge.dispute.funds_withdrawn':
      await applyChargeEvent(deps.charges, event);
      return 'applied';
    default:
      return 'ignored';
  }
}

/** Verifies and applies one delivery (functions/shared/stripe-events.ts). */
export const receiveStripeEvent = (deps: ReceiveDeps, request: HttpEvent): Promise<HttpResult> =>
  receiveStripeDelivery({ ...deps, name: 'stripe-event', label: 'stripe event', apply: (event) => applyStripeEvent(deps, event) }, request);
