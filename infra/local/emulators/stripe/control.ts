// The Stripe emulator's test handle: in process (`twin.stripe`), and over HTTP under
// `/_emulator/` with its client (`stripeControlClient`), for test files whose twin runs in
// another process.
import type * as http from 'node:http';
import type Stripe from 'stripe';
import { TEST_CARDS, type TestCard } from './cards';
import { days } from './clock';
import type { Disputes } from './disputes';
import { readBody } from './http';
import type { Renewals } from './renewals';
import type { Store } from './store';
import type { Delivery, StripeFault, Webhooks } from './webhooks';

/** The test handle of the emulator (`twin.stripe`; over HTTP, `stripeControlClient`). */
export interface StripeControl {
  /** The secret key the API accepts (`sk_test_...`). */
  readonly secretKey: string;
  /** The publishable key, for a browser (`pk_test_...`). */
  readonly publishableKey: string;
  inject(fault: StripeFault): void;
  /** Clears every fault and makes the deliveries an out-of-order fault holds. */
  clear(): void;
  /** Makes the held deliveries now, newest first; returns how many. */
  flush(): number;
  /** Every delivery so far (of an event type, or about one object, when asked). */
  deliveries(filter?: { type?: string; objectId?: string }): Delivery[];
  /**
   * Moves the emulator's own clock (every customer not on a test clock) forward and carries out
   * what fell due in between, in time order: renewals, payment retries, cancellations at the
   * period's end. Answers once done (the events' deliveries follow).
   */
  advanceClock(by: { seconds?: number; days?: number; to?: number }): { now: number };
  /** The emulator's own clock, in Unix seconds. */
  now(): number;
  /** Opens a dispute on a charge (or a PaymentIntent's charge), as a cardholder's bank would. */
  openDispute(p: { charge?: string; paymentIntent?: string; reason?: string }): Stripe.Dispute;
  /**
   * A webhook endpoint, as the twin configures its own (the `whsec_` secret given or made);
   * `connect: true` makes it a Connect endpoint (the events of connected accounts, only those).
   */
  addWebhookEndpoint(p: { url: string; secret?: string; enabledEvents?: string[]; connect?: boolean }): Stripe.WebhookEndpoint;
  /** The test cards the hosted pages take. */
  readonly testCards: readonly TestCard[];
}

export interface ControlDeps {
  secretKey: string;
  publishableKey: string;
  store: Store;
  webhooks: Webhooks;
  renewals: Renewals;
  disputes: Disputes;
}

export function stripeControl({ secretKey, publishableKey, store, webhooks, renewals, disputes }: ControlDeps): StripeControl {
  return {
    secretKey,
    publishableKey,
    testCards: TEST_CARDS,
    inject: (fault) => webhooks.inject(fault),
    clear: () => webhooks.clear(),
    flush: () => webhooks.flush(),
    deliveries: (filter = {}) =>
      webhooks.deliveries
        .filter((d) => (!filter.type || d.type === filter.type) && (!filter.objectId || d.objectId === filter.objectId))
        .map((d) => ({ ...d, attempts: [...d.attempts] })),
    advanceClock(by) {
      const now = store.clocks.now(null);
      const to = by.to ?? now + (by.seconds ?? 0) + days(by.days ?? 0);
      if (!Number.isFinite(to) || !Number.isInteger(to)) throw new Error(`advanceClock needs whole seconds, days or a Unix time 'to', got ${JSON.stringify(by)}`);
      if (to < now) throw new Error(`advanceClock moves forward only: ${to} is before the clock's ${now}`);
      renewals.runDue(null, to);
      return { now: store.clocks.now(null) };
    },
    now: () => store.clocks.now(null),
    openDispute(p) {
      let chargeId = p.charge;
      if (!chargeId && p.paymentIntent) {
        const pi = store.paymentIntents.get(p.paymentIntent);
        if (!pi?.latest_charge) throw new Error(`PaymentIntent ${p.paymentIntent} has no charge to dispute`);
        chargeId = pi.latest_charge as string;
      }
      if (!chargeId) throw new Error('openDispute needs a charge or a paymentIntent');
      return disputes.openDispute(chargeId, p.reason ?? 'fraudulent');
    },
    addWebhookEndpoint: (p) => webhooks.addEndpoint({ ...p, created: Math.floor(Date.now() / 1000) }),
  };
}

/** The test handle over HTTP (`stripeControlClient`): `/_emulator/<op>`, answers `{ result }` or `{ error }`. */
export function controlRoutes(handle: StripeControl, store: Store) {
  return async (req: http.IncomingMessage, res: http.ServerResponse, url: URL, method: string): Promise<void> => {
    const text = method === 'POST' ? await readBody(req) : '';
    const body = text ? JSON.parse(text) : {};
    const done = (result: unknown = null): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }));
    const op = url.pathname.slice('/_emulator/'.length);
    try {
      if (method === 'GET' && op === 'config') {
        const prices = [...store.prices.values()].map((p) => ({ id: p.id, lookupKey: p.lookup_key, product: p.product }));
        return done({ secretKey: handle.secretKey, publishableKey: handle.publishableKey, testCards: TEST_CARDS, prices });
      }
      if (method === 'POST' && op === 'inject') return done(handle.inject(body));
      if (method === 'POST' && op === 'clear') return done(handle.clear());
      if (method === 'POST' && op === 'flush') return done(handle.flush());
      if (method === 'GET' && op === 'deliveries') {
        return done(handle.deliveries({ type: url.searchParams.get('type') ?? undefined, objectId: url.searchParams.get('objectId') ?? undefined }));
      }
      if (method === 'POST' && op === 'clock/advance') return done(handle.advanceClock(body));
      if (method === 'GET' && op === 'clock') return done({ now: handle.now() });
      if (method === 'POST' && op === 'disputes') return done(handle.openDispute(body));
      if (method === 'POST' && op === 'webhook-endpoints') return done(handle.addWebhookEndpoint(body));
    } catch (err) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (err as Error).message }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `The emulator has no control ${method} ${url.pathname}` }));
  };
}

/** The test handle of an emulator in another process (the shared test twin's), through its `/_emulator/` routes. */
export interface StripeControlClient {
  config(): Promise<{ secretKey: string; publishableKey: string; testCards: TestCard[]; prices: Array<{ id: string; lookupKey: string | null; product: string }> }>;
  inject(fault: StripeFault): Promise<void>;
  clear(): Promise<void>;
  flush(): Promise<number>;
  deliveries(filter?: { type?: string; objectId?: string }): Promise<Delivery[]>;
  advanceClock(by: { seconds?: number; days?: number; to?: number }): Promise<{ now: number }>;
  now(): Promise<number>;
  openDispute(p: { charge?: string; paymentIntent?: string; reason?: string }): Promise<Stripe.Dispute>;
  addWebhookEndpoint(p: { url: string; secret?: string; enabledEvents?: string[]; connect?: boolean }): Promise<Stripe.WebhookEndpoint>;
}

export function stripeControlClient(endpoint: string): StripeControlClient {
  const call = async (method: 'GET' | 'POST', op: string, body?: unknown) => {
    const res = await fetch(`${endpoint}/_emulator/${op}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.json()) as { result?: unknown; error?: string };
    if (!res.ok) throw new Error(answer.error ?? `the Stripe emulator answered ${res.status} to ${op}`);
    return answer.result;
  };
  return {
    config: async () => (await call('GET', 'config')) as Awaited<ReturnType<StripeControlClient['config']>>,
    inject: async (fault) => void (await call('POST', 'inject', fault)),
    clear: async () => void (await call('POST', 'clear', {})),
    flush: async () => (await call('POST', 'flush', {})) as number,
    deliveries: async (filter = {}) => {
      const q = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== undefined) as Array<[string, string]>);
      return (await call('GET', `deliveries${q.size ? `?${q}` : ''}`)) as Delivery[];
    },
    advanceClock: async (by) => (await call('POST', 'clock/advance', by)) as { now: number },
    now: async () => ((await call('GET', 'clock')) as { now: number }).now,
    openDispute: async (p) => (await call('POST', 'disputes', p)) as Stripe.Dispute,
    addWebhookEndpoint: async (p) => (await call('POST', 'webhook-endpoints', p)) as Stripe.WebhookEndpoint,
  };
}
