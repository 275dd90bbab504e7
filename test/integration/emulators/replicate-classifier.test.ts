// The Replicate emulator's industry classifier (decision 039): the official `replicate` client runs
// it as it would run a language model on Replicate, `Prefer: wait` holds the create until the
// answer, the answer comes from the word lists, and the wing's classifier reads it (or has none).
import Replicate from 'replicate';
import { DEFAULT_INDUSTRY_CLASSIFIER_MODEL, industryClassifierInput, INDUSTRY_CHECK_UNAVAILABLE_MESSAGE } from '../../../events/industries';
import { replicateIndustryClassifier } from '../../../functions/generation/industry-classifier';
import { replicateApi } from '../../../functions/shared/replicate';
import { startReplicate, type ReplicateEmulator } from '../../../infra/local/emulators/replicate';

jest.setTimeout(60_000);

let emulator: ReplicateEmulator;
// Image predictions take long here: the classifier's answer must not wait for them.
beforeAll(async () => {
  emulator = await startReplicate({ latency: { startingMs: 2_000, processingMs: 5_000 } });
});
afterAll(() => emulator?.stop());

const official = () => new Replicate({ auth: emulator.token, baseUrl: `${emulator.endpoint}/v1`, useFileOutput: false });
const wing = () => replicateIndustryClassifier(async () => replicateApi({ token: emulator.token, baseUrl: `${emulator.endpoint}/v1`, retry: { maxAttempts: 1 } }), { model: DEFAULT_INDUSTRY_CLASSIFIER_MODEL });

describe('the classifier model on the emulator, through the official client', () => {
  it('answers the refused industry a disguised or branded prompt is about, as streamed tokens', async () => {
    for (const prompt of ['woman holding a Heineken at a bar', 'friends sharing a b\u200Beer', 'une bi\u00E8re en terrasse']) {
      const output = await official().run(DEFAULT_INDUSTRY_CLASSIFIER_MODEL, { input: industryClassifierInput(prompt, ['alcohol']) });
      expect(Array.isArray(output)).toBe(true);
      expect((output as string[]).length).toBeGreaterThan(1);
      expect((output as string[]).join('')).toBe('alcohol');
    }
  });

  it('answers none for an innocent prompt and for an industry the talent did not refuse', async () => {
    const innocent = await official().run(DEFAULT_INDUSTRY_CLASSIFIER_MODEL, { input: industryClassifierInput('a wine-red dress at a gala', ['alcohol']) });
    expect((innocent as string[]).join('')).toBe('none');
    const other = await official().run(DEFAULT_INDUSTRY_CLASSIFIER_MODEL, { input: industryClassifierInput('a quiet chapel at dawn', ['alcohol', 'politics']) });
    expect((other as string[]).join('')).toBe('none');
    const religion = await official().run(DEFAULT_INDUSTRY_CLASSIFIER_MODEL, { input: industryClassifierInput('a quiet chapel at dawn', ['religion']) });
    expect((religion as string[]).join('')).toBe('religion');
  });

  it('holds a create with Prefer: wait until the prediction has ended, in Replicate\'s prediction shape', async () => {
    const prediction = await official().predictions.create({ model: DEFAULT_INDUSTRY_CLASSIFIER_MODEL, input: industryClassifierInput('a Budweiser ad', ['alcohol']), wait: 5 });
    expect(prediction).toMatchObject({
      id: expect.stringMatching(/^[a-z2-7]{26}$/),
      model: DEFAULT_INDUSTRY_CLASSIFIER_MODEL,
      status: 'succeeded',
      error: null,
      data_removed: false,
      urls: { get: expect.stringContaining(`/v1/predictions/${prediction.id}`) },
    });
    expect((prediction.output as string[]).join('')).toBe('alcohol');
    // Without Prefer: wait the create answers at once, as Replicate does.
    const later = await official().predictions.create({ model: DEFAULT_INDUSTRY_CLASSIFIER_MODEL, input: industryClassifierInput('a Budweiser ad', ['alcohol']) });
    expect(later.status).toBe('starting');
  });

  it('refuses a Prefer: wait outside 1 to 60 seconds, and a classifier input of the wrong type', async () => {
    const post = (headers: Record<string, string>, input: unknown) =>
      fetch(`${emulator.endpoint}/v1/models/${DEFAULT_INDUSTRY_CLASSIFIER_MODEL}/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ input }),
      });
    const tooLong = await post({ prefer: 'wait=61' }, industryClassifierInput('a toast', ['alcohol']));
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { detail: string }).detail).toMatch(/wait=n takes a whole number of seconds from 1 to 60/);
    const badTokens = await post({}, { ...industryClassifierInput('a toast', ['alcohol']), max_tokens: 'five' });
    expect(badTokens.status).toBe(422);
    expect(((await badTokens.json()) as { detail: string }).detail).toMatch(/^input\.max_tokens: /);
  });
});

describe('the wing\'s classifier against the emulator', () => {
  afterEach(() => emulator.clear());

  it('reads the industry, or none', async () => {
    await expect(wing().classify('a frosty pint of Guinness', ['alcohol'])).resolves.toBe('alcohol');
    await expect(wing().classify('a ceramicist in her sunlit studio', ['alcohol', 'politics'])).resolves.toBeUndefined();
  });

  it('has no answer when the classifier\'s prediction fails, or Replicate is down', async () => {
    emulator.inject({ kind: 'prediction-failed', model: DEFAULT_INDUSTRY_CLASSIFIER_MODEL, promptIncludes: 'marker-one' });
    await expect(wing().classify('a potter marker-one', ['alcohol'])).rejects.toMatchObject({
      name: 'IndustryCheckUnavailable',
      message: INDUSTRY_CHECK_UNAVAILABLE_MESSAGE,
      reason: expect.stringMatching(/ended failed/),
    });
    emulator.inject({ kind: 'http-5xx', times: 1 });
    await expect(wing().classify('a potter', ['alcohol'])).rejects.toMatchObject({ name: 'IndustryCheckUnavailable', reason: expect.stringMatching(/503/) });
    // Back to normal once the faults are spent.
    await expect(wing().classify('a potter marker-one', ['alcohol'])).resolves.toBeUndefined();
  });

  it('a fault scoped by promptIncludes leaves other predictions alone', async () => {
    emulator.inject({ kind: 'prediction-failed', model: DEFAULT_INDUSTRY_CLASSIFIER_MODEL, promptIncludes: 'marker-two' });
    await expect(wing().classify('a potter at her wheel', ['alcohol'])).resolves.toBeUndefined();
    await expect(wing().classify('a potter marker-two', ['alcohol'])).rejects.toMatchObject({ name: 'IndustryCheckUnavailable' });
  });
});
