// Following a generation until it ends (docs/product.md#intervals: every 5000 ms, at most 60 times). Pure apart from
// the timer it is given, so the same loop runs in the page and in tests.
import type { Generation } from '../../../events/generations';
import { ADMISSION_MAX_WAIT_SECONDS, FINAL_STATUSES, GENERATION_TIMED_OUT, POLL_INTERVAL_MS, POLL_MAX_ATTEMPTS } from '../../../events/generation-values';
import { ApiError } from '../api/client';

/** The generation did not end within the polling limit (docs/product.md#create: "Generation timed out"). */
export class GenerationTimedOutError extends Error {
  override name = 'GenerationTimedOutError';
  constructor(readonly last: Generation | undefined) {
    super(GENERATION_TIMED_OUT);
  }
}

/** The page was left (or a new run started): polling stopped without an answer. */
export class PollAbortedError extends Error {
  override name = 'PollAbortedError';
  constructor() {
    super('Polling stopped');
  }
}

export interface PollOptions {
  /** Reads the generation (`GET /generations/{id}`). */
  get(id: string): Promise<Generation>;
  id: string;
  /** Called with every answer, final or not (the page shows the status). */
  onUpdate?(generation: Generation): void;
  intervalMs?: number;
  maxAttempts?: number;
  signal?: AbortSignal;
  /** Waits `ms`; defaults to a timer that stops when `signal` aborts. */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A network failure or a server error: worth asking again at the next tick. */
const transient = (err: unknown) => err instanceof ApiError && (err.status === 0 || err.status >= 500);

function timer(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new PollAbortedError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(new PollAbortedError());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Reads the generation at once and then every `intervalMs`, at most `maxAttempts` reads in all,
 * until its status is final (succeeded, failed or canceled), which it answers. A network failure
 * or 5xx counts as an attempt and is asked again; any other error ends the loop. Throws
 * GenerationTimedOutError when the attempts run out, PollAbortedError when `signal` aborts.
 */
export async function pollGeneration({
  get,
  id,
  onUpdate,
  intervalMs = POLL_INTERVAL_MS,
  maxAttempts = POLL_MAX_ATTEMPTS,
  signal,
  sleep = timer,
}: PollOptions): Promise<Generation> {
  let last: Generation | undefined;
  let lastError: unknown;
  // Reads while the start waits in the admission queue do not count (decision 065): the server
  // refuses a start that waited ADMISSION_MAX_WAIT_SECONDS, so these are bounded too.
  let queuedReads = 0;
  const maxQueuedReads = Math.ceil((ADMISSION_MAX_WAIT_SECONDS * 1000) / intervalMs) + 1;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (attempt > 1) await sleep(intervalMs, signal);
    if (signal?.aborted) throw new PollAbortedError();
    try {
      last = await get(id);
      lastError = undefined;
    } catch (err) {
      if (!transient(err)) throw err;
      lastError = err;
      continue;
    }
    if (signal?.aborted) throw new PollAbortedError();
    onUpdate?.(last);
    if (FINAL_STATUSES.includes(last.status)) return last;
    if (last.queue && queuedReads++ < maxQueuedReads) attempt--;
  }
  // Every attempt failed to reach the server: that, not a time-out, is what happened.
  if (lastError && !last) throw lastError;
  throw new GenerationTimedOutError(last);
}
