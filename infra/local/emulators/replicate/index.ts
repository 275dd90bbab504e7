// Replicate: our own emulator of the parts of Replicate's HTTP API the generation workflow calls
// (decision 028). Predictions go starting -> processing -> succeeded (or failed / canceled) on
// timers, webhooks are signed the Standard Webhooks way with the secret Replicate serves, outputs
// are files on the emulator that expire, and the images are local previews rendered with sharp
// from the talent's picture, the style and the prompt, marked as such on every image.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Page, Prediction } from 'replicate';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { DEFAULT_INDUSTRY_CLASSIFIER_MODEL, industriesIn, readIndustryClassifierInput } from '../../../../events/industries';
import { endpointFor, LOOPBACK, resolvePort, withFreshPortOnClash, type EmulatorHandle, type EmulatorOptions } from '../ports';

type ReplicateStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
type WebhookEvent = 'start' | 'output' | 'logs' | 'completed';
const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['start', 'output', 'logs', 'completed'];

/**
 * Faults for tests. API faults count API calls; the others count predictions created, of any
 * model or, with `model`, of that model only (tests sharing a twin each use their own talent),
 * and with `promptIncludes` only those whose input prompt contains that text (a test's marker:
 * the industry classifier's prompt quotes the generation's).
 */
type ReplicateFault =
  | { kind: 'http-5xx' | 'http-429'; times?: number; retryAfterSeconds?: number }
  | { kind: 'prediction-failed'; times?: number; model?: string; promptIncludes?: string }
  | { kind: 'lose-webhook'; events?: Array<'start' | 'completed'>; times?: number; model?: string; promptIncludes?: string }
  | { kind: 'never-finish'; times?: number; model?: string; promptIncludes?: string }
  /** The create is made (the prediction runs, its webhooks go) but its answer is lost: the connection closes unanswered. */
  | { kind: 'lose-create-answer'; times?: number; model?: string; promptIncludes?: string };

export interface ReplicateLatency {
  /** From creation to `processing`. */
  startingMs: number;
  /** From `processing` to the final status. */
  processingMs: number;
  /** Up to this much more processing, drawn per prediction (spreads finishes in a bench). */
  jitterMs: number;
}

/** What the emulator holds of one prediction (tests read it through `predictions()`). */
interface EmulatedPrediction {
  id: string;
  model: string;
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
}

/** The test handle of the emulator (`twin.replicate`). */
export interface ReplicateControl {
  inject(fault: ReplicateFault): void;
  clear(): void;
  setLatency(latency: Partial<ReplicateLatency>): void;
  predictions(): EmulatedPrediction[];
  /** Every output delivered so far answers 404 from now on, as after Replicate's hour. */
  expireOutputs(): void;
  /** The API token the emulator accepts. */
  readonly token: string;
  /** The signing secret (`whsec_...`), as `GET /v1/webhooks/default/secret` serves it. */
  readonly webhookSecret: string;
}

export interface ReplicateEmulator extends EmulatorHandle, ReplicateControl {}

export interface ReplicateOptions extends EmulatorOptions {
  /** The only API token accepted (Bearer); a random one when absent. */
  token?: string;
  latency?: Partial<ReplicateLatency>;
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
/** A language model answering five tokens is quick next to an image model, whatever the images' latency. */
const CLASSIFIER_LATENCY: ReplicateLatency = { startingMs: 10, processingMs: 40, jitterMs: 0 };
/** `Prefer: wait` holds the create's answer this long at most (Replicate: 60 s, `wait=n` for 1 to 60). */
const MAX_PREFER_WAIT_SECONDS = 60;
const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];
const HOUR_MS = 60 * 60 * 1000;
const MAX_BODY_BYTES = 1024 * 1024;
/** Replicate refuses a shorter Cancel-After. */
const MIN_CANCEL_AFTER_MS = 5_000;
/** The preview models: `humanly-preview/<talentId>` renders from the talent's picture. */
const PREVIEW_MODEL_OWNER = 'humanly-preview';
const IMAGE_SIZE = 512;
/** Replicate's list answers 100 predictions a page. */
const LIST_PAGE_SIZE = 100;
const TALENT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

const STYLE_LOOKS: Record<string, { tint: string; opacity: number; frame: string; grey?: boolean }> = {
  photorealistic: { tint: '#000000', opacity: 0, frame: '#3b3b3b' },
  portrait: { tint: '#c8773c', opacity: 0.18, frame: '#8a4b22' },
  commercial: { tint: '#1e6fd9', opacity: 0.16, frame: '#1e6fd9' },
  editorial: { tint: '#000000', opacity: 0, frame: '#111111', grey: true },
  creative: { tint: '#b620c9', opacity: 0.22, frame: '#b620c9' },
  lifestyle: { tint: '#e0b21b', opacity: 0.18, frame: '#4f8a2b' },
};

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** Replicate's ids are 26 lowercase base32 characters. */
function predictionId(): string {
  return [...randomBytes(26)].map((b) => BASE32[b % 32]).join('');
}

/** Cancel-After: "90", "30s", "5m", "1h30m" (seconds without a unit). */
function parseDuration(value: string): number | undefined {
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const parts = [...v.matchAll(/(\d+)(h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v) return undefined;
  return parts.reduce((ms, [, n, unit]) => ms + Number(n) * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1_000), 0);
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** Lines of at most `width` characters, at most `max` lines (the last one cut with an ellipsis). */
function wrap(text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word.slice(0, width);
    }
  }
  if (line) lines.push(line);
  if (lines.length > max) {
    lines.length = max;
    lines[max - 1] = `${lines[max - 1].slice(0, width - 3)}...`;
  }
  return lines;
}

/**
 * One preview image: the talent's picture (or a neutral placeholder), looked at differently per
 * output index, tinted and framed by the style, with the prompt's words and the banner.
 */
async function renderPreview(picture: Buffer | undefined, prompt: string, index: number, count: number): Promise<Buffer> {
  const styleName = /,\s*([A-Za-z]+) style\s*$/.exec(prompt)?.[1]?.toLowerCase() ?? 'photorealistic';
  const look = STYLE_LOOKS[styleName] ?? STYLE_LOOKS.photorealistic;
  const subject = picture ?? Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_SIZE}" height="${IMAGE_SIZE}"><rect width="100%" height="100%" fill="#d9d9d9"/><circle cx="256" cy="210" r="90" fill="#b3b3b3"/><rect x="126" y="320" width="260" height="200" rx="120" fill="#b3b3b3"/></svg>`,
  );
  // Each index zooms and shifts the subject and turns its hue a little: four distinct images.
  const zoom = Math.round(IMAGE_SIZE * (1 + 0.12 * index));
  let image = sharp(subject, { density: 144 })
    .resize(zoom, zoom, { fit: 'cover' })
    .extract({ left: Math.round((zoom - IMAGE_SIZE) * (index % 2 ? 1 : 0)), top: Math.round((zoom - IMAGE_SIZE) / 2), width: IMAGE_SIZE, height: IMAGE_SIZE })
    .modulate({ hue: index * 40 });
  if (look.grey) image = image.grayscale();
  const lines = wrap(prompt, 40, 3);
  const text = lines
    .map((l, i) => `<text x="24" y="${IMAGE_SIZE - 92 + i * 24}" font-family="sans-serif" font-size="18" fill="#ffffff">${escapeXml(l)}</text>`)
    .join('');
  const overlay = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_SIZE}" height="${IMAGE_SIZE}">` +
      `<rect width="100%" height="100%" fill="${look.tint}" opacity="${look.opacity}"/>` +
      `<rect x="6" y="6" width="${IMAGE_SIZE - 12}" height="${IMAGE_SIZE - 12}" fill="none" stroke="${look.frame}" stroke-width="12"/>` +
      `<rect x="12" y="${IMAGE_SIZE - 116}" width="${IMAGE_SIZE - 24}" height="104" fill="#000000" opacity="0.55"/>${text}` +
      `<text x="${IMAGE_SIZE - 24}" y="${IMAGE_SIZE - 20}" font-family="sans-serif" font-size="14" fill="#ffffff" text-anchor="end">${index + 1} / ${count}</text>` +
      `<rect x="12" y="12" width="${IMAGE_SIZE - 24}" height="44" fill="#b00020"/>` +
      `<text x="${IMAGE_SIZE / 2}" y="42" font-family="sans-serif" font-size="22" font-weight="bold" fill="#ffffff" text-anchor="middle">LOCAL PREVIEW - not AI output</text>` +
      `</svg>`,
  );
  const base = await image.png().toBuffer();
  return sharp(base).composite([{ input: overlay }]).png({ compressionLevel: 6 }).toBuffer();
}

class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

interface Live extends EmulatedPrediction {
  timers: NodeJS.Timeout[];
  loseEvents: Set<WebhookEvent>;
  fail: boolean;
  neverFinish: boolean;
  /** The create's answer is lost (fault `lose-create-answer`). */
  loseAnswer: boolean;
}

interface Output {
  body: Buffer;
  expiresAt: number;
}

export async function startReplicate(options: ReplicateOptions = {}): Promise<ReplicateEmulator> {
  const token = options.token ?? `r8_${randomBytes(18).toString('base64url')}`;
  const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const signer = new Webhook(webhookSecret);
  const log = options.log ?? (options.verbose ? (line: string) => console.log(`[replicate] ${line}`) : () => undefined);
  const talentDir = options.talentImagesDir ?? path.resolve(__dirname, '../../../../web/public/talent');
  const ttl = options.outputTtlMs ?? HOUR_MS;
  const retryDelays = options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS;
  const perMinute = options.creationsPerMinute ?? 600;
  const classifierModel = options.classifierModel ?? DEFAULT_INDUSTRY_CLASSIFIER_MODEL;
  let latency: ReplicateLatency = { ...DEFAULT_LATENCY, ...options.latency };

  const predictions = new Map<string, Live>();
  const outputs = new Map<string, Output>();
  let faults: Array<ReplicateFault & { left: number }> = [];
  const creations: number[] = [];
  const pending = new Set<NodeJS.Timeout>();
  let stopped = false;
  let endpoint = '';

  const later = (ms: number, fn: () => void): NodeJS.Timeout => {
    const t = setTimeout(() => {
      pending.delete(t);
      if (!stopped) fn();
    }, ms);
    pending.add(t);
    return t;
  };

  const takeFault = <K extends ReplicateFault['kind']>(kinds: K[], model?: string, prompt = ''): Extract<ReplicateFault, { kind: K }> | undefined => {
    const fault = faults.find(
      (f) =>
        (kinds as string[]).includes(f.kind) &&
        (!('model' in f) || !f.model || f.model === model) &&
        (!('promptIncludes' in f) || !f.promptIncludes || prompt.includes(f.promptIncludes)),
    );
    if (!fault) return undefined;
    fault.left -= 1;
    if (fault.left <= 0) faults = faults.filter((f) => f !== fault);
    return fault as unknown as Extract<ReplicateFault, { kind: K }>;
  };

  /** A prediction as `GET /v1/predictions/{id}` and the webhooks carry it, in the `replicate` package's type. */
  const publicView = (p: Live): Prediction => ({
    id: p.id,
    model: p.model,
    version: p.version,
    input: p.input,
    logs: p.status === 'starting' ? '' : `Local preview of ${p.model}\n`,
    output: p.output,
    data_removed: p.output !== null && p.model !== classifierModel && p.output.every((u) => !outputs.has(new URL(u).pathname)),
    error: p.error,
    status: p.status,
    source: 'api',
    created_at: new Date(p.createdAt).toISOString(),
    // Replicate sends null for times not reached yet (the package types them optional).
    started_at: (p.startedAt ? new Date(p.startedAt).toISOString() : null) as string | undefined,
    completed_at: (p.completedAt ? new Date(p.completedAt).toISOString() : null) as string | undefined,
    ...(p.deadline && { deadline: new Date(p.deadline).toISOString() }),
    urls: {
      get: `${endpoint}/v1/predictions/${p.id}`,
      cancel: `${endpoint}/v1/predictions/${p.id}/cancel`,
      web: `${endpoint}/p/${p.id}`,
    },
    metrics: p.completedAt && p.startedAt ? { predict_time: (p.completedAt - p.startedAt) / 1000 } : {},
    webhook: p.webhook,
    webhook_events_filter: p.webhookEventsFilter,
  });

  /**
   * A prediction as `GET /v1/predictions` lists it: the fields Replicate documents for the list
   * (no logs, no webhook), so a caller cannot rely on more than Replicate gives.
   */
  const listedView = (p: Live): Prediction => {
    const { logs: _logs, webhook: _webhook, webhook_events_filter: _filter, deadline: _deadline, ...listed } = publicView(p);
    return listed;
  };

  /** Sends one webhook; the `completed` one is tried again on 5xx or no answer. */
  const sendWebhook = (p: Live, event: WebhookEvent) => {
    if (!p.webhook || !p.webhookEventsFilter.includes(event)) return;
    if (p.loseEvents.has(event)) {
      log(`${p.id}: ${event} webhook lost (fault)`);
      return;
    }
    const id = `msg_${randomBytes(16).toString('base64url')}`;
    const body = JSON.stringify(publicView(p));
    const attempt = async (n: number) => {
      const now = new Date();
      let status = 0;
      try {
        const res = await fetch(p.webhook!, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': signer.sign(id, now, body),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        status = res.status;
        await res.body?.cancel();
      } catch (err) {
        log(`${p.id}: ${event} webhook not delivered (${(err as Error).name})`);
      }
      if (status >= 200 && status < 300) {
        p.webhooksDelivered.push(event);
        return;
      }
      log(`${p.id}: ${event} webhook answered ${status || 'nothing'} (attempt ${n + 1})`);
      // Replicate retries only the final webhook; 4xx answers are not retried.
      if (event === 'completed' && (status === 0 || status >= 500) && n < retryDelays.length) {
        later(retryDelays[n], () => void attempt(n + 1));
      }
    };
    void attempt(0);
  };

  const finish = (p: Live, status: 'succeeded' | 'failed' | 'canceled', error: string | null = null) => {
    if (['succeeded', 'failed', 'canceled', 'aborted'].includes(p.status)) return;
    for (const t of p.timers) {
      clearTimeout(t);
      pending.delete(t);
    }
    p.status = status;
    p.error = error;
    p.completedAt = Date.now();
    p.startedAt ??= p.completedAt;
    log(`${p.id}: ${status}`);
    sendWebhook(p, 'completed');
  };

  const render = async (p: Live) => {
    const prompt = String(p.input.prompt ?? '');
    const count = Number(p.input.num_outputs ?? 1);
    const [owner, name] = p.model.split('/');
    let picture: Buffer | undefined;
    if (owner === PREVIEW_MODEL_OWNER && TALENT_ID.test(name ?? '')) {
      picture = await fs.promises.readFile(path.join(talentDir, `${name}.svg`)).catch(() => undefined);
    }
    const images = await Promise.all(Array.from({ length: count }, (_, i) => renderPreview(picture, prompt, i, count)));
    if (['canceled', 'aborted'].includes(p.status) || stopped) return;
    const expiresAt = Date.now() + ttl;
    p.output = images.map((body, i) => {
      const file = `/files/${p.id}/${i}.png`;
      outputs.set(file, { body, expiresAt });
      return `${endpoint}${file}`;
    });
    finish(p, 'succeeded');
  };

  /** The classifier's answer: the first refused industry the word lists find in the quoted prompt, or none. */
  const classify = (p: Live) => {
    const text = String(p.input.prompt);
    const asked = readIndustryClassifierInput(text);
    const answer = (asked ? industriesIn(asked.prompt, asked.excluded) : industriesIn(text))[0] ?? 'none';
    p.output = answer.match(/.{1,3}/g);
    finish(p, 'succeeded');
  };

  const run = (p: Live) => {
    const lat = p.model === classifierModel ? CLASSIFIER_LATENCY : latency;
    // After the creation's answer has gone, as on Replicate.
    later(0, () => sendWebhook(p, 'start'));
    p.timers.push(
      later(lat.startingMs, () => {
        if (p.status !== 'starting') return;
        p.status = 'processing';
        p.startedAt = Date.now();
        log(`${p.id}: processing`);
        if (p.neverFinish) return;
        p.timers.push(
          later(lat.processingMs + Math.random() * lat.jitterMs, () => {
            if (p.status !== 'processing') return;
            if (p.fail) finish(p, 'failed', 'The model crashed while generating (emulated failure)');
            else if (p.model === classifierModel) classify(p);
            else render(p).catch((err) => finish(p, 'failed', `Rendering the preview failed: ${(err as Error).message}`));
          }),
        );
      }),
    );
    if (p.deadline) p.timers.push(later(p.deadline - Date.now(), () => finish(p, 'canceled')));
  };

  const create = (body: Record<string, unknown>, model: string, version: string, headers: http.IncomingHttpHeaders): Live => {
    const now = Date.now();
    while (creations.length && creations[0] <= now - 60_000) creations.shift();
    if (creations.length >= perMinute) {
      const wait = Math.max(1, Math.ceil((creations[0] + 60_000 - now) / 1000));
      throw new ApiProblem(429, 'Request was throttled', `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.`, {
        'retry-after': String(wait),
      });
    }
    const input = body.input;
    if (!input || typeof input !== 'object' || Array.isArray(input)) throw new ApiProblem(422, 'Input validation failed', 'input: an object is required');
    const inp = input as Record<string, unknown>;
    if (typeof inp.prompt !== 'string' || inp.prompt.trim() === '') throw new ApiProblem(422, 'Input validation failed', 'input.prompt: a non-empty string is required');
    if (model === classifierModel) {
      if (inp.system_prompt !== undefined && typeof inp.system_prompt !== 'string') throw new ApiProblem(422, 'Input validation failed', 'input.system_prompt: must be a string');
      if (inp.max_tokens !== undefined && (!Number.isInteger(inp.max_tokens) || (inp.max_tokens as number) < 1)) {
        throw new ApiProblem(422, 'Input validation failed', 'input.max_tokens: must be a whole number of at least 1');
      }
    }
    const n = inp.num_outputs ?? 1;
    if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > 4) throw new ApiProblem(422, 'Input validation failed', 'input.num_outputs: must be an integer from 1 to 4');
    if (inp.aspect_ratio !== undefined && inp.aspect_ratio !== '1:1') {
      throw new ApiProblem(422, 'Input validation failed', 'input.aspect_ratio: the local preview renders 1:1 only');
    }
    if (inp.output_format !== undefined && inp.output_format !== 'png') {
      throw new ApiProblem(422, 'Input validation failed', 'input.output_format: the local preview renders png only');
    }
    let webhook: string | undefined;
    if (body.webhook !== undefined) {
      try {
        webhook = new URL(String(body.webhook)).toString();
      } catch {
        throw new ApiProblem(422, 'Invalid webhook', 'webhook: must be a URL');
      }
    }
    const filter = (body.webhook_events_filter ?? WEBHOOK_EVENTS) as WebhookEvent[];
    if (!Array.isArray(filter) || filter.some((e) => !WEBHOOK_EVENTS.includes(e))) {
      throw new ApiProblem(422, 'Invalid webhook events filter', `webhook_events_filter: each must be one of ${WEBHOOK_EVENTS.join(', ')}`);
    }
    let deadline: number | undefined;
    const cancelAfter = headers['cancel-after'];
    if (typeof cancelAfter === 'string') {
      const ms = parseDuration(cancelAfter);
      if (ms === undefined) throw new ApiProblem(400, 'Invalid Cancel-After', 'Cancel-After: a duration such as 90s, 5m or 1h30m');
      if (ms < MIN_CANCEL_AFTER_MS) throw new ApiProblem(400, 'Invalid Cancel-After', 'Cancel-After: at least 5s');
      deadline = now + ms;
    }
    creations.push(now);
    const lose = takeFault(['lose-webhook'], model, inp.prompt);
    const p: Live = {
      id: predictionId(),
      model,
      version,
      input: inp,
      status: 'starting',
      webhook,
      webhookEventsFilter: [...new Set(filter)],
      webhooksDelivered: [],
      output: null,
      error: null,
      createdAt: now,
      deadline,
      timers: [],
      loseEvents: new Set(lose ? (lose.events ?? ['start', 'completed']) : []),
      fail: Boolean(takeFault(['prediction-failed'], model, inp.prompt)),
      neverFinish: Boolean(takeFault(['never-finish'], model, inp.prompt)),
      loseAnswer: Boolean(takeFault(['lose-create-answer'], model, inp.prompt)),
    };
    predictions.set(p.id, p);
    log(`${p.id}: created for ${model}`);
    run(p);
    return p;
  };

  /**
   * `GET /v1/predictions`: newest first, 100 a page, `created_after` (at or after) and
   * `created_before` (before) in ISO 8601; `next` is the following page's URL (a cursor of ours).
   */
  const list = (url: URL): Page<Prediction> => {
    const time = (name: string): number | undefined => {
      const value = url.searchParams.get(name);
      if (value === null) return undefined;
      const ms = Date.parse(value);
      if (Number.isNaN(ms)) throw new ApiProblem(400, 'Invalid query', `${name}: an ISO 8601 date-time is required`);
      return ms;
    };
    const after = time('created_after');
    const before = time('created_before');
    const cursor = url.searchParams.get('cursor');
    const offset = cursor === null ? 0 : Number(cursor);
    if (!Number.isInteger(offset) || offset < 0) throw new ApiProblem(400, 'Invalid cursor', 'cursor: not one this list gave out');
    const matching = [...predictions.values()]
      .filter((p) => (after === undefined || p.createdAt >= after) && (before === undefined || p.createdAt < before))
      .sort((a, b) => b.createdAt - a.createdAt);
    const page = matching.slice(offset, offset + LIST_PAGE_SIZE);
    const pageAt = (n: number) => {
      const next = new URL(`${endpoint}/v1/predictions`);
      for (const [k, v] of url.searchParams) if (k !== 'cursor') next.searchParams.set(k, v);
      next.searchParams.set('cursor', String(n));
      return next.toString();
    };
    return {
      results: page.map(listedView),
      ...(offset + LIST_PAGE_SIZE < matching.length ? { next: pageAt(offset + LIST_PAGE_SIZE) } : {}),
      ...(offset > 0 ? { previous: pageAt(Math.max(0, offset - LIST_PAGE_SIZE)) } : {}),
    };
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';

    const file = /^\/files\/[a-z2-7]+\/\d+\.png$/.exec(url.pathname);
    if (file && (method === 'GET' || method === 'HEAD')) {
      const out = outputs.get(url.pathname);
      if (!out || out.expiresAt <= Date.now()) {
        outputs.delete(url.pathname);
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(out.body.length) }).end(method === 'HEAD' ? undefined : out.body);
      return;
    }
    if (url.pathname.startsWith('/_emulator/')) return control(req, res, url.pathname, method);
    if (!url.pathname.startsWith('/v1/')) throw new ApiProblem(404, 'Not found', 'The requested resource could not be found.');

    if (req.headers.authorization !== `Bearer ${token}`) {
      throw new ApiProblem(401, 'Unauthenticated', 'You did not pass a valid authentication token');
    }
    const fault = takeFault(['http-5xx', 'http-429']);
    if (fault?.kind === 'http-5xx') throw new ApiProblem(503, 'Service unavailable', 'Emulated server error');
    if (fault?.kind === 'http-429') {
      const wait = fault.retryAfterSeconds ?? 1;
      throw new ApiProblem(429, 'Request was throttled', `Request was throttled. Expected available in ${wait} seconds.`, { 'retry-after': String(wait) });
    }

    const readJson = async (): Promise<Record<string, unknown>> => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const c of req) {
        size += (c as Buffer).length;
        if (size > MAX_BODY_BYTES) throw new ApiProblem(413, 'Request too large', 'The request body is larger than 1 MB');
        chunks.push(c as Buffer);
      }
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error();
        return body;
      } catch {
        throw new ApiProblem(400, 'Invalid JSON', 'The request body is not a JSON object');
      }
    };
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    /** `Prefer: wait` or `wait=n`: the create answers once the prediction has ended, or after n seconds. */
    const preferredWait = (): number | undefined => {
      const wait = /(?:^|[,;\s])wait(?:=([^,;\s]*))?/.exec(String(req.headers.prefer ?? ''));
      if (!wait) return undefined;
      const seconds = wait[1] === undefined ? MAX_PREFER_WAIT_SECONDS : Number(wait[1]);
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_PREFER_WAIT_SECONDS) {
        throw new ApiProblem(400, 'Invalid Prefer header', `Prefer: wait=n takes a whole number of seconds from 1 to ${MAX_PREFER_WAIT_SECONDS}`);
      }
      return seconds;
    };
    const settled = async (p: Live, seconds: number | undefined): Promise<Live> => {
      const until = Date.now() + (seconds ?? 0) * 1000;
      while (!['succeeded', 'failed', 'canceled', 'aborted'].includes(p.status) && Date.now() < until && !stopped) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return p;
    };

    /** The created prediction's answer, unless a fault loses it: the connection closes with nothing sent. */
    const created = (p: Live) => {
      if (!p.loseAnswer) return send(201, publicView(p));
      log(`${p.id}: the create's answer is lost (fault)`);
      req.socket.destroy();
    };

    if (method === 'GET' && url.pathname === '/v1/webhooks/default/secret') return send(200, { key: webhookSecret });

    const byModel = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(url.pathname);
    if (method === 'POST' && byModel) {
      const body = await readJson();
      const model = `${decodeURIComponent(byModel[1])}/${decodeURIComponent(byModel[2])}`;
      const wait = preferredWait();
      return created(await settled(create(body, model, 'hidden', req.headers), wait));
    }
    if (method === 'POST' && url.pathname === '/v1/predictions') {
      const body = await readJson();
      if (typeof body.version !== 'string' || body.version === '') throw new ApiProblem(422, 'Input validation failed', 'version: required');
      const [model, version] = body.version.includes(':') ? body.version.split(':') : ['local/model', body.version];
      const wait = preferredWait();
      return created(await settled(create(body, model, version, req.headers), wait));
    }
    if (method === 'GET' && url.pathname === '/v1/predictions') return send(200, list(url));
    const one = /^\/v1\/predictions\/([a-z2-7]+)(\/cancel)?$/.exec(url.pathname);
    const p = one ? predictions.get(one[1]) : undefined;
    if (one && !one[2] && method === 'GET') {
      if (!p) throw new ApiProblem(404, 'Not found', 'The requested resource could not be found.');
      return send(200, publicView(p));
    }
    if (one && one[2] && method === 'POST') {
      if (!p) throw new ApiProblem(404, 'Not found', 'The requested resource could not be found.');
      finish(p, 'canceled');
      return send(200, publicView(p));
    }
    throw new ApiProblem(404, 'Not found', 'The requested resource could not be found.');
  };

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
      if (method === 'POST' && pathname === '/_emulator/inject') return done(handle_.inject(body));
      if (method === 'POST' && pathname === '/_emulator/clear') return done(handle_.clear());
      if (method === 'POST' && pathname === '/_emulator/latency') return done(handle_.setLatency(body));
      if (method === 'POST' && pathname === '/_emulator/expire-outputs') return done(handle_.expireOutputs());
      if (method === 'GET' && pathname === '/_emulator/predictions') return done(handle_.predictions());
    } catch (err) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (err as Error).message }));
      return;
    }
    throw new ApiProblem(404, 'Not found', `The emulator has no control ${method} ${pathname}`);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
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

  const handle_: ReplicateEmulator = {
    endpoint,
    port,
    token,
    webhookSecret,
    inject(fault) {
      const kinds = ['http-5xx', 'http-429', 'prediction-failed', 'lose-webhook', 'never-finish', 'lose-create-answer'];
      if (!kinds.includes(fault?.kind)) throw new Error(`Unknown Replicate fault ${JSON.stringify(fault?.kind)} (one of: ${kinds.join(', ')})`);
      const times = fault.times ?? 1;
      if (!Number.isInteger(times) || times < 1) throw new Error(`Fault times must be a whole number of at least 1, got ${fault.times}`);
      faults.push({ ...fault, left: times });
    },
    clear() {
      faults = [];
      latency = { ...DEFAULT_LATENCY, ...options.latency };
    },
    setLatency(next) {
      for (const [k, v] of Object.entries(next)) {
        if (!Number.isFinite(v) || (v as number) < 0) throw new Error(`Latency ${k} must be a number of milliseconds of at least 0, got ${v}`);
      }
      latency = { ...latency, ...next };
    },
    predictions: () =>
      [...predictions.values()].map(({ timers: _t, loseEvents: _l, fail: _f, neverFinish: _n, loseAnswer: _a, ...p }) => ({
        ...p,
        input: { ...p.input },
        webhooksDelivered: [...p.webhooksDelivered],
        output: p.output && [...p.output],
      })),
    expireOutputs() {
      outputs.clear();
    },
    async stop() {
      stopped = true;
      for (const t of pending) clearTimeout(t);
      pending.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return handle_;
}

/** The test handle of an emulator in another process, through its `/_emulator/` routes. */
export interface ReplicateControlClient {
  inject(fault: ReplicateFault): Promise<void>;
  clear(): Promise<void>;
  setLatency(latency: Partial<ReplicateLatency>): Promise<void>;
  predictions(): Promise<EmulatedPrediction[]>;
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
    predictions: async () => (await call('GET', 'predictions')) as EmulatedPrediction[],
    expireOutputs: async () => void (await call('POST', 'expire-outputs', {})),
  };
}
