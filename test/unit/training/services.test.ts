// The training wing's services without AWS, over the store and Replicate in memory: the start of
// a training whose create's answer was lost (one training on Replicate, never two), Replicate's
// webhook (a bad signature, a foreign training, a replay, a stale token), the acceptance's
// consumer (once per application), the failure record, removal and erasure, the model's state
// as the talent sees it, and the console's refusals.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { FAILURE_METRICS } from '../../../events/metrics';
import { NOT_APPROVED_MESSAGE, TRAINING_NOT_FOUND_MESSAGE, TRAINING_RUNNING_MESSAGE } from '../../../events/training-values';
import { retrain } from '../../../functions/training/routes/retrain-likeness/service';
import { rollback } from '../../../functions/training/routes/rollback-likeness/service';
import { removeLikenessModel } from '../../../functions/training';
import { ReplicateError } from '../../../functions/shared/replicate';
import { handleTrainingWebhook, TRAINING_MISMATCH_MESSAGE } from '../../../functions/training/routes/replicate-training-webhook/service';
import { generateSamples } from '../../../functions/training/steps/generate-samples/service';
import { recordFailure } from '../../../functions/training/steps/record-failure/service';
import { startTraining } from '../../../functions/training/steps/start-training/service';
import { startLikenessTraining } from '../../../functions/training/triggers/start-likeness-training/service';
import { modelStateOf } from '../../../functions/training/views';
import type { LikenessModelRecord, TrainingRecord } from '../../../functions/training/store';
import { httpHandler, type HttpEvent } from '../../../functions/shared/http';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import { noRateLimit } from '../../../functions/shared/rate-limit';
import { memoryBucket } from '../../../functions/shared/s3';
import { metricsWritten } from '../../support/metrics';
import { fakeReplicate, WEBHOOK_SECRET } from './fake-replicate';
import { memoryTrainingStore } from './memory-store';

const TALENT = 'ada-lovelace-1a2b3c';
const APP = 'app_abcdefghijklmnopqrst';
const T1 = 'trn_aaaaaaaaaaaaaaaaaaaa';
const T2 = 'trn_bbbbbbbbbbbbbbbbbbbb';
const AT = '2026-11-27T10:00:00.000Z';
const CONFIG = {
  TRAINER: 'ostris/flux-dev-lora-trainer',
  TRAINER_VERSION: 'e440909d3512c31646ee2e0c7d6f6f4923224863a6a10c494606e79fb5844497',
  TRAINER_INPUTS: { images: 'input_images', triggerWord: 'trigger_word', steps: 'steps' },
  TRAINING_STEPS: 1000,
  MODEL_OWNER: 'humanly',
  TRAINING_HARDWARE: 'gpu-h100',
  TRAINING_IMAGE_SIZE: 1024,
};

const model = (over: Partial<LikenessModelRecord> = {}): LikenessModelRecord => ({
  talentId: TALENT,
  applicationId: APP,
  replicateModel: 'humanly/likeness-0123456789abcdef',
  triggerWord: 'HMLBCD2FG3',
  rejections: 0,
  createdAt: AT,
  updatedAt: AT,
  ...over,
});
const training = (over: Partial<TrainingRecord> = {}): TrainingRecord => ({
  id: T1,
  talentId: TALENT,
  applicationId: APP,
  number: 1,
  reason: 'acceptance',
  status: 'preparing',
  createdAt: AT,
  updatedAt: AT,
  zipKey: `training-sets/${T1}.zip`,
  ...over,
});

async function world(first: Partial<TrainingRecord> = {}) {
  const data = memoryTrainingStore();
  const replicate = fakeReplicate();
  await data.store.createModel(model(), training(first));
  await replicate.api.createModel({ owner: 'humanly', name: 'likeness-0123456789abcdef', hardware: 'gpu-h100', description: '' });
  replicate.calls.length = 0;
  return { data, replicate };
}

describe('StartTraining', () => {
  const deps = (w: Awaited<ReturnType<typeof world>>, now: () => Date, api = w.replicate.api) => ({
    store: w.data.store,
    replicate: async () => api,
    sets: memoryBucket('training'),
    config: CONFIG,
    webhookUrl: 'https://api.example/webhooks/replicate-training',
    now,
  });

  it('starts one training and records it; run again, it creates nothing', async () => {
    const w = await world();
    const d = deps(w, () => new Date(AT));
    const { replicateTrainingId } = await startTraining(d, T1);
    expect(await startTraining(d, T1)).toEqual({ replicateTrainingId });
    expect(w.replicate.calls.filter((c) => c.startsWith('createTraining'))).toHaveLength(1);
    expect(await w.data.store.getTraining(T1)).toMatchObject({ status: 'training', replicateTrainingId, settings: { steps: 1000, hardware: 'gpu-h100' } });
    expect((await w.data.store.getTraining(T1))?.startAttemptAt).toBeUndefined();
  });

  it('a create whose answer was lost: the next attempt waits while it may appear, then finds it in the list by its training set, and never creates a second', async () => {
    const w = await world();
    let clock = Date.parse(AT);
    // Replicate makes the training, and the answer never comes back.
    const lossy = { ...w.replicate.api, createTraining: async (args: Parameters<typeof w.replicate.api.createTraining>[0]) => {
      await w.replicate.api.createTraining(args);
      throw new ReplicateError('Replicate could not be reached (TimeoutError)', undefined, true, true);
    } };
    await expect(startTraining(deps(w, () => new Date(clock), lossy), T1)).rejects.toThrow('could not be reached');
    expect((await w.data.store.getTraining(T1))?.startAttemptAt).toBe(AT);
    // Listed: found at once by the zip's key in its input URL.
    clock += 1_000;
    const found = await startTraining(deps(w, () => new Date(clock)), T1);
    expect(found.replicateTrainingId).toBe([...w.replicate.trainings.keys()][0]);
    expect(w.replicate.trainings.size).toBe(1);
  });

  it('a create that may still appear (not listed yet, the attempt recent) is retried later, not sent again; a refused create may be sent again at once', async () => {
    const w = await world();
    await w.data.store.markStartAttempt(T1, AT, undefined);
    const busy = startTraining(deps(w, () => new Date(Date.parse(AT) + 5_000)), T1);
    await expect(busy).rejects.toMatchObject({ name: 'StartAttemptBusy' });
    expect(w.replicate.trainings.size).toBe(0);
    // Past the settling time, nothing listed: it was not made; create it.
    await startTraining(deps(w, () => new Date(Date.parse(AT) + 60_000)), T1);
    expect(w.replicate.trainings.size).toBe(1);

    const refused = await world();
    const api = { ...refused.replicate.api, createTraining: async () => Promise.reject(new ReplicateError('Replicate answered 422 to creating a training', 422, false)) };
    await expect(startTraining(deps(refused, () => new Date(AT), api), T1)).rejects.toThrow('422');
    expect((await refused.data.store.getTraining(T1))?.startAttemptAt).toBeUndefined();
  });
});

describe('GenerateSamples', () => {
  it('waits for the predictions of the samples, stores each once, and makes none again when run again', async () => {
    const w = await world({ status: 'sampling', version: 'c'.repeat(64) });
    w.replicate.slow();
    const files = memoryBucket('training');
    let sleeps = 0;
    const deps = { store: w.data.store, replicate: async () => w.replicate.api, samples: files, now: () => new Date(AT), sleep: async () => void sleeps++, waitMs: 5_000 };
    expect(await generateSamples(deps, T1)).toEqual({ samples: 4 });
    expect(sleeps).toBe(1);
    expect([...files.objects.keys()].sort()).toEqual([0, 1, 2, 3].map((i) => `samples/${T1}/${i}.png`));
    expect(await w.data.store.getTraining(T1)).toMatchObject({ status: 'ready-for-review', readyAt: AT });
    await generateSamples(deps, T1);
    expect(w.replicate.calls.filter((c) => c.startsWith('createPrediction'))).toHaveLength(4);
    expect([...w.replicate.predictions.values()].map((p) => p.input)).toEqual(
      [0, 1, 2, 3].map(() => expect.objectContaining({ prompt: expect.stringMatching(/^HMLBCD2FG3 /), num_outputs: 1, aspect_ratio: '1:1' })),
    );
  });
});

describe('the training webhook', () => {
  const NOW = new Date();
  function delivery(body: Record<string, unknown>, options: { id?: string; secret?: string; training?: string } = {}): HttpEvent {
    const id = options.id ?? `msg_${randomBytes(6).toString('hex')}`;
    const raw = JSON.stringify(body);
    return {
      headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(NOW.getTime() / 1000)), 'webhook-signature': new Webhook(options.secret ?? WEBHOOK_SECRET).sign(id, NOW, raw) },
      body: raw,
      isBase64Encoded: false,
      queryStringParameters: { training: options.training ?? T1 },
      requestContext: { http: { sourceIp: '203.0.113.9' } },
    } as unknown as HttpEvent;
  }
  const handlerOf = (w: Awaited<ReturnType<typeof world>>, resumed: unknown[], spentToken = false) => {
    const once = inMemoryIdempotency();
    return httpHandler((event) =>
      handleTrainingWebhook(
        {
          store: w.data.store,
          secret: async () => WEBHOOK_SECRET,
          resume: async (token, output) => {
            // resumeTask's answer for a token no execution waits on.
            if (spentToken) return false;
            resumed.push({ token, output });
            return true;
          },
          limit: noRateLimit,
          once,
          now: () => NOW,
        },
        event,
      ),
    );
  };

  it('a final status resumes the waiting execution once; a replay changes nothing', async () => {
    const w = await world({ status: 'training', replicateTrainingId: 'rt1', taskToken: 'token-1' });
    const resumed: unknown[] = [];
    const handler = handlerOf(w, resumed);
    const event = delivery({ id: 'rt1', status: 'succeeded', error: null, output: { version: 'x' } });
    expect((await handler(event)).statusCode).toBe(200);
    expect(JSON.parse((await handler(event)).body!)).toEqual({ received: true, replay: true });
    expect(resumed).toEqual([{ token: 'token-1', output: { status: 'succeeded', error: '' } }]);
    expect((await w.data.store.getTraining(T1))?.replicateStatus).toBe('succeeded');
  });

  it('refuses a bad signature (401) and another training (409) before changing anything; a start webhook records the id a lost answer did not', async () => {
    const w = await world({ status: 'preparing' });
    const resumed: unknown[] = [];
    const handler = handlerOf(w, resumed);
    expect((await handler(delivery({ id: 'rt9', status: 'succeeded', error: null }, { secret: `whsec_${randomBytes(32).toString('base64')}` }))).statusCode).toBe(401);
    expect((await w.data.store.getTraining(T1))?.replicateTrainingId).toBeUndefined();
    expect((await handler(delivery({ id: 'rt1', status: 'starting', error: null }))).statusCode).toBe(200);
    expect((await w.data.store.getTraining(T1))?.replicateTrainingId).toBe('rt1');
    const other = await handler(delivery({ id: 'rt2', status: 'succeeded', error: null }));
    expect({ status: other.statusCode, error: JSON.parse(other.body!).error }).toEqual({ status: 409, error: TRAINING_MISMATCH_MESSAGE });
    expect((await handler(delivery({ id: 'rt1', status: 'succeeded', error: null }, { training: T2 }))).statusCode).toBe(404);
    expect(resumed).toEqual([]);
  });

  it('a token no execution waits on (polling took over) is not an error', async () => {
    const w = await world({ status: 'training', replicateTrainingId: 'rt1', taskToken: 'old' });
    const answer = await handlerOf(w, [], true)(delivery({ id: 'rt1', status: 'failed', error: 'oom' }));
    expect(answer.statusCode).toBe(200);
    expect(await w.data.store.getTraining(T1)).toMatchObject({ replicateStatus: 'failed', replicateError: 'oom' });
  });
});

describe('the acceptance consumer', () => {
  it('starts the training of an accepted application once; a rejection or a repeat starts nothing', async () => {
    const data = memoryTrainingStore();
    const started: string[] = [];
    const deps = { store: data.store, startExecution: async (name: string) => void started.push(name), now: () => new Date(AT) };
    const decided = (decision: string) => ({ version: 1, applicationId: APP, decision, decidedAt: AT });
    expect(await startLikenessTraining(deps, decided('reject'))).toEqual({ started: false });
    expect(await startLikenessTraining(deps, decided('accept'))).toEqual({ started: true });
    expect(await startLikenessTraining(deps, decided('accept'))).toEqual({ started: false });
    expect(started).toEqual([`likeness-${APP}`]);
    // A delivery racing another finds the execution there: started all the same.
    const racing = memoryTrainingStore();
    const already = { ...deps, store: racing.store, startExecution: async () => Promise.reject(Object.assign(new Error('exists'), { name: 'ExecutionAlreadyExists' })) };
    expect(await startLikenessTraining(already, decided('accept'))).toEqual({ started: true });
    await expect(startLikenessTraining({ ...deps, store: memoryTrainingStore().store, startExecution: async () => Promise.reject(new Error('throttled')) }, decided('accept'))).rejects.toThrow('throttled');
  });
});

describe('RecordFailure', () => {
  it('fails a running training with its code, cancels it on Replicate, and counts it; a finished one keeps its status', async () => {
    const w = await world({ status: 'training', replicateTrainingId: 'rt1', replicateStatus: 'processing' });
    w.replicate.trainings.set('rt1', { id: 'rt1', trainer: '', trainerVersion: '', destination: '', input: {}, webhook: '', status: 'processing', error: null });
    const metrics = await metricsWritten(() =>
      recordFailure({ store: w.data.store, replicate: async () => w.replicate.api, now: () => new Date(AT) }, { trainingId: T1, timedOut: true }),
    );
    expect(await w.data.store.getTraining(T1)).toMatchObject({ status: 'failed', failure: { code: 'timed-out', at: AT } });
    expect(w.replicate.calls).toEqual(['cancelTraining rt1']);
    expect(metrics.map((m) => [m.name, m.line.code])).toEqual([[FAILURE_METRICS.trainingFailed, 'timed-out']]);

    const done = await world({ status: 'approved' });
    await recordFailure({ store: done.data.store, replicate: async () => done.replicate.api, now: () => new Date(AT) }, { trainingId: T1, error: { Error: 'TooFewPhotos' } });
    expect((await done.data.store.getTraining(T1))?.status).toBe('approved');
  });

  it('names the code from the error, and from the application when the training was never made', async () => {
    const w = await world();
    const metrics = await metricsWritten(() =>
      recordFailure({ store: w.data.store, replicate: async () => w.replicate.api, now: () => new Date(AT) }, { input: { applicationId: 'app_zzzzzzzzzzzzzzzzzzzz' }, error: { Error: 'TalentNotCreated' } }),
    );
    expect(metrics.map((m) => m.line.code)).toEqual(['no-talent']);
  });
});

describe('removal and erasure', () => {
  it('deletes every version on Replicate and the files, cancels what runs, and keeps the records marked (removal) or deletes them (erasure)', async () => {
    const w = await world({ status: 'approved', version: 'a'.repeat(64), zipKey: `training-sets/${T1}.zip`, samples: [{ index: 0, prompt: 'p', key: `samples/${T1}/0.png` }] });
    w.replicate.models.get('humanly/likeness-0123456789abcdef')!.versions.push('a'.repeat(64));
    await w.data.store.addTraining(training({ id: T2, number: 2, status: 'training', replicateTrainingId: 'rt2', zipKey: `training-sets/${T2}.zip` }), T1);
    const files = memoryBucket('training');
    for (const key of [`training-sets/${T1}.zip`, `samples/${T1}/0.png`, `samples/${T1}/1.png`, `training-sets/${T2}.zip`, 'samples/trn_other/0.png']) await files.write(key, Buffer.from('x'), 'image/png');
    const deps = { store: w.data.store, replicate: async () => w.replicate.api, files, now: () => new Date(AT) };

    expect(await removeLikenessModel(deps, TALENT, { forget: false })).toEqual({ versions: 1, files: 4, records: 0 });
    expect([...files.objects.keys()]).toEqual(['samples/trn_other/0.png']);
    expect(w.replicate.calls).toEqual(expect.arrayContaining(['cancelTraining rt2', `deleteVersion humanly/likeness-0123456789abcdef:${'a'.repeat(64)}`]));
    expect(await w.data.store.getModel(TALENT)).toMatchObject({ removedAt: AT });
    expect((await w.data.store.getModel(TALENT))?.liveTrainingId).toBeUndefined();
    expect((await w.data.store.getTraining(T1))?.deletedAt).toBe(AT);
    // Again: nothing left to delete on Replicate.
    expect(await removeLikenessModel(deps, TALENT, { forget: false })).toMatchObject({ versions: 0 });
    expect(await removeLikenessModel(deps, TALENT, { forget: true })).toMatchObject({ records: 4 });
    expect(await w.data.store.listTrainings(TALENT)).toEqual([]);
    expect(await removeLikenessModel(deps, 'nobody-1a2b3c', { forget: true })).toEqual({ versions: 0, files: 0, records: 0 });
  });
});

describe('the model\'s state for its talent', () => {
  it('follows the latest training, keeps a live version live, and fails only without one', () => {
    const m = model({ currentTrainingId: T1 });
    const at = (status: TrainingRecord['status'], number = 1) => [training({ status, number })];
    expect(modelStateOf(undefined, [])).toBe('none');
    expect(modelStateOf(m, at('preparing'))).toBe('preparing');
    expect(modelStateOf(m, at('training'))).toBe('training');
    expect(modelStateOf(m, at('sampling'))).toBe('training');
    expect(modelStateOf(m, at('ready-for-review'))).toBe('ready-for-review');
    expect(modelStateOf({ ...m, liveTrainingId: T1 }, at('approved'))).toBe('live');
    expect(modelStateOf(m, at('failed'))).toBe('failed');
    expect(modelStateOf(m, at('rejected', 4))).toBe('failed');
    expect(modelStateOf(m, at('preparing', 2))).toBe('retraining');
    expect(modelStateOf({ ...m, liveTrainingId: T2 }, at('training'))).toBe('retraining');
    expect(modelStateOf({ ...m, liveTrainingId: T2 }, at('failed', 2))).toBe('live');
  });
});

describe('the console', () => {
  const talentFound = { talent: { status: 'active' } as never, controls: { applicationId: APP } };
  const catalog = (controls: Record<string, unknown> = talentFound.controls) => ({
    getForGeneration: async (id: string) => (id === TALENT ? { ...talentFound, controls } : undefined),
    setGenerationConfig: async () => true,
  });

  it('a retrain is refused while a training runs, for an unknown talent, and for a talent without model or application', async () => {
    const w = await world({ status: 'training' });
    const deps = { store: w.data.store, catalog: catalog(), startExecution: async () => undefined, modelOwner: 'humanly', now: () => new Date(AT) };
    await expect(retrain(deps, TALENT, { steps: 2000 }, 'admin@humanly.example')).rejects.toMatchObject({ status: 409, message: TRAINING_RUNNING_MESSAGE });
    await expect(retrain(deps, 'NOT A SLUG', {}, 'admin')).rejects.toMatchObject({ status: 404 });
    await expect(retrain({ ...deps, store: memoryTrainingStore().store, catalog: catalog({}) }, TALENT, {}, 'admin')).rejects.toMatchObject({ status: 409 });
    // A talent accepted before trainings existed: the first training, from the application the catalog names.
    const fresh = memoryTrainingStore();
    const started: string[] = [];
    const answer = await retrain({ ...deps, store: fresh.store, startExecution: async (name) => void started.push(name) }, TALENT, { steps: 2000 }, 'admin@humanly.example');
    expect(answer).toMatchObject({ talentId: TALENT, number: 1 });
    expect(started).toEqual([`likeness-${answer.trainingId}`]);
    expect(await fresh.store.getModel(TALENT)).toMatchObject({ applicationId: APP, currentTrainingId: answer.trainingId, replicateModel: expect.stringMatching(/^humanly\/likeness-/) });
  });

  it('a training whose execution did not start is marked failed, so the next retrain is not blocked', async () => {
    const w = await world({ status: 'failed' });
    const deps = { store: w.data.store, catalog: catalog(), startExecution: async () => Promise.reject(new Error('throttled')), modelOwner: 'humanly', now: () => new Date(AT) };
    await expect(retrain(deps, TALENT, {}, 'admin')).rejects.toThrow('throttled');
    const [, second] = await w.data.store.listTrainings(TALENT);
    expect(second).toMatchObject({ number: 2, status: 'failed', failure: { code: 'error' } });
  });

  it('a rollback needs an approved version of this talent', async () => {
    const w = await world({ status: 'rejected', version: 'b'.repeat(64) });
    const deps = { store: w.data.store, catalog: catalog(), sampleUrl: async (k: string) => k, now: () => new Date(AT) };
    await expect(rollback(deps, TALENT, T1, 'admin')).rejects.toMatchObject({ status: 409, message: NOT_APPROVED_MESSAGE });
    await expect(rollback(deps, TALENT, T2, 'admin')).rejects.toMatchObject({ status: 404, message: TRAINING_NOT_FOUND_MESSAGE });
    await expect(rollback(deps, TALENT, 'trn_../../x', 'admin')).rejects.toMatchObject({ status: 404 });
  });
});
