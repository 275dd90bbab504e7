// `POST /webhooks/stripe` (signed): verifies the delivery with the `stripe` package on the raw body
// and the endpoint's signing secret, then applies the event once (docs/payments.md#events).
import Stripe from 'stripe';
import { AppError, ValidationError } from '../../../shared/errors';
import { json, type HttpEvent, type HttpResult } from '../../../shared/http';
import { log } from '../../../shared/log';
import { applyCompletedCheckout, applyPaidInvoice, idOf, notifyPaymentFailed, syncSubscription, type ApplyDeps } from '../../apply';
import { applyChargeEvent, type ChargeEventDeps } from '../../refunds';

export interface ReceiveDeps extends ApplyDeps {
  /** The webhook endpoint's signing secret (`whsec_...`). */
  secret: () => Promise<string>;
  /** What refunds and disputes need (refunds.ts `chargeEventDeps`). */
  charges: ChargeEventDeps;
}

export const MISSING_SIGNATURE_MESSAGE = 'This request has no Stripe-Signature header: only Stripe may send events here.';
export const BAD_SIGNATURE_MESSAGE = 'The Stripe-Signature header does not match this body: the event was not applied.';

/** The body exactly as sent: the signature covers its bytes. */
function rawBodyOf(event: HttpEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

const headerOf = (event: HttpEvent, name: string) => Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];

/** Applies one verified event by its type; anything else is acknowledged and ignored. */
async function applyStripeEvent(deps: ReceiveDeps, event: Stripe.Event): Promise<'applied' | 'ignored'> {
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

/**
 * Verifies and applies one delivery. A missing or wrong signature answers 400 and reads or
 * changes nothing. An event applied before answers 200 at once; otherwise it is applied (every
 * step idempotent: ledger keys, payment records by payment intent, emails once) and then marked
 * applied. Any failure answers 500, so Stripe sends the event again.
 */
export async function receiveStripeEvent(deps: ReceiveDeps, request: HttpEvent): Promise<HttpResult> {
  const signature = headerOf(request, 'stripe-signature');
  if (!signature) throw new ValidationError(MISSING_SIGNATURE_MESSAGE);
  let event: Stripe.Event;
  try {
    event = await deps.stripe.webhooks.constructEventAsync(rawBodyOf(request), signature, await deps.secret());
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) throw new ValidationError(BAD_SIGNATURE_MESSAGE);
    throw err;
  }
  if (await deps.store.eventApplied(event.id)) return json(200, { received: true, replayed: true });
  let outcome: 'applied' | 'ignored';
  try {
    outcome = await applyStripeEvent(deps, event);
  } catch (err) {
    // A refusal of ours (a ledger key, a missing balance) is still our failure: Stripe must retry.
    if (err instanceof AppError) throw new Error(`${event.type} ${event.id} was not applied: ${err.message}`, { cause: err });
    throw err;
  }
  await deps.store.markEventApplied(event.id, event.type);
  log.info('stripe event', { id: event.id, type: event.type, outcome, object: idOf((event.data.object as { id?: string }).id) });
  return json(200, { received: true });
}
