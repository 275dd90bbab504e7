// Stripe's webhook deliveries, as both of our endpoints take them (docs/payments.md#events,
// docs/payouts.md): verified with the `stripe` package on the raw body, then applied once by the
// event's id through the idempotency utility (decision 050). Only the functions that bundle the
// `stripe` package import this module.
import Stripe from 'stripe';
import { AppError, ValidationError } from './errors';
import { json, type HttpEvent, type HttpResult } from './http';
import { IdempotencyInProgressError, ONE_DAY, type Once } from './idempotency';
import { log } from './log';
import { retryRaces } from './retry';

export const MISSING_SIGNATURE_MESSAGE = 'This request has no Stripe-Signature header: only Stripe may send events here.';
export const BAD_SIGNATURE_MESSAGE = 'The Stripe-Signature header does not match this body: the event was not applied.';

/**
 * How long an applied event's record is kept: longer than Stripe retries a delivery (3 days) or
 * lets one be sent again by hand. A delivery after that is applied again and changes nothing,
 * since every write it makes carries its own key (decision 050).
 */
const STRIPE_EVENT_ONCE_SECONDS = 30 * ONE_DAY;

/** The body exactly as sent: the signature covers its bytes. */
const rawBodyOf = (event: HttpEvent): Buffer =>
  !event.body ? Buffer.alloc(0) : event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
const headerOf = (event: HttpEvent, name: string) => Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];

export interface StripeDelivery {
  stripe: Stripe;
  /** The endpoint's signing secret (`whsec_...`). */
  secret: () => Promise<string>;
  /** The idempotency utility: the event is applied once by its id. */
  once: Once;
  /** Names the endpoint's idempotency records (`stripe-event`, `stripe-connect-event`): stable across deployments. */
  name: string;
  /** Applies the event by its type: every step idempotent, since a failure makes Stripe send it again. */
  apply: (event: Stripe.Event) => Promise<'applied' | 'ignored'>;
  /** Names the endpoint in the log line. */
  label: string;
}

interface Answer {
  received: true;
  replayed?: true;
}

/**
 * Verifies and applies one delivery. A missing or wrong signature answers 400 and reads or
 * changes nothing. The event is then applied inside `once`, keyed by its id: an event applied
 * before answers 200 `replayed` at once; a delivery of an event another invocation is applying
 * waits for it inside the delivery and answers the same (409 past the retries' budget, so Stripe
 * sends it later). A lost race with another delivery (a conditional write, an idempotency record
 * in progress) is retried inside the delivery, bounded and with jitter (functions/shared/retry.ts);
 * any other failure, a refusal of ours included, answers 500, leaves no record, and Stripe sends
 * it again.
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
  const onRetry = (err: unknown, attempt: number) => log.info(`${deps.label} retried after a lost race`, { id: event.id, type: event.type, attempt, error: (err as Error)?.name });
  const applyOnce = () =>
    deps.once<{ id: string }, Answer>(
      { name: deps.name, key: 'id', expiresAfterSeconds: STRIPE_EVENT_ONCE_SECONDS, onReplay: () => ({ received: true, replayed: true }) },
      { id: event.id },
      async () => {
        let outcome: 'applied' | 'ignored';
        try {
          // The events of one payment arrive together and write the same items: a lost race is tried
          // again at once, reading Stripe and our state afresh, instead of waiting for Stripe's retry.
          outcome = await retryRaces(() => deps.apply(event), { onRetry });
        } catch (err) {
          // A refusal of ours (a ledger key, a missing balance) is still our failure: Stripe must retry.
          if (err instanceof AppError) throw new Error(`${event.type} ${event.id} was not applied: ${err.message}`, { cause: err });
          throw err;
        }
        log.info(deps.label, { id: event.id, type: event.type, outcome, object: (event.data.object as { id?: string }).id, ...(event.account ? { account: event.account } : {}) });
        return { received: true };
      },
    );
  // The same event delivered twice at once: the second waits for the first's answer.
  const answer = await retryRaces(applyOnce, { retryable: (err) => err instanceof IdempotencyInProgressError, onRetry });
  return json(200, answer);
}
