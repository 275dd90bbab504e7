import Replicate from 'replicate';
import { secretValue } from '../shared/secrets';

/**
 * The training wing's Replicate calls: destination models, trainings, the deletion of versions,
 * and the predictions of a new version's samples, through the `replicate` package. The
 * generation wing's client (functions/generation/replicate.ts) has no training calls; this one
 * keeps to the same rules: the token from Secrets Manager, the API address from
 * REPLICATE_API_URL (the twin's emulator), one attempt per call with a time-out, and a create
 * that Replicate takes no idempotency key for never sent twice by the client: the step that
 * creates records its attempt first and looks for what it made before creating again.
 */

const DEFAULT_REPLICATE_API_URL = 'https://api.replicate.com/v1';
/** One call that hangs this long is given up (the step's retry tries again). */
const ATTEMPT_TIMEOUT_MS = 20_000;
/** A sample image is a few MB at most. */
const MAX_OUTPUT_BYTES = 25 * 1024 * 1024;

type Status = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
const STATUSES: readonly string[] = ['starting', 'processing', 'succeeded', 'failed', 'canceled', 'aborted'];
const FINAL: readonly string[] = ['succeeded', 'failed', 'canceled', 'aborted'];
export const isFinalStatus = (status: string | undefined) => status !== undefined && FINAL.includes(status);

/** The fields of a training the workflow uses, checked. */
export interface ReplicateTraining {
  id: string;
  status: Status;
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

export interface SamplePrediction {
  id: string;
  status: Status;
  /** The first output's URL, once it succeeded. */
  output?: string;
  error: string | null;
}

export interface TrainingApi {
  /** POST /v1/models: a private model of `owner`; `exists` when it was made before (409). */
  createModel(args: { owner: string; name: string; hardware: string; description: string }): Promise<'created' | 'exists'>;
  /** POST /v1/models/{trainer}/versions/{version}/trainings. */
  createTraining(args: { trainer: string; trainerVersion: string; destination: string; input: Record<string, unknown>; webhook: string }): Promise<ReplicateTraining>;
  getTraining(id: string): Promise<ReplicateTraining>;
  cancelTraining(id: string): Promise<void>;
  /** GET /v1/trainings from `createdAfter`, newest first, a few pages at most. */
  listTrainings(createdAfter: Date): Promise<ReplicateTraining[]>;
  /** DELETE /v1/models/{model}/versions/{id}; `gone` when there is no such version any more. */
  deleteVersion(model: string, versionId: string): Promise<'deleted' | 'gone'>;
  /** POST /v1/predictions on a version, waiting a few seconds for it to end. */
  createPrediction(args: { version: string; input: Record<string, unknown> }): Promise<SamplePrediction>;
  getPrediction(id: string): Promise<SamplePrediction>;
  /** GET /v1/webhooks/default/secret: the `whsec_` secret Replicate signs webhooks with. */
  webhookSecret(): Promise<string>;
  /** Downloads an output file (no token is sent with it). */
  download(url: string): Promise<Buffer>;
}

/** A call Replicate refused or did not answer: `status` is the HTTP status, undefined without an answer. */
export class ReplicateCallError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'ReplicateCallError';
  }
}

function describe(err: unknown, what: string): ReplicateCallError {
  if (err instanceof ReplicateCallError) return err;
  const response = (err as { response?: unknown }).response;
  if (response instanceof Response) {
    let detail = '';
    const text = /failed with status \d+[^:]*: ([\s\S]*)\.$/.exec((err as Error).message)?.[1];
    try {
      const body = JSON.parse(text ?? '') as { detail?: unknown; title?: unknown };
      const said = typeof body.detail === 'string' ? body.detail : typeof body.title === 'string' ? body.title : '';
      if (said) detail = `: ${said.slice(0, 200)}`;
    } catch {
      // Not JSON; the status says enough.
    }
    return new ReplicateCallError(`Replicate answered ${response.status} to ${what}${detail}`, response.status);
  }
  return new ReplicateCallError(`Replicate could not be reached for ${what} (${(err as Error)?.name ?? 'error'})`, undefined);
}

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A training as Replicate answers it, checked. */
function toTraining(raw: unknown): ReplicateTraining {
  const t = (raw ?? {}) as Record<string, unknown>;
  if (typeof t.id !== 'string' || !STATUSES.includes(t.status as string)) throw new ReplicateCallError('Replicate answered a training without an id or a known status', undefined);
  const output = (t.output ?? {}) as Record<string, unknown>;
  const metrics = (t.metrics ?? {}) as Record<string, unknown>;
  const urls = (t.urls ?? {}) as Record<string, unknown>;
  const input = t.input && typeof t.input === 'object' && !Array.isArray(t.input) ? (t.input as Record<string, unknown>) : {};
  return {
    id: t.id,
    status: t.status as Status,
    ...(text(output.version) ? { version: text(output.version) } : {}),
    error: t.error === null || t.error === undefined ? null : typeof t.error === 'string' ? t.error : JSON.stringify(t.error),
    input,
    ...(typeof metrics.predict_time === 'number' ? { predictTimeSeconds: metrics.predict_time } : {}),
    ...(text(t.created_at) ? { createdAt: text(t.created_at) } : {}),
    ...(text(t.started_at) ? { startedAt: text(t.started_at) } : {}),
    ...(text(t.completed_at) ? { completedAt: text(t.completed_at) } : {}),
    ...(text(urls.web) ? { webUrl: text(urls.web) } : {}),
  };
}

function toPrediction(raw: unknown): SamplePrediction {
  const p = (raw ?? {}) as Record<string, unknown>;
  if (typeof p.id !== 'string' || !STATUSES.includes(p.status as string)) throw new ReplicateCallError('Replicate answered a prediction without an id or a known status', undefined);
  const output = Array.isArray(p.output) ? p.output.find((o) => typeof o === 'string') : text(p.output);
  return {
    id: p.id,
    status: p.status as Status,
    ...(output ? { output } : {}),
    error: p.error === null || p.error === undefined ? null : typeof p.error === 'string' ? p.error : JSON.stringify(p.error),
  };
}

const ID = /^[A-Za-z0-9_-]{1,100}$/;
const MODEL = /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/;
const VERSION = /^[a-f0-9]{64}$/;
const checked = (value: string, pattern: RegExp, what: string) => {
  if (!pattern.test(value)) throw new ReplicateCallError(`${what} is not a Replicate ${what}`, undefined);
  return value;
};

export interface TrainingApiOptions {
  token: string;
  baseUrl?: string;
  fetch?: typeof fetch;
}

export function trainingApi(options: TrainingApiOptions): TrainingApi {
  if (!options.token) throw new Error('Replicate token is empty');
  const base = options.fetch ?? fetch;
  const timed: typeof fetch = (input, init) => base(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
  const baseUrl = (options.baseUrl ?? DEFAULT_REPLICATE_API_URL).replace(/\/+$/, '');
  const client = new Replicate({ auth: options.token, baseUrl, fetch: timed, userAgent: 'humanly-marketplace', useFileOutput: false });
  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw describe(err, what);
    }
  };
  let secret: Promise<string> | undefined;

  return {
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
    createTraining({ trainer, trainerVersion, destination, input, webhook }) {
      const [owner, name] = checked(trainer, MODEL, 'model').split('/');
      checked(destination, MODEL, 'model');
      return call('creating a training', async () =>
        toTraining(
          await client.trainings.create(owner, name, checked(trainerVersion, VERSION, 'version'), {
            destination: destination as `${string}/${string}`,
            input,
            webhook,
            webhook_events_filter: ['start', 'completed'],
          }),
        ),
      );
    },
    getTraining(id) {
      return call('reading a training', async () => toTraining(await client.trainings.get(checked(id, ID, 'id'))));
    },
    async cancelTraining(id) {
      await call('canceling a training', () => client.trainings.cancel(checked(id, ID, 'id')));
    },
    listTrainings(createdAfter) {
      return call('listing trainings', async () => {
        const found: ReplicateTraining[] = [];
        let page = (await (await client.request('/trainings', { method: 'GET', params: { created_after: createdAfter.toISOString() } })).json()) as { results?: unknown; next?: unknown };
        for (let n = 1; ; n++) {
          if (!Array.isArray(page.results)) throw new ReplicateCallError('Replicate answered a list without results', undefined);
          found.push(...page.results.map(toTraining));
          if (typeof page.next !== 'string' || !page.next || n >= 5) return found;
          const next = new URL(page.next, `${baseUrl}/`);
          if (next.origin !== new URL(baseUrl).origin) throw new ReplicateCallError('Replicate answered a next page on another host', undefined);
          page = (await (await client.request(next, { method: 'GET' })).json()) as { results?: unknown; next?: unknown };
        }
      });
    },
    async deleteVersion(model, versionId) {
      try {
        // The package has no models.versions.delete; its request() sends the documented call.
        await client.request(`/models/${checked(model, MODEL, 'model')}/versions/${checked(versionId, VERSION, 'version')}`, { method: 'DELETE' });
        return 'deleted';
      } catch (err) {
        const e = describe(err, 'deleting a version');
        if (e.status === 404) return 'gone';
        throw e;
      }
    },
    createPrediction({ version, input }) {
      return call('creating a prediction', async () => toPrediction(await client.predictions.create({ version: checked(version, VERSION, 'version'), input, wait: 10 })));
    },
    getPrediction(id) {
      return call('reading a prediction', async () => toPrediction(await client.predictions.get(checked(id, ID, 'id'))));
    },
    webhookSecret() {
      secret ??= call('reading the webhook secret', async () => {
        const { key } = await client.webhooks.default.secret.get();
        if (typeof key !== 'string' || !key.startsWith('whsec_')) throw new ReplicateCallError('Replicate answered a webhook secret that is not whsec_...', undefined);
        return key;
      });
      secret.catch(() => (secret = undefined));
      return secret;
    },
    async download(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new ReplicateCallError('Output URL is not a URL', undefined);
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new ReplicateCallError('Output URL must be http(s)', undefined);
      const response = await timed(parsed, { method: 'GET' }).catch((err: unknown) => {
        throw describe(err, 'downloading an output');
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new ReplicateCallError(`Replicate answered ${response.status} to downloading an output`, response.status);
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      if (bytes.length > MAX_OUTPUT_BYTES) throw new ReplicateCallError('Output is larger than an image can be', response.status);
      return bytes;
    },
  };
}

let fromEnv: Promise<TrainingApi> | undefined;

/** The token from Secrets Manager (env REPLICATE_TOKEN_SECRET, cached per container) and REPLICATE_API_URL. */
export function trainingApiFromEnv(): Promise<TrainingApi> {
  fromEnv ??= (async () => {
    const secretId = process.env.REPLICATE_TOKEN_SECRET;
    if (!secretId) throw new Error('Invalid function configuration: REPLICATE_TOKEN_SECRET is not set');
    const token = await secretValue(secretId, 'Replicate token');
    return trainingApi({ token, baseUrl: process.env.REPLICATE_API_URL || DEFAULT_REPLICATE_API_URL });
  })();
  fromEnv.catch(() => (fromEnv = undefined));
  return fromEnv;
}
