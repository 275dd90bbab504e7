// Process env before the S3 client is made: the twin sets these for every function.
process.env.AWS_REQUEST_CHECKSUM_CALCULATION = 'WHEN_REQUIRED';
process.env.AWS_RESPONSE_CHECKSUM_VALIDATION = 'WHEN_REQUIRED';

import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { zipSync, type Zippable } from 'fflate';
import Replicate, { type Prediction, type Training, validateWebhook } from 'replicate';
import sharp from 'sharp';
import { DEFAULT_TRAINER, startReplicate, type ReplicateEmulator } from '../../../infra/local/emulators/replicate';
import { eventually } from '../../support/eventually';
import { useTwin } from '../../support/twin';

jest.setTimeout(60_000);

/** The trainer's version on the emulator: any 64-hex id of the trainer model trains. */
const TRAINER_VERSION = 'e440909d3512c31646ee2e0c7d6f6f4923224863a6a10c494606e79fb5844497';
const [TRAINER_OWNER, TRAINER_NAME] = DEFAULT_TRAINER.split('/');
const GREEN: Rgb = [30, 200, 60];
const RED: Rgb = [220, 40, 40];
const BLUE: Rgb = [40, 60, 220];
type Rgb = [number, number, number];

/** A training set: `count` photos, the first of colour `first`, the others blue, each with a caption. */
async function trainingZip(count: number, first: Rgb = GREEN): Promise<Buffer> {
  const files: Zippable = {};
  for (let i = 0; i < count; i++) {
    const [r, g, b] = i === 0 ? first : BLUE;
    files[`photo-${String(i + 1).padStart(2, '0')}.jpg`] = await sharp({ create: { width: 160, height: 200, channels: 3, background: { r, g, b } } })
      .jpeg()
      .toBuffer();
    files[`photo-${String(i + 1).padStart(2, '0')}.txt`] = Buffer.from('a photo of TOK');
  }
  return Buffer.from(zipSync(files));
}

/** The colour at the middle of an image: where a preview shows its subject, clear of banner, caption and frame. */
async function middle(png: Buffer): Promise<Rgb> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}
const near = (a: Rgb, b: Rgb) => a.every((v, i) => Math.abs(v - b[i]) <= 24);

/** Webhooks as received: raw body and headers, answered 204. */
async function receiver() {
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/replicate-training`,
    received,
    /** The trainings the webhooks about one training carried, in order of arrival. */
    about: (id: string) => received.filter((r) => (JSON.parse(r.body) as Training).id === id),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

/** The HTTP status of a call the client refused. */
const statusOf = (call: Promise<unknown>) =>
  call.then(
    () => 'answered',
    (err: { response?: Response }) => err.response?.status,
  );
const settled = (client: Replicate, id: string) =>
  eventually(
    async () => {
      const t = await client.trainings.get(id);
      return ['succeeded', 'failed', 'canceled'].includes(t.status) && t;
    },
    { timeoutMs: 20_000, what: `training ${id} to end` },
  );
const predicted = (client: Replicate, id: string) =>
  eventually(
    async () => {
      const p = await client.predictions.get(id);
      return ['succeeded', 'failed', 'canceled'].includes(p.status) && p;
    },
    { timeoutMs: 20_000, what: `prediction ${id} to end` },
  );

describe('trainings on the shared twin, through the official replicate client', () => {
  const twin = useTwin();
  let hooks: Awaited<ReturnType<typeof receiver>>;
  let official: Replicate;
  let token: string;
  beforeAll(async () => {
    hooks = await receiver();
    const secrets = new SecretsManagerClient({
      endpoint: twin().sdkEnv.AWS_ENDPOINT_URL_SECRETS_MANAGER,
      region: twin().sdkEnv.AWS_REGION,
      credentials: { accessKeyId: twin().sdkEnv.AWS_ACCESS_KEY_ID, secretAccessKey: twin().sdkEnv.AWS_SECRET_ACCESS_KEY },
    });
    token = (await secrets.send(new GetSecretValueCommand({ SecretId: twin().physicalName('ReplicateToken') }))).SecretString!;
    official = new Replicate({ auth: token, baseUrl: `${twin().urls.replicate}/v1`, useFileOutput: false });
  });
  afterAll(() => hooks?.close());

  /** The zip in the twin's bucket, by a presigned URL valid for an hour (as the workflow passes it). */
  async function presignedZip(zip: Buffer): Promise<string> {
    const s3 = new S3Client({
      endpoint: twin().sdkEnv.AWS_ENDPOINT_URL_S3,
      forcePathStyle: true,
      region: twin().sdkEnv.AWS_REGION,
      credentials: { accessKeyId: twin().sdkEnv.AWS_ACCESS_KEY_ID, secretAccessKey: twin().sdkEnv.AWS_SECRET_ACCESS_KEY },
    });
    const location = { Bucket: twin().physicalName('GeneratedImages'), Key: `replicate-training-test/${randomBytes(6).toString('hex')}/training-set.zip` };
    await s3.send(new PutObjectCommand({ ...location, Body: zip, ContentType: 'application/zip' }));
    const url = await getSignedUrl(s3, new GetObjectCommand(location), { expiresIn: 3600 });
    s3.destroy();
    return url;
  }

  it('creates a private model, trains a version into it from a presigned zip, signs the webhooks, runs and deletes the version', async () => {
    const account = await official.accounts.current();
    const name = `talent-${randomBytes(4).toString('hex')}`;
    const destination = `${account.username}/${name}` as const;
    const model = await official.models.create(account.username, name, { visibility: 'private', hardware: 'gpu-t4', description: 'A likeness model' });
    expect(model).toMatchObject({ owner: account.username, name, visibility: 'private', description: 'A likeness model', latest_version: null, run_count: 0 });
    expect(await official.models.get(account.username, name)).toEqual(model);
    expect(await statusOf(official.models.create(account.username, name, { visibility: 'private', hardware: 'gpu-t4' }))).toBe(409);

    const created = await official.trainings.create(TRAINER_OWNER, TRAINER_NAME, TRAINER_VERSION, {
      destination,
      input: { input_images: await presignedZip(await trainingZip(12)), trigger_word: 'TOKMAYA', steps: 1000 },
      webhook: hooks.url,
      webhook_events_filter: ['start', 'completed'],
    });
    expect(created).toMatchObject({ status: 'starting', model: DEFAULT_TRAINER, version: TRAINER_VERSION, output: null, source: 'api' });
    expect(created.urls.get).toBe(`${twin().urls.replicate}/v1/trainings/${created.id}`);

    const done = await settled(official, created.id);
    expect(done).toMatchObject({ status: 'succeeded', error: null });
    expect(done.output?.version).toMatch(new RegExp(`^${destination}:[a-f0-9]{64}$`));
    expect(done.logs).toContain('Found 12 images and 12 captions');
    expect(done.metrics?.predict_time).toBeGreaterThan(0);
    expect(Date.parse(done.completed_at!)).toBeGreaterThanOrEqual(Date.parse(done.started_at!));
    const versionId = done.output!.version!.split(':')[1];
    const weights = Buffer.from(await (await fetch(done.output!.weights!)).arrayBuffer());
    expect(weights.subarray(257, 262).toString()).toBe('ustar');

    // Both webhooks, signed with the account's secret: the package's validator accepts them, and
    // refuses a body changed on the way.
    const { key: secret } = await official.webhooks.default.secret.get();
    await eventually(() => hooks.about(created.id).length === 2, { timeoutMs: 10_000, what: 'the start and completed webhooks' });
    const [start, completed] = hooks.about(created.id);
    const asReceived = (hook: { headers: Record<string, string>; body: string }) => new Request(hooks.url, { method: 'POST', headers: hook.headers, body: hook.body });
    for (const hook of [start, completed]) expect(await validateWebhook(asReceived(hook), secret)).toBe(true);
    expect(await validateWebhook(asReceived({ ...completed, body: completed.body.replace('succeeded', 'failed') }), secret)).toBe(false);
    expect((JSON.parse(start.body) as Training).status).toBe('starting');
    expect(JSON.parse(completed.body)).toEqual(done);

    const versions = await official.models.versions.list(account.username, name);
    expect(versions.results.map((v) => v.id)).toEqual([versionId]);
    expect(await official.models.versions.get(account.username, name, versionId)).toEqual(versions.results[0]);
    expect((await official.models.get(account.username, name)).latest_version?.id).toBe(versionId);

    // A prediction on the trained version draws its preview from the set's first photo, and the
    // emulator records the version it ran.
    const prediction = await predicted(official, (await official.predictions.create({ version: versionId, input: { prompt: 'TOKMAYA reading on a bench', num_outputs: 1 } })).id);
    expect(prediction).toMatchObject({ status: 'succeeded', model: destination, version: versionId });
    const [image] = prediction.output as string[];
    expect(near(await middle(Buffer.from(await (await fetch(image)).arrayBuffer())), GREEN)).toBe(true);
    expect((await twin().replicate.predictions()).find((p) => p.id === prediction.id)).toMatchObject({ model: destination, version: versionId });
    expect((await twin().replicate.trainings()).find((t) => t.id === created.id)).toMatchObject({ destination, webhooksDelivered: ['start', 'completed'] });

    // Deleting the version: 202, then gone with its predictions and weights.
    const deleted = await official.request(`/models/${destination}/versions/${versionId}`, { method: 'DELETE' });
    expect(deleted.status).toBe(202);
    expect((await official.models.versions.list(account.username, name)).results).toEqual([]);
    expect(await statusOf(official.models.versions.get(account.username, name, versionId))).toBe(404);
    expect(await statusOf(official.predictions.get(prediction.id))).toBe(404);
    expect(await statusOf(official.predictions.create({ version: versionId, input: { prompt: 'TOKMAYA again' } }))).toBe(422);
    expect((await fetch(done.output!.weights!)).status).toBe(404);
    expect((await twin().replicate.models()).find((m) => m.name === name)?.versions).toEqual([expect.objectContaining({ id: versionId, deleted: true })]);
  });

  it('cancels a training, which then adds no version; lists trainings newest first', async () => {
    const account = await official.accounts.current();
    const name = `talent-${randomBytes(4).toString('hex')}`;
    await official.models.create(account.username, name, { visibility: 'private', hardware: 'gpu-t4' });
    const input = { input_images: await presignedZip(await trainingZip(10)), trigger_word: 'TOKCANCEL' };
    const first = await official.trainings.create(TRAINER_OWNER, TRAINER_NAME, TRAINER_VERSION, { destination: `${account.username}/${name}`, input, webhook: hooks.url, webhook_events_filter: ['completed'] });
    const canceled = await official.trainings.cancel(first.id);
    expect(canceled.status).toBe('canceled');
    expect(canceled.output).toBeNull();
    expect((await official.trainings.get(first.id)).status).toBe('canceled');
    // Canceling again changes nothing.
    expect(await official.trainings.cancel(first.id)).toEqual(await official.trainings.get(first.id));
    await eventually(() => hooks.about(first.id).length === 1, { timeoutMs: 10_000, what: 'the completed webhook' });
    expect((JSON.parse(hooks.about(first.id)[0].body) as Training).status).toBe('canceled');

    const second = await official.trainings.create(TRAINER_OWNER, TRAINER_NAME, TRAINER_VERSION, { destination: `${account.username}/${name}`, input });
    const page = await official.trainings.list();
    const ours = page.results.map((t) => t.id).filter((id) => id === first.id || id === second.id);
    expect(ours).toEqual([second.id, first.id]);
    expect(page.results.find((t) => t.id === first.id)).not.toHaveProperty('logs');
    expect((await settled(official, second.id)).status).toBe('succeeded');
    expect((await official.models.versions.list(account.username, name)).results).toHaveLength(1);
  });
});

describe('training refusals and faults, on an emulator of their own', () => {
  let emulator: ReplicateEmulator;
  let official: Replicate;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  let zips: http.Server;
  let zipsUrl = '';
  const served = new Map<string, Buffer>();
  /** Serves a body at a fresh URL of the test's file server. */
  const serve = (body: Buffer) => {
    const at = `/${randomBytes(6).toString('hex')}.zip`;
    served.set(at, body);
    return `${zipsUrl}${at}`;
  };
  let n = 0;
  /** A fresh private model of the emulator's account. */
  const newModel = async (visibility: 'private' | 'public' = 'private') => {
    const name = `faults-${++n}`;
    await official.models.create(emulator.account, name, { visibility, hardware: 'gpu-t4' });
    return `${emulator.account}/${name}` as const;
  };
  const train = (destination: `${string}/${string}`, inputImages: string, extra: Record<string, unknown> = {}) =>
    official.trainings.create(TRAINER_OWNER, TRAINER_NAME, TRAINER_VERSION, {
      destination,
      input: { input_images: inputImages, trigger_word: 'TOK', ...extra },
      webhook: hooks.url,
      webhook_events_filter: ['start', 'completed'],
    });
  const completedHook = (id: string) => hooks.about(id).map((h) => JSON.parse(h.body) as Training).find((t) => t.status !== 'starting' && t.status !== 'processing');

  beforeAll(async () => {
    // Its own emulator: faults are global to an emulator, and other files share the twin's.
    emulator = await startReplicate({ trainingLatency: { startingMs: 20, processingMs: 150 }, latency: { startingMs: 10, processingMs: 50 }, webhookRetryDelaysMs: [50] });
    official = new Replicate({ auth: emulator.token, baseUrl: `${emulator.endpoint}/v1`, useFileOutput: false });
    hooks = await receiver();
    zips = http.createServer((req, res) => {
      const body = served.get(req.url ?? '');
      if (!body) res.writeHead(404).end('NoSuchKey');
      else res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(body.length) }).end(body);
    });
    await new Promise<void>((r) => zips.listen(0, '127.0.0.1', r));
    zipsUrl = `http://127.0.0.1:${(zips.address() as { port: number }).port}`;
  });
  afterEach(() => emulator.clear());
  afterAll(async () => {
    await hooks?.close();
    zips?.closeAllConnections();
    await new Promise((r) => zips?.close(r));
    await emulator?.stop();
  });

  it('refuses bad models and trainings as Replicate does', async () => {
    const request = async (method: string, route: string, body?: unknown, auth = emulator.token) => {
      const res = await fetch(`${emulator.endpoint}/v1${route}`, {
        method,
        headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, detail: ((await res.json()) as { detail?: string }).detail ?? '' };
    };
    const owner = emulator.account;
    expect(await request('POST', '/models', { owner: 'someone-else', name: 'x', visibility: 'private', hardware: 'gpu-t4' })).toMatchObject({ status: 403 });
    expect(await request('POST', '/models', { owner, name: 'Not Valid', visibility: 'private', hardware: 'gpu-t4' })).toMatchObject({ status: 422, detail: expect.stringContaining('name') });
    expect(await request('POST', '/models', { owner, name: 'ok', visibility: 'secret', hardware: 'gpu-t4' })).toMatchObject({ status: 422, detail: expect.stringContaining('visibility') });
    expect(await request('POST', '/models', { owner, name: 'ok', visibility: 'private', hardware: 'gpu-abacus' })).toMatchObject({ status: 422, detail: expect.stringContaining('hardware') });
    expect(await request('POST', '/models', { owner, name: 'ok', visibility: 'private', hardware: 'gpu-t4' }, 'r8_not_ours')).toMatchObject({ status: 401 });
    expect(await request('GET', `/models/${owner}/never-made`)).toMatchObject({ status: 404 });

    const destination = await newModel();
    const zip = serve(await trainingZip(10));
    const trainings = `/models/${DEFAULT_TRAINER}/versions/${TRAINER_VERSION}/trainings`;
    expect(await request('POST', trainings, { destination: `${owner}/never-made`, input: { input_images: zip } })).toEqual({
      status: 404,
      detail: 'The specified training destination does not exist',
    });
    expect(await request('POST', trainings, { input: { input_images: zip } })).toMatchObject({ status: 422, detail: expect.stringContaining('destination') });
    expect(await request('POST', trainings, { destination, input: { trigger_word: 'TOK' } })).toMatchObject({ status: 422, detail: expect.stringContaining('input_images') });
    expect(await request('POST', trainings, { destination, input: { input_images: 'file:///etc/passwd' } })).toMatchObject({ status: 422, detail: expect.stringContaining('input_images') });
    expect(await request('POST', trainings, { destination, input: { input_images: zip, steps: 0 } })).toMatchObject({ status: 422, detail: expect.stringContaining('steps') });
    expect(await request('POST', trainings, { destination, input: { input_images: zip }, webhook_events_filter: ['finished'] })).toMatchObject({ status: 422 });
    expect(await request('POST', `/models/someone/not-a-trainer/versions/${TRAINER_VERSION}/trainings`, { destination, input: { input_images: zip } })).toMatchObject({ status: 422 });
    expect(await request('POST', `/models/${DEFAULT_TRAINER}/versions/not-a-version/trainings`, { destination, input: { input_images: zip } })).toMatchObject({ status: 404 });
    expect(await request('GET', '/trainings/abcdefghijklmnopqrstuvwxyz')).toMatchObject({ status: 404 });
    // None of these made a training.
    expect(emulator.trainings()).toEqual([]);
  });

  it('fails a training whose zip cannot be fetched, is not a zip, or holds fewer than 10 images, saying why', async () => {
    const destination = await newModel();
    const cases = [
      { url: `${zipsUrl}/missing.zip`, error: 'input_images could not be downloaded (HTTP 404)' },
      { url: 'http://127.0.0.1:9/closed.zip', error: /^input_images could not be downloaded \(.+\)$/ },
      { url: serve(Buffer.from('<Error><Code>AccessDenied</Code></Error>')), error: 'input_images is not a zip file' },
      { url: serve(await trainingZip(9)), error: 'input_images holds 9 images; the trainer needs at least 10' },
    ];
    const made = await Promise.all(cases.map((c) => train(destination, c.url)));
    for (const [i, t] of made.entries()) {
      const done = await settled(official, t.id);
      expect(done).toMatchObject({ status: 'failed', output: null, error: cases[i].error });
      expect(done.logs).toContain(`Error: ${done.error}`);
      await eventually(() => completedHook(t.id), { timeoutMs: 5_000, what: 'the completed webhook' });
      expect(completedHook(t.id)).toEqual(done);
    }
    expect((await official.models.versions.list(emulator.account, destination.split('/')[1])).results).toEqual([]);
  });

  it('a training-failed fault fails only trainings into its destination, after the set was read', async () => {
    const failing = await newModel();
    const other = await newModel();
    emulator.inject({ kind: 'training-failed', destination: failing });
    const zip = serve(await trainingZip(10));
    const kept = await train(other, zip);
    const failed = await train(failing, zip);
    const done = await settled(official, failed.id);
    expect(done).toMatchObject({ status: 'failed', output: null, error: expect.stringMatching(/emulated failure/) });
    expect(done.logs).toContain('Found 10 images');
    expect((await settled(official, kept.id)).status).toBe('succeeded');
    expect((await official.models.versions.list(emulator.account, failing.split('/')[1])).results).toEqual([]);
    // Taken once: the next training into it succeeds.
    expect((await settled(official, (await train(failing, zip)).id)).status).toBe('succeeded');
  });

  it('a lost webhook: the training succeeds and sends nothing, so only a poller finds it', async () => {
    const destination = await newModel();
    emulator.inject({ kind: 'training-lose-webhook', destination });
    const zip = serve(await trainingZip(10));
    const lost = await train(destination, zip);
    const kept = await train(destination, zip);
    // Polling finds the lost one finished, with its new version.
    const found = await settled(official, lost.id);
    expect(found.status).toBe('succeeded');
    expect(found.output?.version).toMatch(/:[a-f0-9]{64}$/);
    // The other training's completed webhook arrives; the lost one's never went.
    await settled(official, kept.id);
    await eventually(() => completedHook(kept.id), { timeoutMs: 5_000, what: "the kept training's completed webhook" });
    expect(hooks.about(lost.id)).toEqual([]);
    expect(emulator.trainings().find((t) => t.id === lost.id)?.webhooksDelivered).toEqual([]);
  });

  it('a training that never finishes stays processing until canceled', async () => {
    const destination = await newModel();
    emulator.inject({ kind: 'training-never-finish', destination });
    const zip = serve(await trainingZip(10));
    const stuck = await train(destination, zip);
    const control = await train(destination, zip);
    // A training started after it has ended: the stuck one is still processing.
    expect((await settled(official, control.id)).status).toBe('succeeded');
    expect((await official.trainings.get(stuck.id)).status).toBe('processing');
    const canceled = await official.trainings.cancel(stuck.id);
    expect(canceled).toMatchObject({ status: 'canceled', output: null });
    expect(canceled.logs).toMatch(/Canceled\n$/);
    await eventually(() => completedHook(stuck.id), { timeoutMs: 5_000, what: 'the completed webhook' });
    expect(completedHook(stuck.id)?.status).toBe('canceled');
    expect((await official.models.versions.list(emulator.account, destination.split('/')[1])).results).toHaveLength(1);
  });

  it("a prediction by the model's name runs its latest version; each version draws from its own set's first photo", async () => {
    const destination = await newModel();
    const first = await settled(official, (await train(destination, serve(await trainingZip(10, GREEN)))).id);
    const second = await settled(official, (await train(destination, serve(await trainingZip(11, RED)))).id);
    const [firstVersion, secondVersion] = [first, second].map((t) => t.output!.version!.split(':')[1]);
    expect((await official.models.versions.list(emulator.account, destination.split('/')[1])).results.map((v) => v.id)).toEqual([secondVersion, firstVersion]);

    const run = async (create: Promise<Prediction>) => {
      const p = await predicted(official, (await create).id);
      return { version: p.version, colour: await middle(Buffer.from(await (await fetch((p.output as string[])[0])).arrayBuffer())) };
    };
    const byName = await run(official.predictions.create({ model: destination, input: { prompt: 'TOK at the beach' } }));
    expect(byName.version).toBe(secondVersion);
    expect(near(byName.colour, RED)).toBe(true);
    const byOlderVersion = await run(official.predictions.create({ version: `${destination}:${firstVersion}`, input: { prompt: 'TOK at the beach' } }));
    expect(byOlderVersion.version).toBe(firstVersion);
    expect(near(byOlderVersion.colour, GREEN)).toBe(true);
    expect(emulator.predictions().map((p) => p.version)).toEqual(expect.arrayContaining([firstVersion, secondVersion]));
    expect((await official.models.get(emulator.account, destination.split('/')[1])).run_count).toBe(2);
  });

  it("deletes only a private model's versions", async () => {
    const destination = await newModel('public');
    const done = await settled(official, (await train(destination, serve(await trainingZip(10)))).id);
    const res = await official.request(`/models/${done.output!.version!.replace(':', '/versions/')}`, { method: 'DELETE' }).catch((e: { response: Response }) => e.response);
    expect(res.status).toBe(403);
    expect((await official.models.versions.list(emulator.account, destination.split('/')[1])).results).toHaveLength(1);
  });
});
