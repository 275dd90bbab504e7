// The Stripe webhook's service (functions/payments/routes/receive-stripe-event/service.ts) with the
// real `stripe` package verifying signatures, and fakes where Stripe and the tables would be.
import Stripe from 'stripe';
import type { HttpEvent } from '../../../functions/shared/http';
import { ConflictError, ValidationError } from '../../../functions/shared/errors';
import type { Once } from '../../../functions/shared/idempotency';
import { eventually } from '../../support/eventually';
import { recordingOnce } from '../../support/recording-once';
import { receiveStripeEvent, type ReceiveDeps } from '../../../functions/payments/routes/receive-stripe-event/service';
import { BAD_SIGNATURE_MESSAGE, MISSING_SIGNATURE_MESSAGE, receiveStripeDelivery } from '../../../functions/shared/stripe-events';
import type { PaymentsStore } from '../../../functions/payments/store';

const SECRET = 'whsec_unit_test_secret';
const stripe = new Stripe('sk_test_unit', { host: '127.0.0.1', port: 9, protocol: 'http', maxNetworkRetries: 0 });

function eventBody(type: string, object: Record<string, unknown>, id = 'evt_unit_1'): string {
  return JSON.stringify({ id, object: 'event', type, api_version: '2026-10-28.endive', created: 1, livemode: false, data: { object }, pending_webhooks: 1, request: { id: null, idempotency_key: null } }, null, 2);
}

function request(body: string, signature: string | undefined, base64 = false): HttpEvent {
  return {
    headers: { 'content-type': 'application/json', ...(signature ? { 'Stripe-Signature': signature } : {}) },
    body: base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: base64,
    requestContext: { requestId: 'r' },
  } as unknown as HttpEvent;
}

const signed = (body: string, secret = SECRET) => stripe.webhooks.generateTestHeaderString({ payload: body, secret });

function deps(overrides: Partial<ReceiveDeps> = {}) {
  const { once, completed: applied } = recordingOnce('stripe-event', (input) => (input as { id: string }).id);
  const store = {} as PaymentsStore;
  const d: ReceiveDeps = {
    stripe,
    secret: async () => SECRET,
    prices: {} as never,
    store,
    accounts: { get: async () => undefined, setBillingPlan: async () => undefined },
    ledger: { grant: async () => undefined },
    send: async () => undefined,
    once,
    siteUrl: 'https://humanly.example',
    charges: {} as never,
    ...overrides,
  };
  return { deps: d, applied };
}

describe('POST /webhooks/stripe', () => {
  it('refuses a delivery without a signature, or signed with another secret, or changed after signing, marking nothing applied', async () => {
    const { deps: d, applied } = deps();
    const body = eventBody('customer.created', { id: 'cus_1', object: 'customer' });
    await expect(receiveStripeEvent(d, request(body, undefined))).rejects.toEqual(new ValidationError(MISSING_SIGNATURE_MESSAGE));
    await expect(receiveStripeEvent(d, request(body, signed(body, 'whsec_other')))).rejects.toEqual(new ValidationError(BAD_SIGNATURE_MESSAGE));
    await expect(receiveStripeEvent(d, request(body.replace('cus_1', 'cus_2'), signed(body)))).rejects.toEqual(new ValidationError(BAD_SIGNATURE_MESSAGE));
    expect(applied.size).toBe(0);
  });

  it('verifies the raw bytes, base64 or not; an event of no interest is acknowledged and marked applied; a repeat is a replay', async () => {
    const { deps: d, applied } = deps();
    const body = eventBody('customer.created', { id: 'cus_1', object: 'customer', name: 'Zoë Ünïcode' });
    const first = await receiveStripeEvent(d, request(body, signed(body), true));
    expect(first).toMatchObject({ statusCode: 200 });
    expect(JSON.parse(String(first.body))).toEqual({ received: true });
    expect(applied).toEqual(new Set(['evt_unit_1']));
    const again = await receiveStripeEvent(d, request(body, signed(body)));
    expect(JSON.parse(String(again.body))).toEqual({ received: true, replayed: true });
  });

  it('a failure while applying is a 500 (Stripe sends the event again), even a refusal of ours, and the event is not marked applied', async () => {
    const { deps: d, applied } = deps({
      stripe: Object.assign(Object.create(stripe) as Stripe, {
        subscriptions: { retrieve: async () => Promise.reject(new ConflictError('This idempotency key was already used for a different credit change. Use a new key.')) },
      }),
    });
    const body = eventBody('customer.subscription.updated', { id: 'sub_1', object: 'subscription' });
    const failure = receiveStripeEvent(d, request(body, signed(body)));
    await expect(failure).rejects.not.toBeInstanceOf(ConflictError);
    await expect(failure).rejects.toThrow('customer.subscription.updated evt_unit_1 was not applied: This idempotency key was already used');
    expect(applied.size).toBe(0);
  });
});

describe('receiveStripeDelivery', () => {
  it('applies an event once when two deliveries of it arrive at once: both answer 200, the second as a replay', async () => {
    const recording = recordingOnce('stripe-event', (input) => (input as { id: string }).id);
    let refused = 0;
    const once: Once = async (options, input, fn) => {
      try {
        return await recording.once(options, input, fn);
      } catch (err) {
        if ((err as Error).name === 'IdempotencyInProgressError') refused += 1;
        throw err;
      }
    };
    let applying = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const delivery = {
      stripe,
      secret: async () => SECRET,
      once,
      name: 'stripe-event',
      label: 'stripe event',
      apply: async () => {
        applying += 1;
        await gate;
        return 'applied' as const;
      },
    };
    const body = eventBody('invoice.paid', { id: 'in_1', object: 'invoice' });
    const first = receiveStripeDelivery(delivery, request(body, signed(body)));
    const second = receiveStripeDelivery(delivery, request(body, signed(body)));
    // The second finds the first's record in progress and waits for it inside the delivery.
    await eventually(() => refused > 0, { what: "the second delivery to find the first's record in progress" });
    release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => JSON.parse(String(a.body)))).toEqual([{ received: true }, { received: true, replayed: true }]);
    expect(applying).toBe(1);
    expect(recording.completed).toEqual(new Set(['evt_unit_1']));
  });
});
