// Following a checkout the portal came back from until a verified Stripe event has applied it
// (docs/product.md#client-portal). The redirect from Checkout proves nothing, so the page asks
// the API, quickly at first and then less often; after CONFIRM_PATIENCE_MS it tells the client
// it can take a few minutes and keeps asking at SLOW_INTERVAL_MS. Pure apart from the timer it is
// given, so the same loop runs in the page and in tests.
import type { CheckoutStatus } from '../../../events/payments';
import { ApiError } from '../api/client';

/** How long the page shows its progress before saying that it can take a few minutes. */
export const CONFIRM_PATIENCE_MS = 120_000;
/** How often it asks after that. */
export const SLOW_INTERVAL_MS = 30_000;
/** When it stops asking altogether (the client can reload later). */
const GIVE_UP_MS = 30 * 60_000;

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 10_000;

/** The wait before read number `attempt + 1`: 1 s, 1.5 s, 2.25 s … up to 10 s. */
export function confirmDelay(attempt: number): number {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt must be a whole number, got ${attempt}`);
  return Math.min(MAX_DELAY_MS, Math.round(FIRST_DELAY_MS * 1.5 ** attempt));
}

/** The checkout ended (applied or expired). */
const isSettled = (status: CheckoutStatus) => status.state === 'applied' || status.state === 'expired';

/** The page was left: following stopped without an answer. */
export class FollowAbortedError extends Error {
  override name = 'FollowAbortedError';
  constructor() {
    super('Following the checkout stopped');
  }
}

export interface FollowOptions {
  id: string;
  /** `GET /me/checkout-sessions/{id}`. */
  read(id: string): Promise<CheckoutStatus>;
  /** Every answer (the page shows "confirming" once Stripe says paid). */
  onUpdate?(status: CheckoutStatus): void;
  /** Called once, when CONFIRM_PATIENCE_MS have passed without an end. */
  onSlow?(): void;
  signal?: AbortSignal;
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
  now?(): number;
  patienceMs?: number;
  slowIntervalMs?: number;
  giveUpMs?: number;
}

/** A network failure or a server error: worth asking again. */
const transient = (err: unknown) => err instanceof ApiError && (err.status === 0 || err.status >= 500);

function timer(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new FollowAbortedError());
    const stop = () => {
      clearTimeout(t);
      reject(new FollowAbortedError());
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Reads the checkout at once, then with a growing delay, until it is applied or expired, which it
 * answers; undefined when GIVE_UP_MS pass first. A network failure or 5xx is asked again; any
 * other error (404: not this account's checkout) ends the loop. FollowAbortedError when `signal` aborts.
 */
export async function followCheckout({
  id,
  read,
  onUpdate,
  onSlow,
  signal,
  sleep = timer,
  now = Date.now,
  patienceMs = CONFIRM_PATIENCE_MS,
  slowIntervalMs = SLOW_INTERVAL_MS,
  giveUpMs = GIVE_UP_MS,
}: FollowOptions): Promise<CheckoutStatus | undefined> {
  const start = now();
  let slow = false;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw new FollowAbortedError();
    try {
      const status = await read(id);
      if (signal?.aborted) throw new FollowAbortedError();
      onUpdate?.(status);
      if (isSettled(status)) return status;
    } catch (err) {
      if (!transient(err)) throw err;
    }
    const waited = now() - start;
    if (waited >= giveUpMs) return undefined;
    if (!slow && waited >= patienceMs) {
      slow = true;
      onSlow?.();
    }
    await sleep(slow ? slowIntervalMs : confirmDelay(attempt), signal);
  }
}
