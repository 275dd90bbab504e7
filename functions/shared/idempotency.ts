import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  IdempotencyConfig,
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import type { Email } from './email-layout';
import { ConflictError, UnprocessableError } from './errors';
import type { RateLimiter } from './rate-limit';

/**
 * The one way we make a side effect happen once: Powertools' idempotency utility over the
 * stack's idempotency table (docs/decisions/009-idempotency.md). An operation is named, keyed
 * by a JMESPath into its input, and its answer is kept until it expires; a repeat inside that
 * time gets the kept answer, a repeat while the first is still running is refused (so an
 * event is redelivered later), and a failed run leaves no record so its retry runs again.
 */

export interface OnceOptions<R> {
  /** Names the operation; the prefix of its records, stable across deployments and function names. */
  name: string;
  /** JMESPath selecting the key from the input. When it selects nothing, the operation runs without idempotency. */
  key: string;
  /** JMESPath of the part of the input a repeat must match, or it is refused as a reused key. */
  validate?: string;
  /** How long a completed answer is kept (seconds). */
  expiresAfterSeconds: number;
  /** Changes a kept answer as it is replayed (e.g. to say it is a repeat). */
  onReplay?: (kept: R) => R;
  /** The refusal while the same key is still running (409). */
  inProgressMessage?: string;
}

/**
 * The same key is being run by another invocation right now (409): an HTTP client retries; an
 * event consumer retries in a moment (`retryRaces`, functions/shared/retry.ts), when it finds the
 * other run's answer.
 */
export class IdempotencyInProgressError extends ConflictError {
  override name = 'IdempotencyInProgressError';
}

/** Runs `fn(input)` at most once per key of `options`; services receive this as a dependency. */
export type Once = <I extends object, R>(options: OnceOptions<R>, input: I, fn: (input: I) => Promise<R>) => Promise<R>;

export const ONE_HOUR = 3600;
export const ONE_DAY = 24 * ONE_HOUR;

const IN_PROGRESS = 'This request is already in progress. Please try again in a moment.';
/** The refusal of a key reused with another request (422). */
export const KEY_REUSED = 'This Idempotency-Key was already used with a different request.';

let client: DynamoDBClient | undefined;
// A persistence layer keeps the settings of its first use and its key prefix, so one per operation.
const stores = new Map<string, DynamoDBPersistenceLayer>();

function storeFor(tableName: string, name: string): DynamoDBPersistenceLayer {
  const id = `${tableName}\n${name}`;
  let store = stores.get(id);
  if (!store) {
    // Twice documentClient()'s attempts (clients.ts): a completion record lost to throttling after
    // its work is done (an email sent) leaves the record in progress, and once that expires the
    // retry does the work again. Under a third of calls throttled, five attempts lose about one
    // write in 200; ten, one in 50,000.
    client ??= new DynamoDBClient({ maxAttempts: 10 });
    store = new DynamoDBPersistenceLayer({ tableName, awsSdkV3Client: client });
    stores.set(id, store);
  }
  return store;
}

/**
 * The idempotency of one invocation. Pass the Lambda context: an in-progress record then
 * expires when the invocation's time runs out, so a crashed run does not block its retry for
 * the whole expiry.
 */
export function idempotency(tableName: string, context?: Context): Once {
  return (options, input, fn) => runOnce(storeFor(tableName, options.name), options, input, fn, context);
}

async function runOnce<I extends object, R>(
  store: BasePersistenceLayer,
  options: OnceOptions<R>,
  input: I,
  fn: (input: I) => Promise<R>,
  context?: Context,
): Promise<R> {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: options.key,
    payloadValidationJmesPath: options.validate,
    expiresAfterSeconds: options.expiresAfterSeconds,
    lambdaContext: context,
    responseHook: options.onReplay ? (kept) => options.onReplay!(kept as never) as never : undefined,
  });
  const run = makeIdempotent(fn, { persistenceStore: store, config, keyPrefix: options.name });
  try {
    return await run(input);
  } catch (err) {
    const name = (err as Error | undefined)?.name;
    if (name === 'IdempotencyAlreadyInProgressError') throw new IdempotencyInProgressError(options.inProgressMessage ?? IN_PROGRESS);
    if (name === 'IdempotencyValidationError') throw new UnprocessableError(KEY_REUSED);
    throw err;
  }
}

/**
 * A public POST's `Idempotency-Key` (Stripe's convention): a repeat with the same key answers
 * what the first answered, for a day, and changes nothing; the same key with a different body
 * is refused (422). Without a key the request runs as it always did (its own fingerprint, if
 * the route has one, still applies inside `fn`).
 */
export function withIdempotencyKey<Req extends object, Res>(
  once: Once,
  route: string,
  key: string | undefined,
  request: Req,
  fn: (request: Req) => Promise<Res>,
): Promise<Res> {
  return once(
    { name: `${route}.idempotency-key`, key: 'key', validate: 'request', expiresAfterSeconds: ONE_DAY },
    { key: key ?? null, request },
    (input) => fn(input.request),
  );
}

/**
 * What a form anyone can send (the contact form, the report form) needs besides its store: its
 * rate limits, counted before anything else, the `Idempotency-Key` of `withIdempotencyKey`, and
 * the bus its event goes to once the request is stored.
 */
export interface PublicFormDeps {
  publish: (detailType: string, detail: object) => Promise<void>;
  once: Once;
  limit: RateLimiter;
  now?: () => Date;
}

/**
 * Sends an email once per key of the named operation (decision 050): true when it was sent now,
 * false when it was sent before (nothing is sent). A failed send leaves no record, so the retry of
 * the step, run or delivery sends it; a send still in progress refuses a concurrent one (409). The
 * email is built only when it is sent.
 */
export function sendOnce(
  deps: { once: Once; send: (to: string, email: Email) => Promise<unknown> },
  operation: { name: string; key: string; expiresAfterSeconds: number },
  to: string,
  email: () => Email,
): Promise<boolean> {
  return deps.once<{ key: string }, boolean>(
    { name: operation.name, key: 'key', expiresAfterSeconds: operation.expiresAfterSeconds, onReplay: () => false },
    { key: operation.key },
    async () => {
      await deps.send(to, email());
      return true;
    },
  );
}

/**
 * For tests of services: the same utility over records kept in memory instead of DynamoDB,
 * so replays, onReplay, reused keys and failed runs behave as in the cloud.
 */
export function inMemoryIdempotency(): Once {
  const stores = new Map<string, MemoryPersistenceLayer>();
  return async (options, input, fn) => {
    let store = stores.get(options.name);
    if (!store) stores.set(options.name, (store = new MemoryPersistenceLayer()));
    return runOnce(store, options, input, fn, TEST_CONTEXT);
  };
}

// An invocation with ten seconds left, so in-progress records expire as they would on Lambda.
const TEST_CONTEXT = { getRemainingTimeInMillis: () => 10_000 } as Context;

class MemoryPersistenceLayer extends BasePersistenceLayer {
  private readonly records = new Map<string, IdempotencyRecord>();

  protected async _getRecord(key: string) {
    const record = this.records.get(key);
    if (!record) throw new IdempotencyItemNotFoundError();
    return record;
  }
  protected async _putRecord(record: IdempotencyRecord) {
    const existing = this.records.get(record.idempotencyKey);
    const takeable =
      !existing ||
      existing.isExpired() ||
      (existing.getStatus() === 'INPROGRESS' && existing.inProgressExpiryTimestamp !== undefined && existing.inProgressExpiryTimestamp < Date.now());
    if (!takeable) throw new IdempotencyItemAlreadyExistsError('exists', existing);
    this.records.set(record.idempotencyKey, record);
  }
  protected async _updateRecord(record: IdempotencyRecord) {
    this.records.set(record.idempotencyKey, record);
  }
  protected async _deleteRecord(record: IdempotencyRecord) {
    this.records.delete(record.idempotencyKey);
  }
}
