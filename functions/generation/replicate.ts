import Replicate from 'replicate';
import { secretValue } from '../shared/secrets';

/**
 * The Replicate client of the generation workflow: the `replicate` package for the API's
 * shapes, with a fetch of ours underneath that retries what is worth retrying (429, 5xx and
 * network errors) with full-jitter backoff, honours Retry-After, and gives up after a bounded
 * number of attempts. A create is the exception: Replicate takes no idempotency key, so a create
 * whose answer is unsure (no answer, a 5xx) is never sent again here; the caller finds out
 * whether it was made (`listPredictions`, decision 038). The workflow sees these calls and one
 * error type.
 */

type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';

export interface Prediction {
  id: string;
  status: PredictionStatus;
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
  /**
   * GET /v1/predictions with `created_after` / `created_before` (ISO 8601), newest first, 100 a
   * page; follows the pages up to `maxPages` (a bound: the window is meant to be minutes wide).
   */
  listPredictions(window: { createdAfter: Date; createdBefore?: Date; maxPages?: number }): Promise<ListedPrediction[]>;
  cancelPrediction(id: string): Promise<Prediction>;
  /** GET /v1/webhooks/default/secret -> 'whsec_...', cached per container. */
  webhookSecret(): Promise<string>;
  /** Downloads one output URL (retried like the API calls). */
  fetchOutput(url: string): Promise<Buffer>;
}

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
}

const DEFAULT_REPLICATE_API_URL = 'https://api.replicate.com/v1';
const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 5_000 };
/** One attempt that hangs this long counts as a network error (and is retried). */
const ATTEMPT_TIMEOUT_MS = 15_000;
/** Replicate refuses a Cancel-After shorter than this. */
const MIN_CANCEL_AFTER_SECONDS = 5;
/** The longest `Prefer: wait` we ask for: well inside one attempt's time-out. */
const MAX_WAIT_SECONDS = 10;
/** Generated images are a few MB at most; anything larger is not an image we asked for. */
const MAX_OUTPUT_BYTES = 25 * 1024 * 1024;

/**
 * A Replicate call that did not succeed. `status` is the HTTP status of the last answer
 * (undefined when no answer came); `retryable` says whether trying again later may help;
 * `unsure` marks a create that may have been made although no good answer came (no answer, or
 * a 5xx): its retry must look for the prediction before creating another.
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
 * done): for a create, whose repeat after a lost answer would make a second billed prediction.
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

/** The detail Replicate gives with an error answer ({"detail": "..."}), without echoing inputs.
 *  `unsureOn5xx`: a create answered 5xx may have been made all the same. */
function describe(err: unknown, what: string, unsureOn5xx = false): ReplicateError {
  if (err instanceof ReplicateError) return err;
  const response = (err as { response?: unknown }).response;
  if (response instanceof Response) {
    // The package has read the body into its message: "... failed with status 422 ...: {body}."
    let detail = '';
    const text = /failed with status \d+[^:]*: ([\s\S]*)\.$/.exec((err as Error).message)?.[1];
    try {
      const body = JSON.parse(text ?? '') as { detail?: unknown; title?: unknown };
      if (typeof body.detail === 'string') detail = `: ${body.detail.slice(0, 200)}`;
      else if (typeof body.title === 'string') detail = `: ${body.title.slice(0, 200)}`;
    } catch {
      // Not JSON; the status says enough.
    }
    return new ReplicateError(
      `Replicate answered ${response.status} to ${what}${detail}`,
      response.status,
      isRetryableStatus(response.status),
      unsureOn5xx && response.status >= 500,
    );
  }
  return new ReplicateError(`Replicate failed on ${what} (${(err as Error).name ?? 'error'})`, undefined, true, unsureOn5xx);
}

const STATUSES = new Set<PredictionStatus>(['starting', 'processing', 'succeeded', 'failed', 'canceled', 'aborted']);

/** The fields the workflow uses, checked, from a prediction as Replicate answers it. */
export function toPrediction(raw: unknown): Prediction {
  const p = (raw ?? {}) as Record<string, unknown>;
  if (typeof p.id !== 'string' || !STATUSES.has(p.status as PredictionStatus)) {
    throw new ReplicateError('Replicate answered a prediction without an id or a known status', undefined, false);
  }
  const output = p.output;
  const outputs =
    typeof output === 'string' ? output : Array.isArray(output) && output.every((o) => typeof o === 'string') ? (output as string[]) : null;
  const error = p.error === null || p.error === undefined ? null : typeof p.error === 'string' ? p.error : JSON.stringify(p.error);
  return { id: p.id, status: p.status as PredictionStatus, output: outputs, error };
}

/** A listed prediction, checked: the fields that tell ours apart. */
function toListedPrediction(raw: unknown): ListedPrediction {
  const p = (raw ?? {}) as Record<string, unknown>;
  const input = p.input && typeof p.input === 'object' && !Array.isArray(p.input) ? (p.input as Record<string, unknown>) : {};
  return {
    ...toPrediction(raw),
    model: typeof p.model === 'string' ? p.model : '',
    version: typeof p.version === 'string' ? p.version : '',
    createdAt: typeof p.created_at === 'string' ? p.created_at : '',
    input,
    ...(typeof p.webhook === 'string' ? { webhook: p.webhook } : {}),
  };
}

const PREDICTION_ID = /^[A-Za-z0-9_-]{1,100}$/;
const MODEL = /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/;
const VERSION = /^[A-Za-z0-9]{1,128}$/;

export function replicateApi(options: ReplicateOptions): ReplicateApi {
  if (!options.token) throw new Error('Replicate token is empty');
  const sleep = options.sleep ?? sleepFor;
  const baseFetch = options.fetch ?? fetch;
  const apiFetch = retryingFetch(baseFetch, options.retry, sleep);
  const baseUrl = (options.baseUrl ?? DEFAULT_REPLICATE_API_URL).replace(/\/+$/, '');
  const client = new Replicate({ auth: options.token, baseUrl, fetch: apiFetch, userAgent: 'humanly-marketplace' });
  // Creates go through a client that retries a 429 only (see retryingFetch).
  const creator = new Replicate({ auth: options.token, baseUrl, fetch: retryingFetch(baseFetch, options.retry, sleep, Math.random, true), userAgent: 'humanly-marketplace' });
  let secret: Promise<string> | undefined;

  const call = async <T>(what: string, run: () => Promise<T>, unsureOn5xx = false): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw describe(err, what, unsureOn5xx);
    }
  };
  const predictionId = (id: string): string => {
    if (!PREDICTION_ID.test(id)) throw new ReplicateError('Prediction id is not a Replicate id', undefined, false);
    return id;
  };

  return {
    async createPrediction(args) {
      if (args.model !== undefined && !MODEL.test(args.model)) throw new ReplicateError("Model must be 'owner/name'", undefined, false);
      if (args.version !== undefined && !VERSION.test(args.version)) throw new ReplicateError('Version must be a version id', undefined, false);
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
      // The package's predictions.create cannot send Cancel-After; its request() can.
      const route = args.model ? `/models/${args.model}/predictions` : '/predictions';
      if (args.version) data.version = args.version;
      return call('creating a prediction', async () => toPrediction(await (await creator.request(route, { method: 'POST', headers, data })).json()), true);
    },
    getPrediction(id) {
      return call('reading a prediction', async () => toPrediction(await client.predictions.get(predictionId(id))));
    },
    listPredictions({ createdAfter, createdBefore, maxPages = 10 }) {
      return call('listing predictions', async () => {
        const found: ListedPrediction[] = [];
        const params: Record<string, string> = { created_after: createdAfter.toISOString() };
        if (createdBefore) params.created_before = createdBefore.toISOString();
        let page: { results?: unknown; next?: unknown } = await (await client.request('/predictions', { method: 'GET', params })).json();
        for (let n = 1; ; n++) {
          if (!Array.isArray(page.results)) throw new ReplicateError('Replicate answered a list without results', undefined, false);
          found.push(...page.results.map(toListedPrediction));
          if (typeof page.next !== 'string' || !page.next || n >= maxPages) return found;
          // The next page's address comes from Replicate; the token goes to Replicate's API only.
          const next = new URL(page.next, `${baseUrl}/`);
          if (next.origin !== new URL(baseUrl).origin) throw new ReplicateError('Replicate answered a next page on another host', undefined, false);
          page = await (await client.request(next, { method: 'GET' })).json();
        }
      });
    },
    cancelPrediction(id) {
      return call('canceling a prediction', async () => toPrediction(await client.predictions.cancel(predictionId(id))));
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
      const response = await retryingFetch(baseFetch, options.retry, sleep)(parsed, { method: 'GET' });
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
