// Trainings on Replicate's paths: `POST /v1/models/{owner}/{name}/versions/{version}/trainings`
// with a trainer's version, a `destination` model of the account, the trainer's `input`, a webhook
// and its events filter; get, list and cancel. A training goes starting -> processing ->
// succeeded (or failed / canceled) on timers, as predictions do. On `processing` it downloads its
// `input_images` zip and refuses one it cannot fetch, that is not a zip, or that holds fewer than
// 10 images, as the trainer does; on success it adds a version to the destination, whose
// predictions' previews are drawn from the set's first image. Nothing is trained.
import type { Page, Training } from 'replicate';
import type { Faults } from './faults';
import type { Models } from './models';
import { ApiProblem, createdWindow, type Files, invalidInput, isFinal, isoOrNull, notFound, pageOf, readWebhook, replicateId, type ReplicateStatus, type Timers, VERSION_ID, type WebhookEvent } from './shared';
import { downloadTrainingSet, readTrainingSet, type TrainingSet, TrainingSetError, weightsArchive } from './training-set';
import type { WebhookSender } from './webhooks';

export interface TrainingLatency {
  /** From creation to `processing` (when the training set is downloaded and checked). */
  startingMs: number;
  /** From `processing` to the final status (at least until the set has been checked). */
  processingMs: number;
}

/** What the emulator holds of one training (tests read it through `trainings()`). */
export interface EmulatedTraining {
  id: string;
  /** The trainer, `owner/name`, and its version. */
  model: string;
  version: string;
  /** The model the new version goes to, `owner/name`. */
  destination: string;
  input: Record<string, unknown>;
  status: ReplicateStatus;
  webhook?: string;
  webhookEventsFilter: WebhookEvent[];
  /** Webhooks the receiver accepted (2xx), by event, in order. */
  webhooksDelivered: WebhookEvent[];
  /** On success: the new version (`owner/name:id`) and the weights' URL. */
  output: { version: string; weights: string } | null;
  error: string | null;
  logs: string;
  createdAt: number;
  startedAt?: number;
  completedAt?: number;
}

interface Live extends EmulatedTraining {
  timers: NodeJS.Timeout[];
  loseEvents: Set<WebhookEvent>;
  fail: boolean;
  neverFinish: boolean;
}

/** The trainer the emulator knows unless told others: any version of it trains. */
export const DEFAULT_TRAINER = 'ostris/flux-dev-lora-trainer';
const MAX_STEPS = 6000;

export interface TrainingDeps {
  timers: Timers;
  faults: Faults;
  webhooks: WebhookSender;
  files: Files;
  models: Models;
  /** Trainer models (`owner/name`); any 64-hex version of one is accepted. */
  trainers: readonly string[];
  endpoint: () => string;
  latency: () => TrainingLatency;
  log: (line: string) => void;
}

export class Trainings {
  private readonly trainings = new Map<string, Live>();

  constructor(private readonly deps: TrainingDeps) {}

  /** `POST /v1/models/{owner}/{name}/versions/{version}/trainings`. */
  create(trainer: string, trainerVersion: string, body: Record<string, unknown>): Training {
    if (!VERSION_ID.test(trainerVersion)) throw notFound();
    if (!this.deps.trainers.includes(trainer)) {
      throw new ApiProblem(422, 'Invalid version', `${trainer} is not a trainer this emulator runs (it runs ${this.deps.trainers.join(', ')})`);
    }
    const { destination } = body;
    if (typeof destination !== 'string' || !/^[^/\s]+\/[^/\s]+$/.test(destination)) throw invalidInput('destination: an owner/name of a model is required');
    if (!this.deps.models.exists(destination)) throw notFound('The specified training destination does not exist');
    const input = body.input;
    if (!input || typeof input !== 'object' || Array.isArray(input)) throw invalidInput('input: an object is required');
    const inp = input as Record<string, unknown>;
    let imagesUrl: URL | undefined;
    try {
      imagesUrl = typeof inp.input_images === 'string' ? new URL(inp.input_images) : undefined;
    } catch {
      imagesUrl = undefined;
    }
    if (!imagesUrl || !['http:', 'https:'].includes(imagesUrl.protocol)) throw invalidInput('input.input_images: the URL of a zip of images is required');
    if (inp.trigger_word !== undefined && (typeof inp.trigger_word !== 'string' || inp.trigger_word.trim() === '')) {
      throw invalidInput('input.trigger_word: a non-empty string');
    }
    if (inp.steps !== undefined && (!Number.isInteger(inp.steps) || (inp.steps as number) < 3 || (inp.steps as number) > MAX_STEPS)) {
      throw invalidInput(`input.steps: an integer from 3 to ${MAX_STEPS}`);
    }
    if (inp.autocaption !== undefined && typeof inp.autocaption !== 'boolean') throw invalidInput('input.autocaption: true or false');
    const { webhook, filter } = readWebhook(body);
    const { faults } = this.deps;
    const about = { destination };
    const lose = faults.take(['training-lose-webhook'], about);
    const t: Live = {
      id: replicateId(),
      model: trainer,
      version: trainerVersion,
      destination,
      input: inp,
      status: 'starting',
      webhook,
      webhookEventsFilter: filter,
      webhooksDelivered: [],
      output: null,
      error: null,
      logs: '',
      createdAt: Date.now(),
      timers: [],
      loseEvents: new Set(lose ? (lose.events ?? ['start', 'logs', 'completed']) : []),
      fail: Boolean(faults.take(['training-failed'], about)),
      neverFinish: Boolean(faults.take(['training-never-finish'], about)),
    };
    this.trainings.set(t.id, t);
    this.deps.log(`${t.id}: training ${destination} with ${trainer}`);
    this.run(t);
    return this.publicView(t);
  }

  get(id: string): Training {
    return this.publicView(this.held(id));
  }

  /** The training's status and logs, for `/p/{id}`; undefined when there is none. */
  find(id: string): Training | undefined {
    const t = this.trainings.get(id);
    return t && this.publicView(t);
  }

  cancel(id: string): Training {
    const t = this.held(id);
    if (!isFinal(t.status)) this.appendLog(t, 'Canceled');
    this.finish(t, 'canceled');
    return this.publicView(t);
  }

  /** `GET /v1/trainings`: newest first, 100 a page, as the predictions' list. */
  list(url: URL): Page<Training> {
    const inWindow = createdWindow(url);
    const matching = [...this.trainings.values()].filter((t) => inWindow(t.createdAt)).sort((a, b) => b.createdAt - a.createdAt);
    const page = pageOf(matching, url, this.deps.endpoint());
    return { ...page, results: page.results.map((t) => this.listedView(t)) };
  }

  /** A deleted version's weights are gone too. */
  deleteVersion(destination: string, versionId: string): void {
    for (const t of this.trainings.values()) {
      if (t.output?.version === `${destination}:${versionId}`) this.deps.files.delete(new URL(t.output.weights).pathname);
    }
  }

  records(): EmulatedTraining[] {
    return [...this.trainings.values()].map(({ timers: _t, loseEvents: _l, fail: _f, neverFinish: _n, ...t }) => ({
      ...t,
      input: { ...t.input },
      webhooksDelivered: [...t.webhooksDelivered],
      output: t.output && { ...t.output },
    }));
  }

  private held(id: string): Live {
    const t = this.trainings.get(id);
    if (!t) throw notFound();
    return t;
  }

  /** A training as `GET /v1/trainings/{id}` and the webhooks carry it, in the `replicate` package's type. */
  private publicView(t: Live): Training {
    const endpoint = this.deps.endpoint();
    return {
      id: t.id,
      model: t.model,
      version: t.version,
      input: t.input,
      // Replicate sends null until the training has succeeded (the package types it optional).
      output: (t.output ?? null) as Training['output'],
      logs: t.logs,
      error: t.error,
      status: t.status,
      source: 'api',
      created_at: new Date(t.createdAt).toISOString(),
      started_at: isoOrNull(t.startedAt),
      completed_at: isoOrNull(t.completedAt),
      urls: {
        get: `${endpoint}/v1/trainings/${t.id}`,
        cancel: `${endpoint}/v1/trainings/${t.id}/cancel`,
        web: `${endpoint}/p/${t.id}`,
      },
      metrics:
        t.completedAt && t.startedAt ? { predict_time: (t.completedAt - t.startedAt) / 1000, total_time: (t.completedAt - t.createdAt) / 1000 } : {},
      webhook: t.webhook,
      webhook_events_filter: t.webhookEventsFilter,
    };
  }

  /** As the list gives it: no logs, no webhook. */
  private listedView(t: Live): Training {
    const { logs: _logs, webhook: _webhook, webhook_events_filter: _filter, ...listed } = this.publicView(t);
    return listed;
  }

  private send(t: Live, event: WebhookEvent): void {
    this.deps.webhooks.send(t, event, () => this.publicView(t));
  }

  private appendLog(t: Live, line: string): void {
    t.logs += `${line}\n`;
  }

  private finish(t: Live, status: 'succeeded' | 'failed' | 'canceled', error: string | null = null): void {
    if (isFinal(t.status)) return;
    this.deps.timers.cancel(t.timers);
    t.status = status;
    t.error = error;
    t.completedAt = Date.now();
    t.startedAt ??= t.completedAt;
    this.deps.log(`${t.id}: ${status}${error ? ` (${error})` : ''}`);
    this.send(t, 'completed');
  }

  /** Downloads and checks the training set; a refusal fails the training at once, as the trainer does. */
  private async prepare(t: Live): Promise<TrainingSet | undefined> {
    const url = String(t.input.input_images);
    this.appendLog(t, `Downloading input_images from ${new URL(url).host}`);
    try {
      const set = await readTrainingSet(await downloadTrainingSet(url));
      if (t.status !== 'processing') return undefined;
      this.appendLog(t, `Found ${set.images.length} images and ${set.captions} captions`);
      this.appendLog(t, `Training ${t.destination} with trigger word ${this.triggerWord(t)} for ${t.input.steps ?? 1000} steps (local preview: no weights are trained)`);
      this.send(t, 'logs');
      return set;
    } catch (err) {
      if (!(err instanceof TrainingSetError)) throw err;
      if (t.status === 'processing' && !this.deps.timers.stopped) {
        this.appendLog(t, `Error: ${err.message}`);
        this.finish(t, 'failed', err.message);
      }
      return undefined;
    }
  }

  private triggerWord(t: Live): string {
    return typeof t.input.trigger_word === 'string' ? t.input.trigger_word : 'TOK';
  }

  private succeed(t: Live, set: TrainingSet): void {
    const versionId = this.deps.models.addVersion(t.destination, { trainingId: t.id, triggerWord: this.triggerWord(t), images: set.images.length, subject: set.subject });
    const weights = `/files/${t.id}/trained_model.tar`;
    const note = `Local preview of ${t.destination}:${versionId}, from ${set.images.length} images with trigger word ${this.triggerWord(t)}: no weights were trained.\n`;
    this.deps.files.put(weights, weightsArchive(note), 'application/x-tar');
    t.output = { version: `${t.destination}:${versionId}`, weights: `${this.deps.endpoint()}${weights}` };
    this.appendLog(t, `Version ${versionId} added to ${t.destination}`);
    this.finish(t, 'succeeded');
  }

  private run(t: Live): void {
    const { timers, log } = this.deps;
    const lat = this.deps.latency();
    // After the creation's answer has gone, as on Replicate.
    timers.later(0, () => this.send(t, 'start'));
    t.timers.push(
      timers.later(lat.startingMs, () => {
        if (t.status !== 'starting') return;
        t.status = 'processing';
        t.startedAt = Date.now();
        log(`${t.id}: processing`);
        const prepared = this.prepare(t).catch((err: unknown) => {
          if (!timers.stopped) this.finish(t, 'failed', `Reading input_images failed: ${(err as Error).message}`);
          return undefined;
        });
        if (t.neverFinish) return;
        t.timers.push(
          timers.later(lat.processingMs, () => {
            void prepared.then((set) => {
              if (t.status !== 'processing' || !set || timers.stopped) return;
              if (t.fail) {
                this.appendLog(t, 'Error: the trainer crashed (emulated failure)');
                this.finish(t, 'failed', 'The trainer crashed while training (emulated failure)');
              } else this.succeed(t, set);
            });
          }),
        );
      }),
    );
  }
}
