// Replicate: our own emulator of the parts of Replicate's HTTP API the product calls (decision
// 028), an in-process HTTP server. Predictions go starting -> processing -> succeeded (or failed /
// canceled) on timers, webhooks are signed the Standard Webhooks way with the secret Replicate
// serves, outputs are files on the emulator that expire, and the images are local previews
// rendered with sharp, marked as such on every image. Models of the account, their versions and
// trainings follow Replicate's paths too: a training checks its zip of photos as the trainer does
// and adds a version whose previews are drawn from the set's first photo. The parts: predictions.ts,
// trainings.ts (and training-set.ts), models.ts, webhooks.ts, faults.ts, preview.ts, api.ts.
import { randomBytes, randomInt } from 'node:crypto';
import * as http from 'node:http';
import * as path from 'node:path';
import { DEFAULT_INDUSTRY_CLASSIFIER_MODEL } from '../../../../events/industries';
import { endpointFor, LOOPBACK, resolvePort, withFreshPortOnClash, type EmulatorHandle, type EmulatorOptions } from '../ports';
import { replicateApi } from './api';
import { Faults, type ReplicateFault } from './faults';
import { type EmulatedModel, Models } from './models';
import { type EmulatedPrediction, Predictions, type ReplicateLatency } from './predictions';
import { ApiProblem, Files, Timers } from './shared';
import { DEFAULT_TRAINER, type EmulatedTraining, type TrainingLatency, Trainings } from './trainings';
import { WebhookSender } from './webhooks';

export type { ReplicateLatency } from './predictions';
export { DEFAULT_TRAINER } from './trainings';

/** The account the emulator's token belongs to, unless told another: the owner of the models it creates. */
const DEFAULT_ACCOUNT = 'humanly';

/** The test handle of the emulator (`twin.replicate`). */
export interface ReplicateControl {
  inject(fault: ReplicateFault): void;
  /** Faults, the latency of predictions and trainings, and the creation limit back to the defaults. */
  clear(): void;
  setLatency(latency: Partial<ReplicateLatency>): void;
  setTrainingLatency(latency: Partial<TrainingLatency>): void;
  /** Replicate's limit of prediction creations a minute for the token (600 unless told another); past it a create answers 429 with Retry-After. */
  setCreationLimit(perMinute: number): void;
  /** Every accepted prediction creation's time (ms since the epoch), the creates answered 429, and the limit. */
  creations(): CreationLog;
  predictions(): EmulatedPrediction[];
  trainings(): EmulatedTraining[];
  /** Every model the API created, with its versions (deleted ones marked). */
  models(): EmulatedModel[];
  /** Every output delivered so far answers 404 from now on, as after Replicate's hour. */
  expireOutputs(): void;
  /** The API token the emulator accepts. */
  readonly token: string;
  /** The account the token belongs to: models are created under it (`GET /v1/account`). */
  readonly account: string;
  /** The signing secret (`whsec_...`), as `GET /v1/webhooks/default/secret` serves it. */
  readonly webhookSecret: string;
}

export interface ReplicateEmulator extends EmulatorHandle, ReplicateControl {}

/** What the emulator counted of prediction creations (its limit is per token, as Replicate's). */
interface CreationLog {
  creationsPerMinute: number;
  accepted: number[];
  throttled: number;
}

export interface ReplicateOptions extends EmulatorOptions {
  /** The only API token accepted (Bearer), shaped as Replicate's (`r8_` and 37 letters and digits); a random one when absent. */
  token?: string;
  /** The token's account, the owner of the models it may create (default `humanly`). */
  account?: string;
  latency?: Partial<ReplicateLatency>;
  trainingLatency?: Partial<TrainingLatency>;
  /** Trainer models, `owner/name`, whose versions train (default: ostris/flux-dev-lora-trainer). */
  trainers?: string[];
  /** How long outputs can be downloaded after the prediction finished (Replicate: one hour). */
  outputTtlMs?: number;
  /** Pauses between attempts of the `completed` webhook (Replicate retries it for about a minute). */
  webhookRetryDelaysMs?: number[];
  /** Where talents' pictures are, `<id>.svg` (the site's public talent folder by default). */
  talentImagesDir?: string;
  /** Creations a minute before 429 (Replicate: 600). */
  creationsPerMinute?: number;
  /**
   * The language model the industry check asks (decision 039): its predictions answer, from the
   * word lists of events/industries.ts, which refused industry the quoted prompt is about, or
   * "none", as tokens the way Replicate's language models stream them.
   */
  classifierModel?: string;
  log?: (line: string) => void;
}

const DEFAULT_LATENCY: ReplicateLatency = { startingMs: 200, processingMs: 1000, jitterMs: 0 };
const DEFAULT_TRAINING_LATENCY: TrainingLatency = { startingMs: 200, processingMs: 1500 };
const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];
const HOUR_MS = 60 * 60 * 1000;
/** Replicate's API tokens: `r8_` and 37 letters and digits. */
const TOKEN_SHAPE = /^r8_[A-Za-z0-9]{37}$/;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newToken = () => `r8_${Array.from({ length: 37 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('')}`;

function checkedLatency<T extends object>(next: Partial<T>): Partial<T> {
  for (const [k, v] of Object.entries(next)) {
    if (!Number.isFinite(v) || (v as number) < 0) throw new Error(`Latency ${k} must be a number of milliseconds of at least 0, got ${v}`);
  }
  return next;
}

export async function startReplicate(options: ReplicateOptions = {}): Promise<ReplicateEmulator> {
  const token = options.token ?? newToken();
  if (!TOKEN_SHAPE.test(token)) {
    throw new Error(`The Replicate emulator takes an API token shaped as Replicate's, r8_ and 37 letters and digits; got one starting ${JSON.stringify(token.slice(0, 3))}`);
  }
  const account = options.account ?? DEFAULT_ACCOUNT;
  const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const log = options.log ?? (options.verbose ? (line: string) => console.log(`[replicate] ${line}`) : () => undefined);
  let latency: ReplicateLatency = { ...DEFAULT_LATENCY, ...options.latency };
  let trainingLatency: TrainingLatency = { ...DEFAULT_TRAINING_LATENCY, ...options.trainingLatency };
  let endpoint = '';

  const timers = new Timers();
  const faults = new Faults();
  const files = new Files();
  const webhooks = new WebhookSender(webhookSecret, options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS, timers, log);
  const models: Models = new Models(account, () => endpoint, (model) => predictions.runCount(model));
  const common = { timers, faults, webhooks, files, models, endpoint: () => endpoint, log };
  const predictions = new Predictions({
    ...common,
    latency: () => latency,
    outputTtlMs: options.outputTtlMs ?? HOUR_MS,
    creationsPerMinute: options.creationsPerMinute ?? 600,
    classifierModel: options.classifierModel ?? DEFAULT_INDUSTRY_CLASSIFIER_MODEL,
    talentImagesDir: options.talentImagesDir ?? path.resolve(__dirname, '../../../../web/public/talent'),
  });
  const trainings = new Trainings({ ...common, latency: () => trainingLatency, trainers: options.trainers ?? [DEFAULT_TRAINER] });
  const api = replicateApi({ token, webhookSecret, faults, files, models, predictions, trainings, stopped: () => timers.stopped, log });

  /**
   * The test handle over HTTP (`replicateControlClient`), for test files whose twin runs in
   * another process: loopback only, never part of Replicate's API.
   */
  const control = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string, method: string): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    const done = (result: unknown = null): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }));
    try {
      if (method === 'POST' && pathname === '/_emulator/inject') return done(handle.inject(body));
      if (method === 'POST' && pathname === '/_emulator/clear') return done(handle.clear());
      if (method === 'POST' && pathname === '/_emulator/latency') return done(handle.setLatency(body));
      if (method === 'POST' && pathname === '/_emulator/training-latency') return done(handle.setTrainingLatency(body));
      if (method === 'POST' && pathname === '/_emulator/expire-outputs') return done(handle.expireOutputs());
      if (method === 'POST' && pathname === '/_emulator/creation-limit') return done(handle.setCreationLimit(body.creationsPerMinute));
      if (method === 'GET' && pathname === '/_emulator/creations') return done(handle.creations());
      if (method === 'GET' && pathname === '/_emulator/predictions') return done(handle.predictions());
      if (method === 'GET' && pathname === '/_emulator/trainings') return done(handle.trainings());
      if (method === 'GET' && pathname === '/_emulator/models') return done(handle.models());
    } catch (err) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (err as Error).message }));
      return;
    }
    throw new ApiProblem(404, 'Not found', `The emulator has no control ${method} ${pathname}`);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const answer = url.pathname.startsWith('/_emulator/') ? control(req, res, url.pathname, method) : api(req, res, url, method);
    answer.catch((err) => {
      if (res.headersSent) return;
      if (err instanceof ApiProblem) {
        res.writeHead(err.status, { 'content-type': 'application/problem+json', ...err.headers });
        res.end(JSON.stringify({ title: err.title, detail: err.message, status: err.status }));
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ title: 'Internal error', detail: (err as Error).message, status: 500 }));
    });
  });
  server.keepAliveTimeout = 60_000;

  const port = await withFreshPortOnClash(options.port, async () => {
    const p = await resolvePort(options.port);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, LOOPBACK, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return p;
  });
  endpoint = endpointFor(port);

  const handle: ReplicateEmulator = {
    endpoint,
    port,
    token,
    account,
    webhookSecret,
    inject: (fault) => faults.inject(fault),
    clear() {
      faults.clear();
      predictions.setCreationLimit(options.creationsPerMinute ?? 600);
      latency = { ...DEFAULT_LATENCY, ...options.latency };
      trainingLatency = { ...DEFAULT_TRAINING_LATENCY, ...options.trainingLatency };
    },
    setLatency(next) {
      latency = { ...latency, ...checkedLatency(next) };
    },
    setTrainingLatency(next) {
      trainingLatency = { ...trainingLatency, ...checkedLatency(next) };
    },
    setCreationLimit: (perMinute) => predictions.setCreationLimit(perMinute),
    creations: () => predictions.creationLog(),
    predictions: () => predictions.records(),
    trainings: () => trainings.records(),
    models: () => models.all(),
    expireOutputs: () => files.expireAll(),
    async stop() {
      timers.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return handle;
}

/** The test handle of an emulator in another process, through its `/_emulator/` routes. */
export interface ReplicateControlClient {
  inject(fault: ReplicateFault): Promise<void>;
  clear(): Promise<void>;
  setLatency(latency: Partial<ReplicateLatency>): Promise<void>;
  setTrainingLatency(latency: Partial<TrainingLatency>): Promise<void>;
  setCreationLimit(perMinute: number): Promise<void>;
  creations(): Promise<CreationLog>;
  predictions(): Promise<EmulatedPrediction[]>;
  trainings(): Promise<EmulatedTraining[]>;
  models(): Promise<EmulatedModel[]>;
  expireOutputs(): Promise<void>;
}

export function replicateControlClient(endpoint: string): ReplicateControlClient {
  const call = async (method: 'GET' | 'POST', op: string, body?: unknown) => {
    const res = await fetch(`${endpoint}/_emulator/${op}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.json()) as { result?: unknown; error?: string };
    if (!res.ok) throw new Error(answer.error ?? `the Replicate emulator answered ${res.status} to ${op}`);
    return answer.result;
  };
  return {
    inject: async (fault) => void (await call('POST', 'inject', fault)),
    clear: async () => void (await call('POST', 'clear', {})),
    setLatency: async (latency) => void (await call('POST', 'latency', latency)),
    setTrainingLatency: async (latency) => void (await call('POST', 'training-latency', latency)),
    setCreationLimit: async (perMinute) => void (await call('POST', 'creation-limit', { creationsPerMinute: perMinute })),
    creations: async () => (await call('GET', 'creations')) as CreationLog,
    predictions: async () => (await call('GET', 'predictions')) as EmulatedPrediction[],
    trainings: async () => (await call('GET', 'trainings')) as EmulatedTraining[],
    models: async () => (await call('GET', 'models')) as EmulatedModel[],
    expireOutputs: async () => void (await call('POST', 'expire-outputs', {})),
  };
}
