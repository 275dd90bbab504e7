import Replicate from 'replicate';
import { secretValue } from './secrets';
import { REPLICATE_MODEL, REPLICATE_VERSION_ID, REPLICATE_VERSION_REF } from '../../events/replicate-values';

/**
 * The one Replicate client, for the generation workflow's predictions and the training wing's
 * models, trainings, versions and sample predictions: the `replicate` package for the API's
 * shapes, with a fetch of ours underneath that retries what is worth retrying (429, 5xx and
 * network errors) with full-jitter backoff, honours Retry-After, and gives up after a bounded
 * number of attempts (decision 028). A create (a prediction or a training) is the exception:
 * Replicate takes no idempotency key, so a create whose answer is unsure (no answer, a 5xx, an
 * answer that cannot be read) is never sent again here; the caller finds out whether it was
 * made (`listPredictions` / `listTrainings`, decision 038). Every failure is a `ReplicateError`.
 */

type ReplicateStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';

const STATUSES: readonly string[] = ['starting', 'processing', 'succeeded', 'failed', 'canceled', 'aborted'];
const FINAL_STATUSES: readonly string[] = ['succeeded', 'failed', 'canceled', 'aborted'];
/** Replicate's statuses after which a prediction or a training changes no more. */
export const isFinalStatus = (status: string | undefined): boolean => status !== undefined && FINAL_STATUSES.includes(status);

export interface Prediction {
  id: string;
  status: ReplicateStatus;
  output: string[] | string | null;
  error: string | null;
}

/** A prediction as the list answers it: what tells one of ours apart (inputs are kept an hour). */
export interface ListedPrediction extends Prediction {
  model: string;
  version: string;
  createdAt: string;
  /** `{}` once Replicate has removed the data (an hour after the prediction). */
  input: Record<string, unknown>;
  /** Not in the list's documented fields; compared only when Replicate gives it. */
  webhook?: string;
}

/** The fields of a training the training workflow uses, checked. */
export interface ReplicateTraining {
  id: string;
  status: ReplicateStatus;
  /** `owner/name:id` once it succeeded. */
  version?: string;
  error: string | null;
  input: Record<string, unknown>;
  predictTimeSeconds?: number;
  createdAt?: string;
  startedAt?: string;
  completedAt?: string;
  /** Replicate's page of the training, with its logs. */
  webUrl?: string;
}

/** A window of Replicate's list (`created_after` / `created_before`), newest first, 100 a page. */
interface ListWindow {
  createdAfter: Date;
  createdBefore?: Date;
  /** Pages followed at most (a bound: the window is meant to be minutes wide); 10 by default. */
  maxPages?: number;
}

export interface ReplicateApi {
  /** model 'owner/name' (POST /v1/models/{owner}/{name}/predictions) or version (POST /v1/predictions). */
  createPrediction(args: {
    model?: string;
    version?: string;
    input: Record<string, unknown>;
    /** Where Replicate posts the prediction's events; none for a prediction read by waiting (the industry classifier). */
    webhook?: string;
    webhookEventsFilter?: Array<'start' | 'output' | 'logs' | 'completed'>;
    /** Replicate cancels the prediction this long after it was created (Cancel-After, at least 5 s). */
    cancelAfterSeconds?: number;
    /** Prefer: wait=n: Replicate answers once the prediction has ended, or after n seconds (at most MAX_WAIT_SECONDS). */
    waitSeconds?: number;
  }): Promise<Prediction>;
  getPrediction(id: string): Promise<Prediction>;
  /** GET /v1/predictions in a window, following its pages. */
  listPredictions(window: ListWindow): Promise<ListedPrediction[]>;
  cancelPrediction(id: string): Promise<Prediction>;
  /** POST /v1/models: a private model of `owner`; `exists` when it was made before (409). */
  createModel(args: { owner: string; name: string; hardware: string; description: string }): Promise<'created' | 'exists'>;
  /** POST /v1/models/{trainer}/versions/{version}/trainings, with the events `start` and `completed`. */
  createTraining(args: { trainer: string; trainerVersion: string; destination: string; input: Record<string, unknown>; webhook: string }): Promise<ReplicateTraining>;
  getTraining(id: string): Promise<ReplicateTraining>;
  cancelTraining(id: string): Promise<void>;
  /** GET /v1/trainings in a window, following its pages. */
  listTrainings(window: ListWindow): Promise<ReplicateTraining[]>;
  /** DELETE /v1/models/{model}/versions/{id}; `gone` when there is no such version any more. */
  deleteVersion(model: string, versionId: string): Promise<'deleted' | 'gone'>;
  /** GET /v1/webhooks/default/secret -> 'whsec_...', cached per container. */
  webhookSecret(): Promise<string>;
  /** Downloads one output URL (retried like the API calls; no token is sent with it). */
  fetchOutput(url: string): Promise<Buffer>;
}

/** The prediction calls: what the generation workflow uses. */
export type PredictionApi = Pick<ReplicateApi, 'createPrediction' | 'getPrediction' | 'listPredictions' | 'cancelPrediction' | 'webhookSecret' | 'fetchOutput'>;

interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts?: number;
  /** The backoff ceiling of the first retry; it doubles per retry up to `maxDelayMs`. */
  baseDelayMs?: number;
  /** No wait is longer; a Retry-After asking for more than this ends the retries at once. */
  maxDelayMs?: number;
}

export interface ReplicateOptions {
  token: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  retry?: RetryOptions;
  sleep?: (ms: number) => Promise<void>;
  /** The backoff's randomness (tests pass a fixed one). */
  random?: () => number;
}

const DEFAULT_REPLICATE_API_URL = 'https://api.replicate.com/v1';
const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 5_000 };
/** One attempt that hangs this long counts as a network error (retried, except a create's). */
const ATTEMPT_TIMEOUT_MS = 15_000;
/** Replicate refuses a Cancel-After shorter than this. */
const MIN_CANCEL_AFTER_SECONDS = 5;
/** The longest `Prefer: wait` we ask for: well inside one attempt's time-out. */
const MAX_WAIT_SECONDS = 10;
/** Images are a few MB at most; anything larger is not an image we asked for. */
const MAX_OUTPUT_BYTES = 25 * 1024 * 1024;

/**
 * A Replicate call that did not succeed. `status` is the HTTP status of the last answer
 * (undefined when no answer came); `retryable` says whether trying again later may help;
 * `unsure` marks a create that may have been made although no good answer came (no answer, a
 * 5xx, an answer that cannot be read): its retry must look for what it made before creating again.
 */
export class ReplicateError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryable: boolean,
    readonly unsure = false,
  ) {
    super(message);
    this.name = 'ReplicateError';
  }
}

const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** `owner/name:id` -> `{ model: 'owner/name', id }`; undefined when it is not one. */
export function parseVersionRef(ref: unknown): { model: string; id: string } | undefined {
  if (typeof ref !== 'string') return undefined;
  const m = REPLICATE_VERSION_REF.exec(ref);
  return m ? { model: m[1], id: m[2] } : undefined;
}

/** The version id of `id` or `owner/name:id`; undefined when it is neither. */
export function versionIdOf(ref: unknown): string | undefined {
  if (typeof ref === 'string' && REPLICATE_VERSION_ID.test(ref)) return ref;
  return parseVersionRef(ref)?.id;
}

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500;

/** Retry-After in milliseconds: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Full jitter: a uniform wait between 0 and the capped exponential ceiling of this retry. */
function fullJitter(retry: number, options: Required<RetryOptions>, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

interface SettledAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  body: string;
}

/**
 * A fetch that retries. The `replicate` package has a retry loop of its own (for 429, and 5xx on
 * GET) that calls fetch again with the same request options; an answer we already gave up on is
 * remembered per options object and repeated without going to the network, so the attempts stay
 * bounded by ours. `onlyThrottled` retries a 429 alone (the request was refused, so nothing was
 * done): for a create, whose repeat after a lost answer would make a second billed one.
 */
function retryingFetch(
  base: typeof fetch,
  retry: RetryOptions = {},
  sleep: (ms: number) => Promise<void> = sleepFor,
  random: () => number = Math.random,
  onlyThrottled = false,
): typeof fetch {
  const options = { ...DEFAULT_RETRY, ...retry };
  const settled = new WeakMap<object, SettledAnswer | { error: unknown }>();

  const replay = (answer: SettledAnswer | { error: unknown }): Response => {
    if ('error' in answer) throw answer.error;
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  };
  const settle = async (key: object | undefined, response: Response): Promise<Response> => {
    if (!key) return response;
    const answer: SettledAnswer = {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: await response.text(),
    };
    settled.set(key, answer);
    return replay(answer);
  };

  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const earlier = init ? settled.get(init) : undefined;
    if (earlier) return replay(earlier);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= options.maxAttempts;
      let response: Response;
      try {
        response = await base(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
      } catch (err) {
        if (last || init?.signal?.aborted || onlyThrottled) {
          const error = new ReplicateError(`Replicate could not be reached (${(err as Error).name})`, undefined, true, onlyThrottled);
          if (init) settled.set(init, { error });
          throw error;
        }
        await sleep(fullJitter(attempt, options, random));
        continue;
      }
      if (!isRetryableStatus(response.status)) return response;
      if (last || (onlyThrottled && response.status !== 429)) return settle(init, response);
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined && asked > options.maxDelayMs) return settle(init, response);
      await response.body?.cancel();
      await sleep(asked ?? fullJitter(attempt, options, random));
    }
  };
}

/**
 * The one reading of a failed call: the status and the detail Replicate gives with an error
 * answer ({"detail": "..."}), never echoing inputs. `create`: a create answered 5xx, or not
 * answered, may have been made all the same (unsure).
 */
function describe(err: unknown, what: string, create = false): ReplicateError {
  if (err instanceof ReplicateError) return err;
  const response = (err as { response?: unknown } | undefined)?.response;
  if (response instanceof Response) {
    // The package has read the body into its message: "... failed with status 422 ...: {body}."
    let detail = '';
    const text = /failed with status \d+[^:]*: ([\s\S]*)\.$/.exec((err as Error).message)?.[1];
    try {
      const body = JSON.parse(text ?? '') as { detail?: unknown; title?: unknown };
      const said = typeof body.detail === 'string' ? body.detail : typeof body.title === 'string' ? body.title : '';
      if (said) detail = `: ${said.slice(0, 200)}`;
    } catch {
      // Not JSON; the status says enough.
    }
    return new ReplicateError(`Replicate answered ${response.status} to ${what}${detail}`, response.status, isRetryableStatus(response.status), create && response.status >= 500);
  }
  return new ReplicateError(`Replicate failed on ${what} (${(err as Error | undefined)?.name ?? 'error'})`, undefined, true, create);
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const errorText = (e: unknown): string | null => (e === null || e === undefined ? null : typeof e === 'string' ? e : JSON.stringify(e));
const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The fields the workflows use, checked, from a prediction as Replicate answers it. */
export function toPrediction(raw: unknown): Prediction {
  const p = record(raw);
  if (typeof p.id !== 'string' || !STATUSES.includes(p.status as string)) {
    throw new ReplicateError('Replicate answered a prediction without an id or a known status', undefined, false);
  }
  const output = p.output;
  const outputs =
    typeof output === 'string' ? output : Array.isArray(output) && output.every((o) => typeof o === 'string') ? (output as string[]) : null;
  return { id: p.id, status: p.status as ReplicateStatus, output: outputs, error: errorText(p.error) };
}

/** A prediction's first output URL, when it has one. */
export const firstOutput = (p: Pick<Prediction, 'output'>): string | undefined => (Array.isArray(p.output) ? p.output[0] : (p.output ?? undefined));

/** A listed prediction, checked: the fields that tell ours apart. */
function toListedPrediction(raw: unknown): ListedPrediction {
  const p = record(raw);
  return {
    ...toPrediction(raw),
    model: text(p.model) ?? '',
    version: text(p.version) ?? '',
    createdAt: text(p.created_at) ?? '',
    input: record(p.input),
    ...(typeof p.webhook === 'string' ? { webhook: p.webhook } : {}),
  };
}

/** A training as Replicate answers it, checked. */
function toTraining(raw: unknown): ReplicateTraining {
  const t = record(raw);
  if (typeof t.id !== 'string' || !STATUSES.includes(t.status as string)) {
    throw new ReplicateError('Replicate answered a training without an id or a known status', undefined, false);
  }
  const output = record(t.output);
  const metrics = record(t.metrics);
  const urls = record(t.urls);
  return {
    id: t.id,
    status: t.status as ReplicateStatus,
    ...(text(output.version) ? { version: text(output.version) } : {}),
    error: errorText(t.error),
    input: record(t.input),
    ...(typeof metrics.predict_time === 'number' ? { predictTimeSeconds: metrics.predict_time } : {}),
    ...(text(t.created_at) ? { createdAt: text(t.created_at) } : {}),
    ...(text(t.started_at) ? { startedAt: text(t.started_at) } : {}),
    ...(text(t.completed_at) ? { completedAt: text(t.completed_at) } : {}),
    ...(text(urls.web) ? { webUrl: text(urls.web) } : {}),
  };
}

const checked = (value: string, pattern: RegExp, message: string): string => {
  if (!pattern.test(value)) throw new ReplicateError(message, undefined, false);
  return value;
};
const modelName = (v: string) => checked(v, REPLICATE_MODEL, "Model must be 'owner/name'");
const versionId = (v: string) => checked(v, REPLICATE_VERSION_ID, 'Version must be a version id (64 hexadecimal characters)');
const replicateId = (v: string, what: 'Prediction' | 'Training') => checked(v, ID, `${what} id is not a Replicate id`);

export function replicateApi(options: ReplicateOptions): ReplicateApi {
  if (!options.token) throw new Error('Replicate token is empty');
  const sleep = options.sleep ?? sleepFor;
  const random = options.random ?? Math.random;
  const baseFetch = options.fetch ?? fetch;
  const baseUrl = (options.baseUrl ?? DEFAULT_REPLICATE_API_URL).replace(/\/+$/, '');
  const clientOf = (onlyThrottled: boolean) =>
    new Replicate({ auth: options.token, baseUrl, fetch: retryingFetch(baseFetch, options.retry, sleep, random, onlyThrottled), userAgent: 'humanly-marketplace', useFileOutput: false });
  const client = clientOf(false);
  // Creates go through a client that retries a 429 only (see retryingFetch).
  const creator = clientOf(true);
  let secret: Promise<string> | undefined;

  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw describe(err, what);
    }
  };
  /** A create: sent once (a 429 aside); an answer lost, 5xx or unreadable is unsure. */
  const create = async <T>(what: string, route: string, init: { headers?: Record<string, string>; data: Record<string, unknown> }, read: (raw: unknown) => T): Promise<T> => {
    let response: Response;
    try {
      response = await creator.request(route, { method: 'POST', headers: init.headers ?? {}, data: init.data });
    } catch (err) {
      throw describe(err, what, true);
    }
    try {
      return read(await response.json());
    } catch {
      throw new ReplicateError(`Replicate's answer to ${what} could not be read`, response.status, true, true);
    }
  };
  /** The pages of a list in a window; the next page's address must be on Replicate's API. */
  const list = <T>(what: string, route: string, read: (raw: unknown) => T, { createdAfter, createdBefore, maxPages = 10 }: ListWindow): Promise<T[]> =>
    call(what, async () => {
      const found: T[] = [];
      const params: Record<string, string> = { created_after: createdAfter.toISOString() };
      if (createdBefore) params.created_before = createdBefore.toISOString();
      let page: { results?: unknown; next?: unknown } = await (await client.request(route, { method: 'GET', params })).json();
      for (let n = 1; ; n++) {
        if (!Array.isArray(page.results)) throw new ReplicateError('Replicate answered a list without results', undefined, false);
        found.push(...page.results.map(read));
        if (typeof page.next !== 'string' || !page.next || n >= maxPages) return found;
        // The next page's address comes from Replicate; the token goes to Replicate's API only.
        const next = new URL(page.next, `${baseUrl}/`);
        if (next.origin !== new URL(baseUrl).origin) throw new ReplicateError('Replicate answered a next page on another host', undefined, false);
        page = await (await client.request(next, { method: 'GET' })).json();
      }
    });

  return {
    async createPrediction(args) {
      if (args.model !== undefined) modelName(args.model);
      if (args.version !== undefined) versionId(args.version);
      if ((args.model === undefined) === (args.version === undefined)) {
        throw new ReplicateError('Give a model or a version, not both', undefined, false);
      }
      const headers: Record<string, string> = {};
      if (args.cancelAfterSeconds !== undefined) {
        headers['Cancel-After'] = `${Math.max(MIN_CANCEL_AFTER_SECONDS, Math.ceil(args.cancelAfterSeconds))}s`;
      }
      if (args.waitSeconds !== undefined) headers.Prefer = `wait=${Math.min(MAX_WAIT_SECONDS, Math.max(1, Math.ceil(args.waitSeconds)))}`;
      const data: Record<string, unknown> = { input: args.input };
      if (args.webhook !== undefined) Object.assign(data, { webhook: args.webhook, webhook_events_filter: args.webhookEventsFilter });
      if (args.version) data.version = args.version;
      // The package's predictions.create cannot send Cancel-After; its request() can.
      const route = args.model ? `/models/${args.model}/predictions` : '/predictions';
      return create('creating a prediction', route, { headers, data }, toPrediction);
    },
    getPrediction(id) {
      return call('reading a prediction', async () => toPrediction(await client.predictions.get(replicateId(id, 'Prediction'))));
    },
    listPredictions(window) {
      return list('listing predictions', '/predictions', toListedPrediction, window);
    },
    cancelPrediction(id) {
      return call('canceling a prediction', async () => toPrediction(await client.predictions.cancel(replicateId(id, 'Prediction'))));
    },
    async createModel({ owner, name, hardware, description }) {
      try {
        await client.models.create(owner, name, { visibility: 'private', hardware, description });
        return 'created';
      } catch (err) {
        const e = describe(err, 'creating a model');
        if (e.status === 409) return 'exists';
        throw e;
      }
    },
    async createTraining({ trainer, trainerVersion, destination, input, webhook }) {
      const route = `/models/${modelName(trainer)}/versions/${versionId(trainerVersion)}/trainings`;
      const data = { destination: modelName(destination), input, webhook, webhook_events_filter: ['start', 'completed'] };
      return create('creating a training', route, { data }, toTraining);
    },
    getTraining(id) {
      return call('reading a training', async () => toTraining(await client.trainings.get(replicateId(id, 'Training'))));
    },
    async cancelTraining(id) {
      await call('canceling a training', () => client.trainings.cancel(replicateId(id, 'Training')));
    },
    listTrainings(window) {
      return list('listing trainings', '/trainings', toTraining, window);
    },
    async deleteVersion(model, id) {
      try {
        // The package has no models.versions.delete; its request() sends the documented call.
        await client.request(`/models/${modelName(model)}/versions/${versionId(id)}`, { method: 'DELETE' });
        return 'deleted';
      } catch (err) {
        const e = describe(err, 'deleting a version');
        if (e.status === 404) return 'gone';
        throw e;
      }
    },
    webhookSecret() {
      secret ??= call('reading the webhook secret', async () => {
        const { key } = await client.webhooks.default.secret.get();
        if (typeof key !== 'string' || !key.startsWith('whsec_')) {
          throw new ReplicateError('Replicate answered a webhook secret that is not whsec_...', undefined, false);
        }
        return key;
      });
      secret.catch(() => (secret = undefined));
      return secret;
    },
    async fetchOutput(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new ReplicateError('Output URL is not a URL', undefined, false);
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        throw new ReplicateError('Output URL must be http(s)', undefined, false);
      }
      // Output files need no token (and a token must never go to another host).
      const response = await retryingFetch(baseFetch, options.retry, sleep, random)(parsed, { method: 'GET' });
      if (!response.ok) {
        await response.body?.cancel();
        throw new ReplicateError(`Replicate answered ${response.status} to downloading an output`, response.status, isRetryableStatus(response.status));
      }
      const length = Number(response.headers.get('content-length') ?? 0);
      if (length > MAX_OUTPUT_BYTES) {
        await response.body?.cancel();
        throw new ReplicateError('Output is larger than an image can be', response.status, false);
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      if (bytes.length > MAX_OUTPUT_BYTES) throw new ReplicateError('Output is larger than an image can be', response.status, false);
      return bytes;
    },
  };
}

let fromEnv: Promise<ReplicateApi> | undefined;

/** The token from Secrets Manager (env REPLICATE_TOKEN_SECRET: the secret's ARN or name, cached per
 *  container) and env REPLICATE_API_URL (default https://api.replicate.com/v1; the twin points it at the emulator). */
export function replicateFromEnv(): Promise<ReplicateApi> {
  fromEnv ??= (async () => {
    const secretId = process.env.REPLICATE_TOKEN_SECRET;
    if (!secretId) throw new Error('Invalid function configuration: REPLICATE_TOKEN_SECRET is not set');
    const token = await secretValue(secretId, 'Replicate token');
    return replicateApi({ token, baseUrl: process.env.REPLICATE_API_URL || DEFAULT_REPLICATE_API_URL });
  })();
  fromEnv.catch(() => (fromEnv = undefined));
  return fromEnv;
}
