import * as http from 'node:http';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Replicate, { type Page, type Prediction as ReplicatePrediction } from 'replicate';
import sharp from 'sharp';
import { replicateApi, ReplicateError, type Prediction, type ReplicateApi } from '../../../functions/shared/replicate';
import { verifyReplicateWebhook, WebhookSignatureError } from '../../../functions/shared/replicate-webhooks';
import { startReplicate, type ReplicateEmulator } from '../../../infra/local/emulators/replicate';
import { eventually } from '../../support/eventually';
import { useTwin } from '../../support/twin';

jest.setTimeout(60_000);

/** A webhook receiver: keeps each request's headers and raw body; answers with `status(body)`. */
async function receiver(status: (body: string) => number = () => 204) {
  const received: Array<{ headers: Record<string, string | undefined>; body: string; at: number }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers, body, at: Date.now() });
      res.writeHead(status(body)).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/replicate`;
  return {
    url,
    received,
    /** The predictions of the verified webhooks for one prediction id, in order of arrival. */
    for: (id: string, secret: string) =>
      received.map((r) => verifyReplicateWebhook(secret, r.headers, r.body)).filter((w) => w.prediction.id === id),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

const FINAL = ['succeeded', 'failed', 'canceled', 'aborted'];
function settle(api: ReplicateApi, id: string, timeoutMs = 10_000): Promise<Prediction> {
  return eventually(
    async () => {
      const p = await api.getPrediction(id);
      return FINAL.includes(p.status) && p;
    },
    { timeoutMs, what: `prediction ${id} to end` },
  );
}

const input = (talent: string, n = 2) => ({ prompt: `TOK ${talent} reading on a bench, Editorial style`, num_outputs: n, aspect_ratio: '1:1', output_format: 'png' });

describe('Replicate emulator on the shared twin, through the real client', () => {
  const twin = useTwin();
  let hooks: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    hooks = await receiver();
  });
  afterAll(() => hooks?.close());

  it('accepts the token the twin keeps in its Secrets Manager; runs a prediction whose outputs are distinct PNG previews; signs both webhooks', async () => {
    const secrets = new SecretsManagerClient({
      endpoint: twin().sdkEnv.AWS_ENDPOINT_URL_SECRETS_MANAGER,
      region: twin().sdkEnv.AWS_REGION,
      credentials: { accessKeyId: twin().sdkEnv.AWS_ACCESS_KEY_ID, secretAccessKey: twin().sdkEnv.AWS_SECRET_ACCESS_KEY },
    });
    const secretId = twin().physicalName('ReplicateToken');
    const token = (await secrets.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString!;
    expect(token).toMatch(/^r8_[A-Za-z0-9]{37}$/);

    // A wrong token is refused as Replicate refuses it.
    const stranger = replicateApi({ token: 'r8_not_ours', baseUrl: `${twin().urls.replicate}/v1` });
    await expect(stranger.getPrediction('abc')).rejects.toMatchObject({ status: 401 });

    const api = replicateApi({ token, baseUrl: `${twin().urls.replicate}/v1` });
    const model = 'humanly-preview/maya-chen';
    const created = await api.createPrediction({ model, input: input('maya', 3), webhook: hooks.url, webhookEventsFilter: ['start', 'completed'] });
    expect(created.status).toBe('starting');
    const done = await settle(api, created.id);
    expect(done).toMatchObject({ status: 'succeeded', error: null });
    const urls = done.output as string[];
    expect(urls).toHaveLength(3);

    const files = await Promise.all(urls.map((u) => api.fetchOutput(u)));
    const pixels = await Promise.all(files.map((f) => sharp(f).raw().toBuffer({ resolveWithObject: true })));
    for (const { info } of pixels) expect(info).toMatchObject({ width: 512, height: 512 });
    for (const f of files) expect((await sharp(f).metadata()).format).toBe('png');
    // The banner: the top band is the preview red (#b00020) across the image.
    for (const { data, info } of pixels) {
      for (const x of [40, 256, 470]) {
        const at = (30 * info.width + x) * info.channels;
        const [r, g, b] = [data[at], data[at + 1], data[at + 2]];
        const isBanner = Math.abs(r - 0xb0) < 12 && g < 16 && Math.abs(b - 0x20) < 12;
        const isText = r > 200 && g > 200 && b > 200;
        expect(isBanner || isText).toBe(true);
      }
    }
    expect(new Set(files.map((f) => f.toString('base64'))).size).toBe(3);

    const secret = await api.webhookSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(await eventually(() => hooks.for(created.id, secret).length === 2, { timeoutMs: 5_000 })).toBe(true);
    const [start, completed] = hooks.for(created.id, secret);
    expect(start.prediction.status).toBe('starting');
    expect(completed.prediction).toEqual(done);
    expect(start.webhookId).not.toBe(completed.webhookId);
    // Signed with this secret and no other.
    const raw = hooks.received.find((r) => r.body.includes(created.id))!;
    expect(() => verifyReplicateWebhook(`whsec_${Buffer.from('not the secret').toString('base64')}`, raw.headers, raw.body)).toThrow(WebhookSignatureError);
    expect(await twin().replicate.predictions()).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: created.id, model, input: input('maya', 3), webhooksDelivered: ['start', 'completed'] })]),
    );
  });
});

describe('Replicate emulator faults, through the real client', () => {
  let emulator: ReplicateEmulator;
  let api: ReplicateApi;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  /** The receiver's answer to a webhook's body. */
  let answer: (body: string) => number = () => 204;
  const waits: number[] = [];
  const create = (extra: { cancelAfterSeconds?: number; model?: string } = {}) =>
    api.createPrediction({ model: extra.model ?? 'humanly-preview/jordan-rivers', input: input('jordan', 1), webhook: hooks.url, webhookEventsFilter: ['start', 'completed'], ...extra });

  beforeAll(async () => {
    // Its own emulator: faults are global to an emulator, and other files share the twin's.
    emulator = await startReplicate({ latency: { startingMs: 50, processingMs: 150 }, webhookRetryDelaysMs: [50, 50, 50] });
    hooks = await receiver((body) => answer(body));
    api = replicateApi({
      token: emulator.token,
      baseUrl: `${emulator.endpoint}/v1`,
      retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 2_000 },
      // The client's waits are recorded, not waited: what it asks for is what is checked.
      sleep: async (ms) => void waits.push(ms),
    });
  });
  afterEach(() => {
    emulator.clear();
    answer = () => 204;
    waits.length = 0;
  });
  afterAll(async () => {
    await hooks?.close();
    await emulator?.stop();
  });

  it('a lost webhook is never sent, while the prediction still succeeds', async () => {
    emulator.inject({ kind: 'lose-webhook' });
    const lost = await create();
    const kept = await create();
    expect((await settle(api, lost.id)).status).toBe('succeeded');
    expect((await settle(api, kept.id)).status).toBe('succeeded');
    const secret = await api.webhookSecret();
    expect(await eventually(() => hooks.for(kept.id, secret).length === 2, { timeoutMs: 5_000 })).toBe(true);
    expect(hooks.for(lost.id, secret)).toEqual([]);
  });

  it('losing only the completed webhook keeps the start one', async () => {
    emulator.inject({ kind: 'lose-webhook', events: ['completed'] });
    const p = await create();
    await settle(api, p.id);
    const secret = await api.webhookSecret();
    // The completed webhook is lost as the prediction ends, before it shows as ended: none is on its way.
    await eventually(() => hooks.for(p.id, secret).length > 0, { timeoutMs: 5_000 });
    expect(hooks.for(p.id, secret).map((w) => w.prediction.status)).toEqual(['starting']);
    expect(emulator.predictions().find((x) => x.id === p.id)!.webhooksDelivered).toEqual(['start']);
  });

  it('the completed webhook is tried again while the receiver answers 5xx', async () => {
    // The start webhook and the first two attempts of the completed one are refused; the third is
    // taken (the emulator tries it again 50 ms after each refusal, 3 times at most).
    let completedAttempts = 0;
    answer = (body) => (!body.includes('"status":"succeeded"') || ++completedAttempts <= 2 ? 503 : 204);
    const p = await create();
    const secret = await api.webhookSecret();
    await settle(api, p.id);
    await eventually(() => emulator.predictions().find((x) => x.id === p.id)!.webhooksDelivered.includes('completed'), { timeoutMs: 20_000 });
    expect(hooks.for(p.id, secret).filter((w) => w.prediction.status === 'succeeded')).toHaveLength(3);
    // The start webhook, refused, is not tried again.
    expect(hooks.for(p.id, secret).filter((w) => w.prediction.status === 'starting')).toHaveLength(1);
    // Each attempt of one webhook keeps its id (the receiver's replay guard sees one webhook).
    expect(new Set(hooks.for(p.id, secret).filter((w) => w.prediction.status === 'succeeded').map((w) => w.webhookId)).size).toBe(1);
  });

  it('a failed prediction says why, in the answer and the completed webhook', async () => {
    emulator.inject({ kind: 'prediction-failed', model: 'humanly-preview/sofia-alvarez' });
    const other = await create();
    const failing = await create({ model: 'humanly-preview/sofia-alvarez' });
    const done = await settle(api, failing.id);
    expect(done).toMatchObject({ status: 'failed', output: null });
    expect(done.error).toMatch(/failed|crashed/i);
    expect((await settle(api, other.id)).status).toBe('succeeded');
    const secret = await api.webhookSecret();
    await eventually(() => hooks.for(failing.id, secret).length === 2, { timeoutMs: 5_000 });
    expect(hooks.for(failing.id, secret)[1].prediction).toEqual(done);
  });

  it('a prediction that never finishes stays processing until canceled, or until its Cancel-After', async () => {
    emulator.inject({ kind: 'never-finish', times: 2 });
    const deadlined = await create({ cancelAfterSeconds: 5 });
    const stuck = await create();
    // One created after it, without the fault, ends: the stuck one would have too.
    expect((await settle(api, (await create()).id)).status).toBe('succeeded');
    expect((await api.getPrediction(stuck.id)).status).toBe('processing');
    const canceled = await api.cancelPrediction(stuck.id);
    expect(canceled.status).toBe('canceled');
    expect((await api.getPrediction(stuck.id)).status).toBe('canceled');
    const secret = await api.webhookSecret();
    await eventually(() => hooks.for(stuck.id, secret).length === 2, { timeoutMs: 5_000 });
    expect(hooks.for(stuck.id, secret)[1].prediction.status).toBe('canceled');

    expect((await api.getPrediction(deadlined.id)).status).toBe('processing');
    expect((await settle(api, deadlined.id, 6_000)).status).toBe('canceled');
    // Canceling a finished prediction changes nothing.
    expect((await api.cancelPrediction(deadlined.id)).status).toBe('canceled');
  });

  it('outputs expire: 404 afterwards', async () => {
    const p = await settle(api, (await create()).id);
    const [url] = p.output as string[];
    expect((await api.fetchOutput(url)).length).toBeGreaterThan(1000);
    emulator.expireOutputs();
    const err = await api.fetchOutput(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplicateError);
    expect(err).toMatchObject({ status: 404, retryable: false });
  });

  it('429 with Retry-After, then success through the client retry; 5xx too', async () => {
    emulator.inject({ kind: 'http-429', times: 1, retryAfterSeconds: 1 });
    const p = await create();
    expect(p.status).toBe('starting');
    expect(waits).toEqual([1000]);

    emulator.inject({ kind: 'http-5xx', times: 2 });
    expect((await api.getPrediction(p.id)).id).toBe(p.id);
    expect(waits).toHaveLength(3);

    // Beyond the client's attempts, the 5xx is the answer.
    emulator.inject({ kind: 'http-5xx', times: 3 });
    await expect(api.getPrediction(p.id)).rejects.toMatchObject({ status: 503, retryable: true });
  });

  it('beyond 600 creations a minute, 429 with Retry-After', async () => {
    const limited = await startReplicate({ creationsPerMinute: 2, latency: { startingMs: 10, processingMs: 10 } });
    try {
      const once = replicateApi({ token: limited.token, baseUrl: `${limited.endpoint}/v1`, retry: { maxAttempts: 1 } });
      const make = () => once.createPrediction({ model: 'humanly-preview/maya-chen', input: input('maya', 1), webhook: hooks.url, webhookEventsFilter: ['completed'] });
      await make();
      await make();
      await expect(make()).rejects.toMatchObject({ status: 429 });
      const res = await fetch(`${limited.endpoint}/v1/models/humanly-preview/maya-chen/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${limited.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: input('maya', 1) }),
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.stop();
    }
  });

  it("past the token's creation limit, Replicate's 429: its JSON error, a Retry-After the detail names, counted; our client gives up on a wait longer than its longest, saying nothing was made", async () => {
    // An emulator of its own: the window of this file's emulator holds the other tests' creations.
    const limited = await startReplicate({ latency: { startingMs: 10, processingMs: 10 } });
    try {
      const client = replicateApi({ token: limited.token, baseUrl: `${limited.endpoint}/v1`, retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 2_000 }, sleep: async (ms) => void waits.push(ms) });
      const make = () => client.createPrediction({ model: 'humanly-preview/maya-chen', input: input('maya', 1), webhook: hooks.url, webhookEventsFilter: ['completed'] });
      limited.setCreationLimit(2);
      await make();
      await make();
      const res = await fetch(`${limited.endpoint}/v1/models/humanly-preview/maya-chen/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${limited.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: input('maya', 1) }),
      });
      expect(res.status).toBe(429);
      const wait = Number(res.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(59);
      expect(wait).toBeLessThanOrEqual(60);
      expect(await res.json()).toEqual({ title: 'Request was throttled', detail: `Request was throttled. Expected available in ${wait} seconds.`, status: 429 });
      // Longer than the client's longest wait (2 s here): it gives up at once, sure the create was not made.
      await expect(make()).rejects.toMatchObject({ name: 'ReplicateError', status: 429, retryable: true, unsure: false });
      expect(waits).toEqual([]);
      expect(limited.creations()).toEqual({ creationsPerMinute: 2, accepted: [expect.any(Number), expect.any(Number)], throttled: 2 });
      // Back to Replicate's 600 with the other defaults.
      limited.clear();
      expect(limited.creations().creationsPerMinute).toBe(600);
      expect((await make()).status).toBe('starting');
    } finally {
      await limited.stop();
    }
  });

  it('a lost create answer: the prediction is made and runs, the caller gets no answer; our client never sends it again and says so', async () => {
    const model = 'humanly-preview/lena-okafor';
    const official = new Replicate({ auth: emulator.token, baseUrl: `${emulator.endpoint}/v1` });
    const since = new Date(Date.now() - 1000);
    const ofModel = () => emulator.predictions().filter((p) => p.model === model);
    // The official client retries any error itself, a create included: the lost answer becomes a
    // second billed prediction (why ours never lets it send a create again).
    emulator.inject({ kind: 'lose-create-answer', model, times: 1 });
    const retried = await official.predictions.create({ model, input: input('lena', 1), webhook: hooks.url, webhook_events_filter: ['start', 'completed'] });
    expect(ofModel().map((p) => p.id)).toEqual([expect.any(String), retried.id]);
    // Ours: one attempt, an unsure error (the create may have been made), no second create.
    emulator.inject({ kind: 'lose-create-answer', model, times: 1 });
    const err = await api.createPrediction({ model, input: { ...input('lena', 1), seed: 42 }, webhook: hooks.url, webhookEventsFilter: ['start', 'completed'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplicateError);
    expect(err).toMatchObject({ unsure: true, retryable: true });
    const made = ofModel();
    expect(made).toHaveLength(3);
    expect(made[2].input).toMatchObject({ seed: 42 });
    // Each runs to the end and sends its webhooks as any prediction does.
    const secret = await api.webhookSecret();
    for (const p of made) {
      expect((await settle(api, p.id)).status).toBe('succeeded');
      await eventually(() => hooks.for(p.id, secret).length === 2, { timeoutMs: 5_000 });
    }
    // Replicate's list shows each once, in the list's documented shape (no webhook, no logs).
    const page = (await (await official.request('/predictions', { method: 'GET', params: { created_after: since.toISOString() } })).json()) as Page<ReplicatePrediction>;
    const listed = page.results.filter((p) => p.model === model);
    expect(listed.map((p) => p.id).sort()).toEqual(made.map((p) => p.id).sort());
    for (const p of listed) {
      expect(p).toMatchObject({ status: 'succeeded', source: 'api', urls: { get: expect.stringContaining(p.id) } });
      expect(p).not.toHaveProperty('webhook');
      expect(p).not.toHaveProperty('logs');
    }
    const ours = await api.listPredictions({ createdAfter: since });
    expect(ours.filter((p) => p.input.seed === 42)).toEqual([expect.objectContaining({ id: made[2].id, model, input: { ...input('lena', 1), seed: 42 } })]);
  });

  it('lists newest first, 100 a page with a next page, between created_after and created_before', async () => {
    // Predictions that stay starting: nothing is rendered.
    const slow = await startReplicate({ latency: { startingMs: 600_000, processingMs: 0 } });
    try {
      const official = new Replicate({ auth: slow.token, baseUrl: `${slow.endpoint}/v1` });
      const make = (i: number) => official.predictions.create({ model: 'humanly-preview/maya-chen', input: { prompt: `TOK listed ${i}`, num_outputs: 1 } });
      // Each bound strictly between the creation times around it: the clock has moved past the one before.
      const early = await make(0);
      const from = await eventually(() => Date.now() > Date.parse(early.created_at) && new Date(), { what: 'the clock past the first creation' });
      const made: ReplicatePrediction[] = [];
      for (let i = 1; i <= 104; i++) made.push(await make(i));
      const until = await eventually(() => Date.now() > Date.parse(made.at(-1)!.created_at) && new Date(), { what: 'the clock past the last creation' });
      const late = await make(105);

      const pages: ReplicatePrediction[][] = [];
      const firstPage = (): Promise<Page<ReplicatePrediction>> =>
        official.request('/predictions', { method: 'GET', params: { created_after: from.toISOString(), created_before: until.toISOString() } }).then((r) => r.json());
      for await (const page of official.paginate<ReplicatePrediction>(firstPage)) {
        pages.push(page);
      }
      expect(pages.map((p) => p.length)).toEqual([100, 4]);
      const ids = pages.flat().map((p) => p.id);
      expect(new Set(ids)).toEqual(new Set(made.map((p) => p.id)));
      expect(ids).not.toContain(early.id);
      expect(ids).not.toContain(late.id);
      const times = pages.flat().map((p) => Date.parse(p.created_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      // Our client reads the same window through the pages.
      const ours = replicateApi({ token: slow.token, baseUrl: `${slow.endpoint}/v1` });
      expect((await ours.listPredictions({ createdAfter: from, createdBefore: until })).map((p) => p.id)).toEqual(ids);
      const bad = await fetch(`${slow.endpoint}/v1/predictions?created_after=yesterday`, { headers: { authorization: `Bearer ${slow.token}` } });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { detail: string }).detail).toContain('created_after');
    } finally {
      await slow.stop();
    }
  });

  it('refuses bad input naming the field', async () => {
    const res = await fetch(`${emulator.endpoint}/v1/models/humanly-preview/maya-chen/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { prompt: 'x', num_outputs: 9 } }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toContain('num_outputs');
  });
});
