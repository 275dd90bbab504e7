// Predictions (decision 028): create by model or by version, get, list, cancel. A prediction goes
// starting -> processing -> succeeded (or failed / canceled) on timers; its outputs are local
// previews served by the emulator for an hour. A prediction on a trained version (by its id, or
// by its model's name: the latest version) records that version and draws its previews from the
// first photo of the version's training set. The industry classifier's model answers from the
// word lists instead (decision 039).
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import type { Page, Prediction } from 'replicate';
import { industriesIn, readIndustryClassifierInput } from '../../../../events/industries';
import type { Faults } from './faults';
import type { Models, TrainedVersion } from './models';
import { renderPreview } from './preview';
import { ApiProblem, createdWindow, type Files, invalidInput, isFinal, isoOrNull, notFound, pageOf, readWebhook, replicateId, type ReplicateStatus, type Timers, type WebhookEvent } from './shared';
import type { WebhookSender } from './webhooks';

export interface ReplicateLatency {
  /** From creation to `processing`. */
  startingMs: number;
  /** From `processing` to the final status. */
  processingMs: number;
  /** Up to this much more processing, drawn per prediction (spreads finishes in a bench). */
  jitterMs: number;
}

/** What the emulator holds of one prediction (tests read it through `predictions()`). */
export interface EmulatedPrediction {
  id: string;
  model: string;
  /** The version it ran: a trained version's id, or `hidden` for a model run by name. */
  version: string;
  input: Record<string, unknown>;
  status: ReplicateStatus;
  webhook?: string;
  webhookEventsFilter: WebhookEvent[];
  /** Webhooks the receiver accepted (2xx), by event, in order. */
  webhooksDelivered: WebhookEvent[];
  output: string[] | null;
  error: string | null;
  createdAt: number;
  startedAt?: number;
  /** When the prediction reached its final status (ms since the epoch). */
  completedAt?: number;
  /** The Cancel-After deadline, when one was given (ms since the epoch). */
  deadline?: number;
  /** Deleted with its version: gone from the API, kept here for tests. */
  deleted?: true;
}

interface Live extends EmulatedPrediction {
  timers: NodeJS.Timeout[];
  loseEvents: Set<WebhookEvent>;
  fail: boolean;
  neverFinish: boolean;
  /** The create's answer is lost (fault `lose-create-answer`). */
  loseAnswer: boolean;
  /** A trained version's first training photo, the previews' subject. */
  subject?: Buffer;
}

/** A language model answering five tokens is quick next to an image model, whatever the images' latency. */
const CLASSIFIER_LATENCY: ReplicateLatency = { startingMs: 10, processingMs: 40, jitterMs: 0 };
/** Replicate refuses a shorter Cancel-After. */
const MIN_CANCEL_AFTER_MS = 5_000;
/** The preview models: `humanly-preview/<talentId>` renders from the talent's picture. */
const PREVIEW_MODEL_OWNER = 'humanly-preview';
const TALENT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Cancel-After: "90", "30s", "5m", "1h30m" (seconds without a unit). */
function parseDuration(value: string): number | undefined {
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const parts = [...v.matchAll(/(\d+)(h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v) return undefined;
  return parts.reduce((ms, [, n, unit]) => ms + Number(n) * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1_000), 0);
}

export interface PredictionDeps {
  timers: Timers;
  faults: Faults;
  webhooks: WebhookSender;
  files: Files;
  models: Models;
  endpoint: () => string;
  latency: () => ReplicateLatency;
  log: (line: string) => void;
  /** How long outputs can be downloaded after the prediction finished. */
  outputTtlMs: number;
  creationsPerMinute: number;
  classifierModel: string;
  talentImagesDir: string;
}

export type { Live as LivePrediction };

export class Predictions {
  private readonly predictions = new Map<string, Live>();
  private readonly creations: number[] = [];
  /** Every creation Replicate accepted (ms), and the creates it answered 429: what benches read. */
  private readonly accepted: number[] = [];
  private throttled = 0;
  private creationsPerMinute: number;

  constructor(private readonly deps: PredictionDeps) {
    this.creationsPerMinute = deps.creationsPerMinute;
  }

  /** Replicate's limit of creations a minute for the token (600); tests and benches lower it. */
  setCreationLimit(perMinute: number): void {
    if (!Number.isInteger(perMinute) || perMinute < 1) throw new Error(`creationsPerMinute must be a whole number of at least 1, got ${perMinute}`);
    this.creationsPerMinute = perMinute;
  }

  /** The accepted creations' times (ms), the 429s answered to creates, and the limit. */
  creationLog(): { creationsPerMinute: number; accepted: number[]; throttled: number } {
    return { creationsPerMinute: this.creationsPerMinute, accepted: [...this.accepted], throttled: this.throttled };
  }

  /** `POST /v1/models/{owner}/{name}/predictions`: a model the emulator created runs its latest version. */
  createByModel(body: Record<string, unknown>, model: string, headers: http.IncomingHttpHeaders): Live {
    const trained = this.deps.models.latest(model);
    return this.create(body, model, trained ? trained.id : 'hidden', headers, trained);
  }

  /** `POST /v1/predictions` with `version`: an id, or `owner/name:id`. */
  createByVersion(body: Record<string, unknown>, headers: http.IncomingHttpHeaders): Live {
    if (typeof body.version !== 'string' || body.version === '') throw invalidInput('version: required');
    const named = body.version.includes(':');
    const id = named ? body.version.slice(body.version.lastIndexOf(':') + 1) : body.version;
    const trained = this.deps.models.trained(id);
    if (trained?.deleted) throw new ApiProblem(422, 'Invalid version or not permitted', `version: ${id} was deleted`);
    if (trained) return this.create(body, trained.model, id, headers, trained);
    const [model, version] = named ? body.version.split(':') : ['local/model', body.version];
    return this.create(body, model, version, headers);
  }

  get(id: string): Prediction {
    return this.publicView(this.held(id));
  }

  /** The prediction itself, for the create's answer (`Prefer: wait` watches its status). */
  held(id: string): Live {
    const p = this.predictions.get(id);
    if (!p || p.deleted) throw notFound();
    return p;
  }

  cancel(id: string): Prediction {
    const p = this.held(id);
    this.finish(p, 'canceled');
    return this.publicView(p);
  }

  /**
   * `GET /v1/predictions`: newest first, 100 a page, `created_after` (at or after) and
   * `created_before` (before) in ISO 8601; `next` is the following page's URL (a cursor of ours).
   */
  list(url: URL): Page<Prediction> {
    const inWindow = createdWindow(url);
    const matching = [...this.predictions.values()].filter((p) => !p.deleted && inWindow(p.createdAt)).sort((a, b) => b.createdAt - a.createdAt);
    const page = pageOf(matching, url, this.deps.endpoint());
    return { ...page, results: page.results.map((p) => this.listedView(p)) };
  }

  runCount(model: string): number {
    return [...this.predictions.values()].filter((p) => p.model === model).length;
  }

  /** A deleted version takes its predictions and their outputs with it. */
  deleteVersion(version: string): void {
    for (const p of this.predictions.values()) {
      if (p.version !== version) continue;
      this.deps.timers.cancel(p.timers);
      p.deleted = true;
      for (const url of p.output ?? []) this.deps.files.delete(new URL(url).pathname);
    }
  }

  records(): EmulatedPrediction[] {
    return [...this.predictions.values()].map(({ timers: _t, loseEvents: _l, fail: _f, neverFinish: _n, loseAnswer: _a, subject: _s, ...p }) => ({
      ...p,
      input: { ...p.input },
      webhooksDelivered: [...p.webhooksDelivered],
      output: p.output && [...p.output],
    }));
  }

  /** A prediction as `GET /v1/predictions/{id}` and the webhooks carry it, in the `replicate` package's type. */
  publicView(p: Live): Prediction {
    const endpoint = this.deps.endpoint();
    return {
      id: p.id,
      model: p.model,
      version: p.version,
      input: p.input,
      logs: p.status === 'starting' ? '' : `Local preview of ${p.model}${p.version === 'hidden' ? '' : `:${p.version}`}\n`,
      output: p.output,
      data_removed: p.output !== null && p.model !== this.deps.classifierModel && p.output.every((u) => !this.deps.files.has(new URL(u).pathname)),
      error: p.error,
      status: p.status,
      source: 'api',
      created_at: new Date(p.createdAt).toISOString(),
      started_at: isoOrNull(p.startedAt),
      completed_at: isoOrNull(p.completedAt),
      ...(p.deadline && { deadline: new Date(p.deadline).toISOString() }),
      urls: {
        get: `${endpoint}/v1/predictions/${p.id}`,
        cancel: `${endpoint}/v1/predictions/${p.id}/cancel`,
        web: `${endpoint}/p/${p.id}`,
      },
      metrics: p.completedAt && p.startedAt ? { predict_time: (p.completedAt - p.startedAt) / 1000 } : {},
      webhook: p.webhook,
      webhook_events_filter: p.webhookEventsFilter,
    };
  }

  /** The prediction's status and logs, for `/p/{id}`; undefined when there is none. */
  find(id: string): Prediction | undefined {
    const p = this.predictions.get(id);
    return p && !p.deleted ? this.publicView(p) : undefined;
  }

  /**
   * A prediction as `GET /v1/predictions` lists it: the fields Replicate documents for the list
   * (no logs, no webhook), so a caller cannot rely on more than Replicate gives.
   */
  private listedView(p: Live): Prediction {
    const { logs: _logs, webhook: _webhook, webhook_events_filter: _filter, deadline: _deadline, ...listed } = this.publicView(p);
    return listed;
  }

  private create(body: Record<string, unknown>, model: string, version: string, headers: http.IncomingHttpHeaders, trained?: TrainedVersion): Live {
    const now = Date.now();
    const { creations } = this;
    while (creations.length && creations[0] <= now - 60_000) creations.shift();
    if (creations.length >= this.creationsPerMinute) {
      this.throttled++;
      const wait = Math.max(1, Math.ceil((creations[creations.length - this.creationsPerMinute] + 60_000 - now) / 1000));
      throw new ApiProblem(429, 'Request was throttled', `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.`, {
        'retry-after': String(wait),
      });
    }
    const input = body.input;
    if (!input || typeof input !== 'object' || Array.isArray(input)) throw invalidInput('input: an object is required');
    const inp = input as Record<string, unknown>;
    if (typeof inp.prompt !== 'string' || inp.prompt.trim() === '') throw invalidInput('input.prompt: a non-empty string is required');
    if (model === this.deps.classifierModel) {
      if (inp.system_prompt !== undefined && typeof inp.system_prompt !== 'string') throw invalidInput('input.system_prompt: must be a string');
      if (inp.max_tokens !== undefined && (!Number.isInteger(inp.max_tokens) || (inp.max_tokens as number) < 1)) {
        throw invalidInput('input.max_tokens: must be a whole number of at least 1');
      }
    }
    const n = inp.num_outputs ?? 1;
    if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > 4) throw invalidInput('input.num_outputs: must be an integer from 1 to 4');
    if (inp.aspect_ratio !== undefined && inp.aspect_ratio !== '1:1') throw invalidInput('input.aspect_ratio: the local preview renders 1:1 only');
    if (inp.output_format !== undefined && inp.output_format !== 'png') throw invalidInput('input.output_format: the local preview renders png only');
    const { webhook, filter } = readWebhook(body);
    let deadline: number | undefined;
    const cancelAfter = headers['cancel-after'];
    if (typeof cancelAfter === 'string') {
      const ms = parseDuration(cancelAfter);
      if (ms === undefined) throw new ApiProblem(400, 'Invalid Cancel-After', 'Cancel-After: a duration such as 90s, 5m or 1h30m');
      if (ms < MIN_CANCEL_AFTER_MS) throw new ApiProblem(400, 'Invalid Cancel-After', 'Cancel-After: at least 5s');
      deadline = now + ms;
    }
    creations.push(now);
    this.accepted.push(now);
    const about = { model, prompt: inp.prompt };
    const { faults } = this.deps;
    const lose = faults.take(['lose-webhook'], about);
    const p: Live = {
      id: replicateId(),
      model,
      version,
      input: inp,
      status: 'starting',
      webhook,
      webhookEventsFilter: filter,
      webhooksDelivered: [],
      output: null,
      error: null,
      createdAt: now,
      deadline,
      timers: [],
      loseEvents: new Set(lose ? (lose.events ?? ['start', 'completed']) : []),
      fail: Boolean(faults.take(['prediction-failed'], about)),
      neverFinish: Boolean(faults.take(['never-finish'], about)),
      loseAnswer: Boolean(faults.take(['lose-create-answer'], about)),
      subject: trained?.subject,
    };
    this.predictions.set(p.id, p);
    this.deps.log(`${p.id}: created for ${model}${trained ? `:${version}` : ''}`);
    this.run(p);
    return p;
  }

  private send(p: Live, event: WebhookEvent): void {
    this.deps.webhooks.send(p, event, () => this.publicView(p));
  }

  private finish(p: Live, status: 'succeeded' | 'failed' | 'canceled', error: string | null = null): void {
    if (isFinal(p.status)) return;
    this.deps.timers.cancel(p.timers);
    p.status = status;
    p.error = error;
    p.completedAt = Date.now();
    p.startedAt ??= p.completedAt;
    this.deps.log(`${p.id}: ${status}`);
    this.send(p, 'completed');
  }

  private async render(p: Live): Promise<void> {
    const prompt = String(p.input.prompt ?? '');
    const count = Number(p.input.num_outputs ?? 1);
    const [owner, name] = p.model.split('/');
    let picture = p.subject;
    if (!picture && owner === PREVIEW_MODEL_OWNER && TALENT_ID.test(name ?? '')) {
      picture = await fs.promises.readFile(path.join(this.deps.talentImagesDir, `${name}.svg`)).catch(() => undefined);
    }
    const images = await Promise.all(Array.from({ length: count }, (_, i) => renderPreview(picture, prompt, i, count)));
    if (['canceled', 'aborted'].includes(p.status) || p.deleted || this.deps.timers.stopped) return;
    const expiresAt = Date.now() + this.deps.outputTtlMs;
    const endpoint = this.deps.endpoint();
    p.output = images.map((body, i) => {
      const file = `/files/${p.id}/${i}.png`;
      this.deps.files.put(file, body, 'image/png', expiresAt);
      return `${endpoint}${file}`;
    });
    this.finish(p, 'succeeded');
  }

  /** The classifier's answer: the first refused industry the word lists find in the quoted prompt, or none. */
  private classify(p: Live): void {
    const text = String(p.input.prompt);
    const asked = readIndustryClassifierInput(text);
    const answer = (asked ? industriesIn(asked.prompt, asked.excluded) : industriesIn(text))[0] ?? 'none';
    p.output = answer.match(/.{1,3}/g);
    this.finish(p, 'succeeded');
  }

  private run(p: Live): void {
    const { timers, log } = this.deps;
    const lat = p.model === this.deps.classifierModel ? CLASSIFIER_LATENCY : this.deps.latency();
    // After the creation's answer has gone, as on Replicate.
    timers.later(0, () => this.send(p, 'start'));
    p.timers.push(
      timers.later(lat.startingMs, () => {
        if (p.status !== 'starting') return;
        p.status = 'processing';
        p.startedAt = Date.now();
        log(`${p.id}: processing`);
        if (p.neverFinish) return;
        p.timers.push(
          timers.later(lat.processingMs + Math.random() * lat.jitterMs, () => {
            if (p.status !== 'processing') return;
            if (p.fail) this.finish(p, 'failed', 'The model crashed while generating (emulated failure)');
            else if (p.model === this.deps.classifierModel) this.classify(p);
            else this.render(p).catch((err) => this.finish(p, 'failed', `Rendering the preview failed: ${(err as Error).message}`));
          }),
        );
      }),
    );
    if (p.deadline) p.timers.push(timers.later(p.deadline - Date.now(), () => this.finish(p, 'canceled')));
  }
}
