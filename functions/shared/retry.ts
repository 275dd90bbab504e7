// Retrying a unit of work that lost a race (docs/payments.md#concurrency): the events of one
// payment arrive at once, each reads the same state and writes beside the others, and the losers
// of a conditional write or of an idempotency record must try again at once, inside the same
// invocation, rather than answer 5xx and wait minutes for the provider's retry. Only races are
// retried: any other error goes straight on.
import { cancellationReasons, isConditionFailure } from './errors';

/** A condition that a concurrent writer will soon make true (another delivery is applying the same object). */
export class RaceLostError extends Error {
  override name = 'RaceLostError';
}

const RACE_NAMES = new Set([
  // DynamoDB: two transactions on one item at once, or a condition that another writer broke.
  'TransactionConflictException',
  'ConditionalCheckFailedException',
  // The idempotency utility: the same key is being run by another invocation right now.
  'IdempotencyInProgressError',
  'RaceLostError',
]);

/**
 * Whether an error is a lost race that a fresh attempt, reading the state again, can win: a
 * DynamoDB write refused by a condition or by a concurrent transaction, an idempotency record
 * held by another invocation, or a wing's own "another writer is on it" (a RaceLostError). Follows
 * `cause`, since wrappers keep the original there.
 */
export function isRaceLost(err: unknown): boolean {
  for (let e = err as (Error & { cause?: unknown }) | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (RACE_NAMES.has(e.name) || e instanceof RaceLostError || isConditionFailure(e)) return true;
    const reasons = cancellationReasons(e);
    if (reasons?.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict')) return true;
  }
  return false;
}

export interface RetryOptions {
  /** Attempts in all, the first included (default 8). */
  attempts?: number;
  /** Upper bound of the first pause, doubled each time (default 40 ms). */
  baseMs?: number;
  /** Upper bound of any pause (default 800 ms). */
  capMs?: number;
  /** No new attempt starts once this much time has passed since the first (default 8 s). */
  budgetMs?: number;
  /** Which errors are retried (default: `isRaceLost`). */
  retryable?: (err: unknown) => boolean;
  /** Told of each retry (for a log line). */
  onRetry?: (err: unknown, attempt: number) => void;
  /** For tests: the pause. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `fn`, and again after a pause with full jitter (a random time up to base x 2^attempt,
 * capped) while it fails with a retryable error, within a bounded number of attempts and time.
 * The last error goes on unchanged.
 */
export async function retryRaces<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 8;
  const base = options.baseMs ?? 40;
  const cap = options.capMs ?? 800;
  const budget = options.budgetMs ?? 8_000;
  const retryable = options.retryable ?? isRaceLost;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= attempts || !retryable(err)) throw err;
      const pause = Math.floor(random() * Math.min(cap, base * 2 ** attempt));
      if (Date.now() - started + pause > budget) throw err;
      options.onRetry?.(err, attempt);
      await sleep(pause);
    }
  }
}
