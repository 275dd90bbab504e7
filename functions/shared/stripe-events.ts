// Stripe's webhook deliveries, as both of our endpoints take them (docs/payments.md#events,
// docs/payouts.md): verified with the `stripe` package on the raw body, answered at once when the
// event was applied before, else applied and then marked. Only the functions that bundle the
// `stripe` package import this module.
import Stripe from 'stripe';
import { AppError, ValidationError } from './errors';
import { json, type HttpEvent, type HttpResult } from './http';
import { log } from './log';
import { retryRaces } from './retry';

export const MISSING_SIGNATURE_MESSAGE = 'This request has no Stripe-Signature header: only Stripe may send events here.';
export const BAD_SIGNATURE_MESSAGE = 'The Stripe-Signature header does not match this body: the event was not applied.';

/** The body exactly as sent: the signature covers its bytes. */
const rawBodyOf = (event: HttpEvent): Buffer =>
  !event.body ? Buffer.alloc(0) : event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
const headerOf = (event: HttpEvent, name: string) => Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];

export interface StripeDelivery {
  stripe: Stripe;
  /** The endpoint's signing secret (`whsec_...`). */
  secret: () => Promise<string>;
  eventApplied: (eventId: string) => Promise<boolean>;
  markApplied: (event: Stripe.Event) => Promise<void>;
  /** Applies the event by its type: every step idempotent, since a failure makes Stripe send it again. */
  apply: (event: Stripe.Event) => Promise<'applied' | 'ignored'>;
  /** Names the endpoint in the log line. */
  label: string;
}

/**
 * Verifies and applies one delivery. A missing or wrong signature answers 400 and reads or
 * changes nothing. An event applied before answers 200 at once; otherwise it is applied and then
 * marked applied. A lost race with another delivery (a conditional write, an idempotency record
 * in progress) is retried inside the delivery, bounded and with jitter (functions/shared/retry.ts);
 * any other failure, a refusal of ours included, answers 500 so Stripe sends it again.
 */
export async function receiveStripeDelivery(deps: StripeDelivery, request: HttpEvent): Promise<HttpResult> {
  const signature = headerOf(request, 'stripe-signature');
  if (!signature) throw new ValidationError(MISSING_SIGNATURE_MESSAGE);
  let event: Stripe.Event;
  try {
    event = await deps.stripe.webhooks.constructEventAsync(rawBodyOf(request), signature, await deps.secret());
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) throw new ValidationError(BAD_SIGNATURE_MESSAGE);
    throw err;
  }
  if (await deps.eventApplied(event.id)) return json(200, { received: true, replayed: true });
  let outcome: 'applied' | 'ignored';
  try {
    // The events of one payment arrive together and write the same items: a lost race is tried
    // again at once, reading Stripe and our state afresh, instead of waiting for Stripe's retry.
    outcome = await retryRaces(() => deps.apply(event), {
      onRetry: (err, attempt) => log.info(`${deps.label} retried after a lost race`, { id: event.id, type: event.type, attempt, error: (err as Error)?.name }),
    });
  } catch (err) {
    // A refusal of ours (a ledger key, a missing balance) is still our failure: Stripe must retry.
    if (err instanceof AppError) throw new Error(`${event.type} ${event.id} was not applied: ${err.message}`, { cause: err });
    throw err;
  }
  await deps.markApplied(event);
  log.info(deps.label, { id: event.id, type: event.type, outcome, object: (event.data.object as { id?: string }).id, ...(event.account ? { account: event.account } : {}) });
  return json(200, { received: true });
}
