import { parseVersionRef, replicateApi, ReplicateError, retryAfterMs, versionIdOf } from '../../../functions/shared/replicate';

const VERSION = 'a'.repeat(64);

/** A fetch that answers from a script, one entry per call, and records what it was asked. */
function scripted(answers: Array<Response | Error>) {
  const calls: Array<{ url: string; method: string; headers: Headers; body?: string }> = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
    });
    const next = answers.shift();
    if (!next) throw new Error('the script ran out of answers');
    if (next instanceof Error) throw next;
    return next;
  }) as typeof fetch;
  return { fetchFn, calls };
}

const prediction = (status = 'starting', extra: Record<string, unknown> = {}) =>
  new Response(JSON.stringify({ id: 'p1', status, output: null, error: null, urls: {}, ...extra }), {
    status: 201,
    headers: { 'content-type': 'application/json' },
  });
const failure = (status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ detail: `status ${status}` }), { status, headers });

function client(answers: Array<Response | Error>, retry = {}, random?: () => number) {
  const script = scripted(answers);
  const sleeps: number[] = [];
  const api = replicateApi({
    random,
    token: 'r8_test_token',
    baseUrl: 'http://replicate.test/v1',
    fetch: script.fetchFn,
    retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 2000, ...retry },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  return { api, calls: script.calls, sleeps };
}

const create = {
  model: 'humanly-preview/maya-chen',
  input: { prompt: 'TOK a portrait', num_outputs: 2 },
  webhook: 'https://hooks.test/replicate',
  webhookEventsFilter: ['start', 'completed'] as Array<'start' | 'completed'>,
  cancelAfterSeconds: 90,
};

describe('Replicate client', () => {
  it('sends the token, the model route, the webhook and the Cancel-After deadline', async () => {
    const { api, calls } = client([prediction()]);
    const p = await api.createPrediction(create);
    expect(p).toEqual({ id: 'p1', status: 'starting', output: null, error: null });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('http://replicate.test/v1/models/humanly-preview/maya-chen/predictions');
    expect(calls[0].method).toBe('POST');
    expect(calls[0].headers.get('authorization')).toBe('Bearer r8_test_token');
    expect(calls[0].headers.get('cancel-after')).toBe('90s');
    expect(JSON.parse(calls[0].body!)).toEqual({
      input: create.input,
      webhook: create.webhook,
      webhook_events_filter: ['start', 'completed'],
    });
  });

  it('creates by version on /predictions', async () => {
    const { api, calls } = client([prediction()]);
    await api.createPrediction({ ...create, model: undefined, version: VERSION, cancelAfterSeconds: undefined });
    expect(calls[0].url).toBe('http://replicate.test/v1/predictions');
    expect(calls[0].headers.get('cancel-after')).toBeNull();
    expect(JSON.parse(calls[0].body!).version).toBe(VERSION);
  });

  it('retries a 429 after the Retry-After it was given, then succeeds', async () => {
    const { api, calls, sleeps } = client([failure(429, { 'Retry-After': '1' }), prediction()]);
    const p = await api.createPrediction(create);
    expect(p.id).toBe('p1');
    expect(calls).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
    // The retry is the same request.
    expect(calls[1].body).toBe(calls[0].body);
    expect(calls[1].headers.get('cancel-after')).toBe('90s');
  });

  it('reads Retry-After as an HTTP date too', async () => {
    expect(retryAfterMs(new Date(10_000 + 3_000).toUTCString(), 10_000)).toBe(3_000);
    expect(retryAfterMs('2', 0)).toBe(2_000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs(null, 0)).toBeUndefined();
  });

  it('backs off with full jitter on 5xx and stops after the bounded attempts', async () => {
    const { api, calls, sleeps } = client([failure(503), failure(500), failure(502), failure(503), prediction()]);
    const err = await api.getPrediction('p1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplicateError);
    expect(err).toMatchObject({ status: 503, retryable: true });
    // 4 attempts in all, although the package has a retry loop of its own for GET 5xx.
    expect(calls).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
    // Full jitter: each wait lies between 0 and the doubling ceiling (100, 200, 400).
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(100 * 2 ** i);
    });
  });

  it('does not wait longer than its ceiling: a Retry-After beyond it ends the retries', async () => {
    const { api, calls, sleeps } = client([failure(429, { 'Retry-After': '60' }), prediction()]);
    await expect(api.createPrediction(create)).rejects.toMatchObject({ status: 429, retryable: true });
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries network errors', async () => {
    const { api, calls } = client([new TypeError('fetch failed'), prediction('processing')]);
    expect((await api.getPrediction('p1')).status).toBe('processing');
    expect(calls).toHaveLength(2);
  });

  it.each([400, 401, 404, 422])('does not retry a %i', async (status) => {
    const { api, calls, sleeps } = client([failure(status), prediction()]);
    const err = await api.createPrediction(create).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplicateError);
    expect(err).toMatchObject({ status, retryable: false });
    expect((err as Error).message).toContain(`status ${status}`);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('reads the webhook secret once and keeps it', async () => {
    const { api, calls } = client([new Response(JSON.stringify({ key: 'whsec_c2VjcmV0' }), { status: 200 })]);
    expect(await api.webhookSecret()).toBe('whsec_c2VjcmV0');
    expect(await api.webhookSecret()).toBe('whsec_c2VjcmV0');
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('http://replicate.test/v1/webhooks/default/secret');
  });

  it('downloads outputs without the token, retrying like the API', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const { api, calls } = client([failure(500), new Response(png, { status: 200 })]);
    expect(await api.fetchOutput('http://files.test/out/0.png')).toEqual(png);
    expect(calls).toHaveLength(2);
    expect(calls[1].headers.get('authorization')).toBeNull();
  });

  it('answers a gone output as a 404 that is not retried', async () => {
    const { api, calls } = client([failure(404)]);
    await expect(api.fetchOutput('http://files.test/out/0.png')).rejects.toMatchObject({ status: 404, retryable: false });
    expect(calls).toHaveLength(1);
  });

  it('never sends a create again after an unsure answer (none, or a 5xx): it may have been made; the error says so', async () => {
    for (const unsure of [new TypeError('fetch failed'), failure(503), failure(502)]) {
      const { api, calls, sleeps } = client([unsure, prediction(), prediction()]);
      const err = await api.createPrediction(create).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReplicateError);
      expect(err).toMatchObject({ retryable: true, unsure: true });
      expect(calls).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
    // A refusal is sure: nothing was made.
    const refused = client([failure(422)]);
    await expect(refused.api.createPrediction(create)).rejects.toMatchObject({ status: 422, unsure: false });
    // Reads are still retried through 5xx and network errors.
    const read = client([failure(503), new TypeError('fetch failed'), prediction('processing')]);
    expect((await read.api.getPrediction('p1')).status).toBe('processing');
    expect(read.calls).toHaveLength(3);
  });

  it('lists predictions of a time window page by page, newest first, with the fields that tell ours apart', async () => {
    const item = (id: string, createdAt: string) => ({
      id,
      status: 'succeeded',
      output: ['https://replicate.delivery/x.png'],
      error: null,
      model: 'humanly-preview/maya-chen',
      version: 'hidden',
      created_at: createdAt,
      input: { prompt: 'MAYA a potter', seed: 7 },
      urls: {},
    });
    const page = (results: unknown[], next?: string) => new Response(JSON.stringify({ results, next: next ?? null, previous: null }), { status: 200 });
    const { api, calls } = client([
      page([item('p3', '2026-03-10T12:00:03Z'), item('p2', '2026-03-10T12:00:02Z')], 'http://replicate.test/v1/predictions?cursor=abc'),
      page([item('p1', '2026-03-10T12:00:01Z')]),
    ]);
    const listed = await api.listPredictions({ createdAfter: new Date('2026-03-10T11:59:00Z'), createdBefore: new Date('2026-03-10T12:02:00Z') });
    expect(listed.map((p) => p.id)).toEqual(['p3', 'p2', 'p1']);
    expect(listed[0]).toEqual({
      id: 'p3',
      status: 'succeeded',
      output: ['https://replicate.delivery/x.png'],
      error: null,
      model: 'humanly-preview/maya-chen',
      version: 'hidden',
      createdAt: '2026-03-10T12:00:03Z',
      input: { prompt: 'MAYA a potter', seed: 7 },
    });
    const first = new URL(calls[0].url);
    expect(first.pathname).toBe('/v1/predictions');
    expect(Object.fromEntries(first.searchParams)).toEqual({ created_after: '2026-03-10T11:59:00.000Z', created_before: '2026-03-10T12:02:00.000Z' });
    expect(calls[1].url).toBe('http://replicate.test/v1/predictions?cursor=abc');
    expect(calls[1].headers.get('authorization')).toBe('Bearer r8_test_token');
  });

  it('never follows a next page to another host with the token', async () => {
    const { api, calls } = client([new Response(JSON.stringify({ results: [], next: 'https://elsewhere.example/v1/predictions?cursor=x' }), { status: 200 })]);
    await expect(api.listPredictions({ createdAfter: new Date(0) })).rejects.toThrow('Replicate answered a next page on another host');
    expect(calls).toHaveLength(1);
  });

  it('refuses an id or model that is not Replicate-shaped before calling', async () => {
    const { api, calls } = client([]);
    await expect(api.getPrediction('../secret')).rejects.toThrow('Prediction id is not a Replicate id');
    await expect(api.createPrediction({ ...create, model: 'no-slash' })).rejects.toThrow("Model must be 'owner/name'");
    expect(calls).toHaveLength(0);
  });
});

describe('Replicate client: trainings, versions and unsure answers', () => {
  const training = (status = 'starting', extra: Record<string, unknown> = {}) =>
    new Response(JSON.stringify({ id: 't1', status, input: { steps: 1000 }, output: null, error: null, urls: { web: 'https://replicate.com/p/t1' }, ...extra }), { status: 201 });
  const trainingArgs = { trainer: 'ostris/flux-dev-lora-trainer', trainerVersion: VERSION, destination: 'humanly/likeness-1', input: { steps: 1000 }, webhook: 'https://hooks.test/t' };

  it('parses one version pattern: 64 hexadecimal characters, alone or as owner/name:id', () => {
    expect(parseVersionRef(`humanly/likeness-1:${VERSION}`)).toEqual({ model: 'humanly/likeness-1', id: VERSION });
    expect(parseVersionRef(VERSION)).toBeUndefined();
    expect(parseVersionRef('humanly/likeness-1:abc123')).toBeUndefined();
    expect(parseVersionRef(42)).toBeUndefined();
    expect(versionIdOf(VERSION)).toBe(VERSION);
    expect(versionIdOf(`humanly/likeness-1:${VERSION}`)).toBe(VERSION);
    expect(versionIdOf('abc123')).toBeUndefined();
    expect(versionIdOf('A'.repeat(64))).toBeUndefined();
  });

  it('refuses a version that is not a version id before calling, for predictions and trainings alike', async () => {
    const { api, calls } = client([]);
    await expect(api.createPrediction({ ...create, model: undefined, version: 'abc123' })).rejects.toMatchObject({ name: 'ReplicateError', unsure: false });
    await expect(api.createTraining({ ...trainingArgs, trainerVersion: 'abc123' })).rejects.toThrow('Version must be a version id');
    await expect(api.deleteVersion('humanly/likeness-1', 'abc123')).rejects.toBeInstanceOf(ReplicateError);
    await expect(api.getTraining('../secret')).rejects.toThrow('Training id is not a Replicate id');
    expect(calls).toHaveLength(0);
  });

  it('creates a training on the trainer version with the destination, the input and the start and completed events', async () => {
    const { api, calls } = client([training()]);
    expect(await api.createTraining(trainingArgs)).toEqual({ id: 't1', status: 'starting', error: null, input: { steps: 1000 }, webUrl: 'https://replicate.com/p/t1' });
    expect(calls[0].url).toBe(`http://replicate.test/v1/models/ostris/flux-dev-lora-trainer/versions/${VERSION}/trainings`);
    expect(JSON.parse(calls[0].body!)).toEqual({ destination: 'humanly/likeness-1', input: { steps: 1000 }, webhook: 'https://hooks.test/t', webhook_events_filter: ['start', 'completed'] });
  });

  it('a training create is sent once after an unsure answer, like a prediction create; a 429 is retried', async () => {
    for (const unsure of [new TypeError('fetch failed'), failure(500)]) {
      const { api, calls } = client([unsure, training()]);
      await expect(api.createTraining(trainingArgs)).rejects.toMatchObject({ name: 'ReplicateError', unsure: true });
      expect(calls).toHaveLength(1);
    }
    const throttled = client([failure(429, { 'Retry-After': '1' }), training()]);
    expect((await throttled.api.createTraining(trainingArgs)).id).toBe('t1');
    expect(throttled.calls).toHaveLength(2);
    const refused = client([failure(422)]);
    await expect(refused.api.createTraining(trainingArgs)).rejects.toMatchObject({ name: 'ReplicateError', status: 422, retryable: false, unsure: false });
  });

  it('a create answered 2xx with a body it cannot read is unsure: it was made', async () => {
    for (const answer of [new Response('<html>', { status: 201 }), new Response(JSON.stringify({ status: 'starting' }), { status: 201 })]) {
      const { api, calls } = client([answer, prediction()]);
      await expect(api.createPrediction(create)).rejects.toMatchObject({ name: 'ReplicateError', unsure: true });
      expect(calls).toHaveLength(1);
    }
  });

  it('reads a training with its version, times, duration and logs page; reads are retried with jitter', async () => {
    const done = training('succeeded', {
      output: { version: `humanly/likeness-1:${VERSION}` },
      metrics: { predict_time: 121.4 },
      created_at: '2026-11-27T09:59:00Z',
      started_at: '2026-11-27T10:00:00Z',
      completed_at: '2026-11-27T10:02:05Z',
    });
    const { api, calls, sleeps } = client([failure(503), new TypeError('fetch failed'), done], {}, () => 0.5);
    expect(await api.getTraining('t1')).toEqual({
      id: 't1',
      status: 'succeeded',
      version: `humanly/likeness-1:${VERSION}`,
      error: null,
      input: { steps: 1000 },
      predictTimeSeconds: 121.4,
      createdAt: '2026-11-27T09:59:00Z',
      startedAt: '2026-11-27T10:00:00Z',
      completedAt: '2026-11-27T10:02:05Z',
      webUrl: 'https://replicate.com/p/t1',
    });
    expect(calls).toHaveLength(3);
    // Half of each doubling ceiling (100, 200): the jitter's randomness is the one given.
    expect(sleeps).toEqual([50, 100]);
  });

  it('lists trainings of a window; a model made before is `exists`, a version already gone is `gone`', async () => {
    const page = new Response(JSON.stringify({ results: [{ id: 't2', status: 'processing', input: {} }], next: null }), { status: 200 });
    const { api, calls } = client([page, failure(409), failure(404)]);
    expect((await api.listTrainings({ createdAfter: new Date('2026-11-27T10:00:00Z') })).map((t) => t.id)).toEqual(['t2']);
    expect(new URL(calls[0].url).pathname).toBe('/v1/trainings');
    expect(new URL(calls[0].url).searchParams.get('created_after')).toBe('2026-11-27T10:00:00.000Z');
    expect(await api.createModel({ owner: 'humanly', name: 'likeness-1', hardware: 'gpu-t4', description: 'x' })).toBe('exists');
    expect(await api.deleteVersion('humanly/likeness-1', VERSION)).toBe('gone');
    expect(calls[2]).toMatchObject({ method: 'DELETE', url: `http://replicate.test/v1/models/humanly/likeness-1/versions/${VERSION}` });
  });

  it('every failure is a ReplicateError, the training calls\' too', async () => {
    const { api } = client([failure(401), failure(403), new Response(JSON.stringify({ id: 'x', status: 'weird' }), { status: 200 })]);
    await expect(api.cancelTraining('t1')).rejects.toMatchObject({ name: 'ReplicateError', status: 401, retryable: false });
    await expect(api.createModel({ owner: 'humanly', name: 'likeness-1', hardware: 'gpu-t4', description: 'x' })).rejects.toMatchObject({ name: 'ReplicateError', status: 403 });
    await expect(api.getTraining('x')).rejects.toThrow('Replicate answered a training without an id or a known status');
  });
});
