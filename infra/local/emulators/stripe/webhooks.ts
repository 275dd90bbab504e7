// Events and their delivery to webhook endpoints, as Stripe does it: each event (a
// `Stripe.Event`) is posted to every endpoint enabled for its type, signed with the endpoint's
// `whsec_` secret (`Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.body">`), and tried again
// with back-off while the endpoint answers anything but 2xx. Faults lose, repeat or reorder
// deliveries on purpose.
import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import { API_VERSION, newId, newSecret, webhookEndpoint } from './objects';

/**
 * Faults of the emulator. Delivery faults take the next `times` (default 1) deliveries whose
 * event type is in `types` (any, when absent) and whose JSON contains `objectIncludes` (a test's
 * own marker, an email or an id: files sharing a twin keep to their own events). API faults take
 * the next `times` API calls.
 */
export type StripeFault =
  /** The delivery is never made (the event stays listed in `GET /v1/events`). */
  | { kind: 'lose-delivery'; times?: number; types?: string[]; objectIncludes?: string }
  /** The delivery is made twice, the same event (same id) each time. */
  | { kind: 'duplicate-delivery'; times?: number; types?: string[]; objectIncludes?: string }
  /** The next `times` (at least 2) matching deliveries are held, then made newest first. */
  | { kind: 'out-of-order'; times?: number; types?: string[]; objectIncludes?: string }
  /**
   * The matching deliveries of one turn of the emulator (one API call, hosted page or clock
   * advance: every event of a payment, or of a clock's renewals) are made together at the end
   * of that turn, all at once, each `copies` times (default 1, at most 10), newest first when
   * `order` is `reversed`. It stays until cleared, unless `times` limits the deliveries it takes.
   */
  | { kind: 'burst'; times?: number; types?: string[]; objectIncludes?: string; copies?: number; order?: 'emitted' | 'reversed' }
  /** API calls answered 500 `api_error` before anything is done (a retry with the same key runs them). */
  | { kind: 'http-5xx'; times?: number }
  /** API calls answered 429 `rate_limit`. */
  | { kind: 'http-429'; times?: number }
  /** API calls done in full whose answer is lost: the connection closes unanswered. */
  | { kind: 'lose-answer'; times?: number }
  /**
   * The next `times` transfers (to `destination` only, when given: a test's own connected
   * account on a shared twin) are refused with `balance_insufficient`, as when the platform's
   * available balance is too low.
   */
  | { kind: 'insufficient-balance'; times?: number; destination?: string };

const FAULT_KINDS: ReadonlyArray<StripeFault['kind']> = [
  'lose-delivery',
  'duplicate-delivery',
  'out-of-order',
  'burst',
  'http-5xx',
  'http-429',
  'lose-answer',
  'insufficient-balance',
];
type DeliveryFaultKind = 'lose-delivery' | 'duplicate-delivery' | 'out-of-order' | 'burst';

/** One event's delivery to one endpoint (the control route `GET /_emulator/deliveries` lists them). */
export interface Delivery {
  eventId: string;
  type: string;
  endpoint: string;
  url: string;
  /** `pending` while tried again, `held` by an out-of-order or burst fault, `lost` by a fault, `failed` once the tries ran out. */
  status: 'pending' | 'held' | 'delivered' | 'failed' | 'lost';
  /** Each attempt: when (ms since the epoch) and the HTTP status answered (0: no answer). */
  attempts: Array<{ at: number; status: number }>;
  /** Made twice on purpose (a duplicate-delivery fault). */
  duplicate: boolean;
  /** The object's id, for filtering. */
  objectId: string;
  /** The connected account the event happened on (delivered to Connect endpoints), or null for the platform's own. */
  account: string | null;
}

interface Endpoint {
  object: Stripe.WebhookEndpoint;
  secret: string;
  disabled: boolean;
  /** A Connect endpoint: it receives the events of connected accounts, and only those (as on Stripe). */
  connect: boolean;
}

/** The `Stripe-Signature` header of a payload, as Stripe signs it. */
export function signature(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/**
 * Whether an endpoint's `enabled_events` take an event type: `*`, the type itself, or a group
 * such as `identity.verification_session.*` (the twin's own endpoints name groups; on Stripe an
 * endpoint lists each type, as its dashboard does when a whole group is ticked).
 */
function enables(enabled: string[], type: string): boolean {
  return enabled.some((e) => e === '*' || e === type || (e.endsWith('.*') && type.startsWith(e.slice(0, -1))));
}

export interface WebhooksOptions {
  retryDelaysMs: number[];
  timeoutMs: number;
  log: (line: string) => void;
}

export class Webhooks {
  private readonly endpoints = new Map<string, Endpoint>();
  /** Every event, oldest first (Stripe keeps 30 days; the emulator keeps the last 10,000). */
  readonly events: Stripe.Event[] = [];
  private readonly eventsById = new Map<string, Stripe.Event>();
  readonly deliveries: Delivery[] = [];
  private faults: Array<StripeFault & { left: number }> = [];
  private held: Array<{ delivery: Delivery; event: Stripe.Event; endpoint: Endpoint; fault: object }> = [];
  /** The deliveries each burst fault holds until the end of the current turn. */
  private readonly bursts = new Map<object, Array<{ delivery: Delivery; event: Stripe.Event; endpoint: Endpoint }>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: WebhooksOptions) {}

  // --- endpoints ---

  addEndpoint(e: { url: string; secret?: string; enabledEvents?: string[]; description?: string | null; metadata?: Stripe.Metadata; connect?: boolean; created: number }): Stripe.WebhookEndpoint {
    const secret = e.secret ?? newSecret('whsec');
    const object = webhookEndpoint({
      id: newId('we'),
      url: e.url,
      secret,
      enabledEvents: e.enabledEvents ?? ['*'],
      description: e.description ?? null,
      metadata: e.metadata ?? {},
      created: e.created,
    });
    this.endpoints.set(object.id, { object, secret, disabled: false, connect: e.connect ?? false });
    return object;
  }

  endpoint(id: string): Stripe.WebhookEndpoint | undefined {
    return this.endpoints.get(id)?.object;
  }

  /** Endpoints as listed and retrieved: Stripe shows the secret only when the endpoint is created. */
  listed(e: Stripe.WebhookEndpoint): Stripe.WebhookEndpoint {
    const { secret: _secret, ...rest } = e;
    return rest;
  }

  allEndpoints(): Stripe.WebhookEndpoint[] {
    return [...this.endpoints.values()].map((e) => e.object);
  }

  updateEndpoint(id: string, update: { url?: string; enabledEvents?: string[]; disabled?: boolean; description?: string | null; metadata?: Stripe.Metadata }): Stripe.WebhookEndpoint | undefined {
    const e = this.endpoints.get(id);
    if (!e) return undefined;
    if (update.url !== undefined) e.object.url = update.url;
    if (update.enabledEvents !== undefined) e.object.enabled_events = update.enabledEvents;
    if (update.description !== undefined) e.object.description = update.description;
    if (update.metadata !== undefined) e.object.metadata = update.metadata;
    if (update.disabled !== undefined) {
      e.disabled = update.disabled;
      e.object.status = update.disabled ? 'disabled' : 'enabled';
    }
    return e.object;
  }

  deleteEndpoint(id: string): boolean {
    return this.endpoints.delete(id);
  }

  // --- faults ---

  inject(fault: StripeFault): void {
    if (!FAULT_KINDS.includes(fault?.kind)) throw new Error(`Unknown Stripe fault ${JSON.stringify(fault?.kind)} (one of: ${FAULT_KINDS.join(', ')})`);
    const times = fault.times ?? (fault.kind === 'out-of-order' ? 2 : fault.kind === 'burst' ? Number.POSITIVE_INFINITY : 1);
    if (times !== Number.POSITIVE_INFINITY && (!Number.isInteger(times) || times < 1)) throw new Error(`Fault times must be a whole number of at least 1, got ${fault.times}`);
    if (fault.kind === 'burst') {
      const copies = fault.copies ?? 1;
      if (!Number.isInteger(copies) || copies < 1 || copies > 10) throw new Error(`A burst fault's copies must be a whole number from 1 to 10, got ${fault.copies}`);
      if (fault.order !== undefined && fault.order !== 'emitted' && fault.order !== 'reversed') {
        throw new Error(`A burst fault's order must be 'emitted' or 'reversed', got ${JSON.stringify(fault.order)}`);
      }
    }
    if (fault.kind === 'out-of-order' && times < 2) throw new Error('An out-of-order fault holds at least 2 deliveries (times >= 2)');
    if ('types' in fault && fault.types !== undefined && (!Array.isArray(fault.types) || fault.types.some((t) => typeof t !== 'string'))) {
      throw new Error('Fault types must be a list of event types');
    }
    this.faults.push({ ...fault, left: times });
  }

  /** Takes one use of the first API fault of these kinds, if any. */
  takeApiFault<K extends StripeFault['kind']>(kinds: K[]): K | undefined {
    const fault = this.faults.find((f) => (kinds as string[]).includes(f.kind));
    if (!fault) return undefined;
    fault.left -= 1;
    if (fault.left <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault.kind as K;
  }

  /** Takes one use of an `insufficient-balance` fault that applies to a transfer to `destination`, if any. */
  takeTransferFault(destination: string): boolean {
    const fault = this.faults.find((f) => f.kind === 'insufficient-balance' && (!f.destination || f.destination === destination));
    if (!fault) return false;
    fault.left -= 1;
    if (fault.left <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return true;
  }

  private takeDeliveryFault(event: Stripe.Event, json: string): (StripeFault & { left: number; kind: DeliveryFaultKind }) | undefined {
    const fault = this.faults.find(
      (f) =>
        (f.kind === 'lose-delivery' || f.kind === 'duplicate-delivery' || f.kind === 'out-of-order' || f.kind === 'burst') &&
        (!f.types || f.types.includes(event.type)) &&
        (!f.objectIncludes || json.includes(f.objectIncludes)),
    ) as (StripeFault & { left: number; kind: DeliveryFaultKind }) | undefined;
    if (!fault) return undefined;
    fault.left -= 1;
    if (fault.left <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }

  /** Clears every fault and makes the held deliveries (newest first). */
  clear(): void {
    this.faults = [];
    this.flush();
  }

  /** Makes the deliveries an out-of-order fault holds now, newest first. */
  flush(): number {
    const held = this.held;
    this.held = [];
    for (const h of [...held].reverse()) this.attempt(h.delivery, h.event, h.endpoint, 0);
    return held.length;
  }

  // --- events ---

  /**
   * Records an event about `object` (a snapshot is taken) and delivers it to the endpoints
   * enabled for its type: the platform's own endpoints, or, for an event that happened on a
   * connected account (`account`), the Connect endpoints.
   */
  emit(
    type: Stripe.Event.Type,
    object: { id: string; object: string },
    opts: { created: number; previous?: Record<string, unknown>; request?: { id: string | null; idempotencyKey: string | null }; account?: string },
  ): Stripe.Event {
    const endpoints = [...this.endpoints.values()].filter(
      (e) => !e.disabled && e.connect === (opts.account !== undefined) && enables(e.object.enabled_events, type),
    );
    // The union of every event's type: each member's data.object is that type's object, which
    // `object` is by construction of the caller.
    const event = {
      id: newId('evt'),
      object: 'event',
      ...(opts.account !== undefined && { account: opts.account }),
      api_version: API_VERSION,
      created: opts.created,
      data: { object: structuredClone(object), ...(opts.previous && { previous_attributes: structuredClone(opts.previous) }) },
      livemode: false,
      pending_webhooks: endpoints.length,
      request: { id: opts.request?.id ?? null, idempotency_key: opts.request?.idempotencyKey ?? null },
      type,
    } as unknown as Stripe.Event;
    this.events.push(event);
    this.eventsById.set(event.id, event);
    if (this.events.length > 10_000) this.eventsById.delete(this.events.shift()!.id);
    this.options.log(`${event.id}: ${type} ${object.id}`);
    for (const endpoint of endpoints) this.deliver(event, endpoint);
    return event;
  }

  event(id: string): Stripe.Event | undefined {
    return this.eventsById.get(id);
  }

  private deliver(event: Stripe.Event, endpoint: Endpoint): void {
    const objectId = (event.data.object as { id?: string }).id ?? '';
    const delivery: Delivery = {
      eventId: event.id,
      type: event.type,
      endpoint: endpoint.object.id,
      url: endpoint.object.url,
      status: 'pending',
      attempts: [],
      duplicate: false,
      objectId,
      account: event.account ?? null,
    };
    this.deliveries.push(delivery);
    if (this.deliveries.length > 10_000) this.deliveries.shift();
    const fault = this.takeDeliveryFault(event, JSON.stringify(event));
    if (fault?.kind === 'lose-delivery') {
      delivery.status = 'lost';
      this.options.log(`${event.id}: delivery to ${endpoint.object.url} lost (fault)`);
      return;
    }
    if (fault?.kind === 'out-of-order') {
      delivery.status = 'held';
      this.held.push({ delivery, event, endpoint, fault });
      // Once the fault has taken its last delivery, its held deliveries go, newest first.
      if (fault.left <= 0) {
        const mine = this.held.filter((h) => h.fault === fault);
        this.held = this.held.filter((h) => h.fault !== fault);
        for (const h of mine.reverse()) this.later(0, () => this.attempt(h.delivery, h.event, h.endpoint, 0));
      }
      return;
    }
    if (fault?.kind === 'burst') {
      this.holdForBurst(fault, delivery, event, endpoint);
      return;
    }
    // After the API call's answer has gone, as on Stripe.
    this.later(0, () => this.attempt(delivery, event, endpoint, 0));
    if (fault?.kind === 'duplicate-delivery') {
      const twin: Delivery = { ...delivery, attempts: [], duplicate: true };
      this.deliveries.push(twin);
      this.later(0, () => this.attempt(twin, event, endpoint, 0));
    }
  }

  /** Holds a delivery (and its copies) with the rest of its turn's; the first one held schedules the turn's release. */
  private holdForBurst(fault: Extract<StripeFault, { kind: 'burst' }>, delivery: Delivery, event: Stripe.Event, endpoint: Endpoint): void {
    let batch = this.bursts.get(fault);
    if (!batch) {
      const mine: Array<{ delivery: Delivery; event: Stripe.Event; endpoint: Endpoint }> = [];
      batch = mine;
      this.bursts.set(fault, mine);
      this.later(0, () => {
        this.bursts.delete(fault);
        for (const h of fault.order === 'reversed' ? [...mine].reverse() : mine) this.attempt(h.delivery, h.event, h.endpoint, 0);
      });
    }
    delivery.status = 'held';
    batch.push({ delivery, event, endpoint });
    for (let i = 1; i < (fault.copies ?? 1); i++) {
      const copy: Delivery = { ...delivery, attempts: [], duplicate: true };
      this.deliveries.push(copy);
      batch.push({ delivery: copy, event, endpoint });
    }
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(t);
  }

  private attempt(delivery: Delivery, event: Stripe.Event, endpoint: Endpoint, n: number): void {
    if (delivery.status === 'held') delivery.status = 'pending';
    // Stripe's payloads are pretty-printed JSON; the signature covers these exact bytes.
    const payload = JSON.stringify(event, null, 2);
    const timestamp = Math.floor(Date.now() / 1000);
    const run = async () => {
      let status = 0;
      try {
        const res = await fetch(endpoint.object.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature': signature(payload, endpoint.secret, timestamp),
          },
          body: payload,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        status = res.status;
        await res.body?.cancel();
      } catch (err) {
        this.options.log(`${event.id}: ${event.type} not delivered to ${endpoint.object.url} (${(err as Error).name})`);
      }
      delivery.attempts.push({ at: Date.now(), status });
      if (status >= 200 && status < 300) {
        delivery.status = 'delivered';
        return;
      }
      if (this.stopped) return;
      if (n < this.options.retryDelaysMs.length && this.endpoints.has(endpoint.object.id)) {
        this.options.log(`${event.id}: ${event.type} answered ${status || 'nothing'} (attempt ${n + 1}); trying again`);
        this.later(this.options.retryDelaysMs[n], () => this.attempt(delivery, event, endpoint, n + 1));
      } else {
        delivery.status = 'failed';
        this.options.log(`${event.id}: ${event.type} to ${endpoint.object.url} failed after ${n + 1} attempts`);
      }
    };
    void run();
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
