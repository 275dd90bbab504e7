// The LikenessTraining state machine as the stack deploys it, run by the twin's runner. Its task
// functions are the real services (functions/training/steps/*/service.ts) over the training store
// in memory, a Replicate of the wing's calls in memory (test/unit/training/fake-replicate.ts),
// in-memory buckets holding real photos (the training set is really cropped and zipped), and the
// real webhook route, signed as Replicate signs. Replicate's side is played by the test: a
// training succeeds or fails with its webhook, finishes with its webhook lost (polling finds it),
// or never finishes (the polls time out and the training is canceled). Then the talent's
// "This isn't me" retrains through the same machine, and the console rolls an approved version back.
import { App, Stack } from 'aws-cdk-lib';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { FAILURE_METRICS } from '../../events/metrics';
import { RejectLikenessModelAnswer } from '../../events/training';
import {
  MAX_TALENT_RETRAINS,
  SAMPLE_PROMPTS,
  TRAINING_PERMANENT_ERRORS,
  TRAINING_POLL_MAX_ATTEMPTS,
  TRAINING_WEBHOOK_WAIT_SECONDS,
} from '../../events/training-values';
import type { LikenessControls } from '../../events/generations';
import type { Talent } from '../../events/talent';
import { likenessTrainingWorkflow } from '../../infra/lib/workflows/likeness-training';
import { StateMachineRunner } from '../../infra/local/stepfunctions';
import { Resolver, resourcesOfType, stateMachineDefinition, type CfnTemplate } from '../../infra/local/template';
import { retrain } from '../../functions/training/routes/retrain-likeness/service';
import { rollback } from '../../functions/training/routes/rollback-likeness/service';
import { acceptanceTrainingId, triggerWordFor } from '../../functions/training/keys';
import { approveLikenessModel } from '../../functions/training/routes/approve-likeness-model/service';
import { rejectLikenessModel } from '../../functions/training/routes/reject-likeness-model/service';
import type { ReviewDeps } from '../../functions/training/review';
import { handleTrainingWebhook } from '../../functions/training/routes/replicate-training-webhook/service';
import { awaitTraining } from '../../functions/training/steps/await-training/service';
import { buildTrainingSet } from '../../functions/training/steps/build-training-set/service';
import { createModel } from '../../functions/training/steps/create-model/service';
import { emailTalent } from '../../functions/training/steps/email-talent/service';
import { generateSamples } from '../../functions/training/steps/generate-samples/service';
import { pollTraining } from '../../functions/training/steps/poll-training/service';
import { PrepareInput, prepareTraining } from '../../functions/training/steps/prepare-training/service';
import { RecordFailureInput, recordFailure } from '../../functions/training/steps/record-failure/service';
import { recordVersion } from '../../functions/training/steps/record-version/service';
import { startTraining } from '../../functions/training/steps/start-training/service';
import { TrainingInput } from '../../functions/training/config';
import type { StoredApplication } from '../../functions/founding/store';
import type { AccountCaller } from '../../functions/shared/auth';
import type { Email } from '../../functions/shared/email';
import { inMemoryIdempotency } from '../../functions/shared/idempotency';
import { noRateLimit } from '../../functions/shared/rate-limit';
import { memoryBucket } from '../../functions/shared/s3';
import { isSpentToken } from '../../functions/shared/workflows';
import { fakeReplicate, WEBHOOK_SECRET } from '../unit/training/fake-replicate';
import { memoryTrainingStore } from '../unit/training/memory-store';
import { metricsWritten } from '../support/metrics';

jest.setTimeout(60_000);

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:LikenessTraining';
const STEPS = [
  'prepare-training',
  'build-training-set',
  'create-model',
  'start-training',
  'await-training',
  'poll-training',
  'record-version',
  'generate-samples',
  'email-talent',
  'record-failure',
] as const;
type Step = (typeof STEPS)[number];
const arn = (step: Step) => `arn:aws:lambda:us-east-1:123456789012:function:${step}`;

interface State {
  Type: string;
  Retry?: Array<{ ErrorEquals: string[]; MaxAttempts?: number }>;
  Catch?: Array<{ ErrorEquals: string[]; Next: string }>;
  [field: string]: unknown;
}

function synthesizeDefinition(): { StartAt: string; States: Record<string, State> } {
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'LikenessTrainingWorkflow');
  const fn = (step: Step) => LambdaFunction.fromFunctionArn(stack, step, arn(step));
  new StateMachine(stack, 'Machine', {
    ...likenessTrainingWorkflow(stack, 'States', {
      prepareTraining: fn('prepare-training'),
      buildTrainingSet: fn('build-training-set'),
      createModel: fn('create-model'),
      startTraining: fn('start-training'),
      awaitTraining: fn('await-training'),
      pollTraining: fn('poll-training'),
      recordVersion: fn('record-version'),
      generateSamples: fn('generate-samples'),
      emailTalent: fn('email-talent'),
      recordFailure: fn('record-failure'),
    }),
  });
  const template = app.synth().getStackByName(stack.stackName).template as CfnTemplate;
  const [[id, resource]] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine');
  return stateMachineDefinition(new Resolver(template), id, resource) as { StartAt: string; States: Record<string, State> };
}
const DEFINITION = synthesizeDefinition();

const TALENT_ID = 'ada-lovelace-1a2b3c';
const APPLICATION_ID = 'app_abcdefghijklmnopqrst';
const TRAINER_VERSION = 'e440909d3512c31646ee2e0c7d6f6f4923224863a6a10c494606e79fb5844497';
const CONFIG = {
  TRAINER: 'ostris/flux-dev-lora-trainer',
  TRAINER_VERSION,
  TRAINER_INPUTS: { images: 'input_images', triggerWord: 'trigger_word', steps: 'steps' },
  TRAINING_STEPS: 1000,
  MODEL_OWNER: 'humanly',
  TRAINING_HARDWARE: 'gpu-h100',
  TRAINING_IMAGE_SIZE: 64,
};
const CALLER: AccountCaller = { sub: 'talent-sub', email: 'ada@people.example', emailVerified: true, role: 'talent', groups: ['talent'] } as unknown as AccountCaller;

/** Twelve small photos of distinct colours, the first with a face box in its upper left. */
async function photos() {
  return Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      sharp({ create: { width: 120, height: 160, channels: 3, background: { r: (i * 20) % 256, g: 90, b: 200 - i * 10 } } }).jpeg().toBuffer(),
    ),
  );
}

/** How Replicate behaves with the next training: it ends with its completed webhook, ends without it, or never ends. */
type Replicate = { ends: 'succeeded' | 'failed'; webhook: boolean } | { ends: 'never' };

let runner: StateMachineRunner | undefined;
afterEach(async () => {
  await runner?.stopAll();
  runner = undefined;
});

async function world(options: { photos?: number; talentAfterAttempts?: number } = {}) {
  const data = memoryTrainingStore();
  const replicate = fakeReplicate();
  const photoBucket = memoryBucket('photos');
  const files = memoryBucket('training');
  const bytes = await photos();
  const count = options.photos ?? 12;
  const photoResults = bytes.slice(0, count).map((_, i) => ({
    source: `pending/x/${i}.jpg`,
    accepted: true,
    index: i,
    width: 120,
    height: 160,
    // The identity check's findings: the face of photo 0 found, photo 11 not usable.
    ...(i === 0 ? { usable: true, face: { x: 0.1, y: 0.1, width: 0.3, height: 0.25 } } : {}),
    ...(i === 11 ? { usable: false } : {}),
  }));
  for (let i = 0; i < count; i++) await photoBucket.write(`applications/${APPLICATION_ID}/photos/${i}.jpg`, bytes[i], 'image/jpeg');
  const application: StoredApplication = {
    id: APPLICATION_ID,
    program: 'founding',
    status: 'accepted',
    firstName: 'Ada',
    email: 'ada@people.example',
    submittedAt: '2026-11-20T10:00:00.000Z',
    imagePaths: [],
    photoResults,
  };
  let applicationReads = 0;
  const founding = {
    async getApplication(id: string) {
      if (id !== APPLICATION_ID) throw Object.assign(new Error('not found'), { name: 'ApplicationNotFound' });
      applicationReads++;
      const created = applicationReads > (options.talentAfterAttempts ?? 0);
      return structuredClone({ ...application, ...(created ? { talentId: TALENT_ID } : {}) });
    },
  };
  const talent: Talent = {
    id: TALENT_ID,
    name: 'Ada Lovelace',
    image: '/talent/new-talent.svg',
    tagline: 'Founding talent',
    bio: 'Profile coming soon.',
    generationCount: 0,
    featured: false,
    tags: [],
    samples: [],
    founding: true,
    royaltyPlan: 'founding-35',
    status: 'hidden',
  };
  const controls: LikenessControls = { applicationId: APPLICATION_ID };
  const catalog = {
    async getForGeneration(id: string) {
      return id === TALENT_ID ? structuredClone({ talent, controls }) : undefined;
    },
    async setGenerationConfig(id: string, config: NonNullable<LikenessControls['generation']>) {
      if (id !== TALENT_ID) return false;
      controls.generation = config;
      return true;
    },
    async update(id: string, changes: Partial<Talent>) {
      if (id !== TALENT_ID) return undefined;
      Object.assign(talent, changes);
      return structuredClone(talent);
    },
  };
  const sent: Array<{ to: string; email: Email }> = [];
  const once = inMemoryIdempotency();
  const now = () => new Date();
  let behaviour: Replicate = { ends: 'succeeded', webhook: true };
  const deliveries: Array<{ status: number }> = [];

  /** Replicate's signed webhook of a training, delivered to the real route. */
  const deliver = async (trainingId: string, body: object) => {
    const id = `msg_${Math.random().toString(36).slice(2)}`;
    const raw = JSON.stringify(body);
    const at = new Date();
    const signature = new Webhook(WEBHOOK_SECRET).sign(id, at, raw);
    const answer = await handleTrainingWebhook(
      {
        store: data.store,
        secret: async () => WEBHOOK_SECRET,
        // As resumeTask answers: false for a token no execution waits on.
        resume: async (token, output) => {
          try {
            runner!.sendTaskSuccess(token, JSON.stringify(output));
            return true;
          } catch (err) {
            if (isSpentToken(err)) return false;
            throw err;
          }
        },
        limit: noRateLimit,
        once,
        now,
      },
      {
        headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature },
        body: raw,
        isBase64Encoded: false,
        queryStringParameters: { training: trainingId },
        requestContext: { http: { sourceIp: '127.0.0.1' } },
      } as never,
    );
    deliveries.push({ status: answer.statusCode ?? 0 });
  };

  const real: Record<Step, (payload: unknown) => unknown> = {
    'prepare-training': (p) => prepareTraining({ store: data.store, founding, talent: catalog, modelOwner: CONFIG.MODEL_OWNER, now }, PrepareInput.parse(p)),
    'build-training-set': (p) =>
      buildTrainingSet({ store: data.store, founding, photos: photoBucket, sets: files, imageSize: CONFIG.TRAINING_IMAGE_SIZE, now }, TrainingInput.parse(p).trainingId),
    'create-model': (p) => createModel({ store: data.store, replicate: async () => replicate.api, hardware: CONFIG.TRAINING_HARDWARE }, TrainingInput.parse(p).trainingId),
    'start-training': (p) =>
      startTraining(
        { store: data.store, replicate: async () => replicate.api, sets: files, config: CONFIG, webhookUrl: 'https://api.example/webhooks/replicate-training', now },
        TrainingInput.parse(p).trainingId,
      ),
    'await-training': async (p) => {
      const { trainingId, taskToken } = p as { trainingId: string; taskToken: string };
      const answer = await awaitTraining({ store: data.store, resume: async (token, output) => runner!.sendTaskSuccess(token, JSON.stringify(output)) }, trainingId, taskToken);
      // Replicate's side, once the execution waits.
      const t = (await data.store.getTraining(trainingId))!;
      const ours = replicate.trainings.get(t.replicateTrainingId!)!;
      if (behaviour.ends !== 'never') {
        const { ends, webhook } = behaviour;
        setTimeout(() => {
          const finished = replicate.finish(ours.id, ends, ends === 'failed' ? { error: 'CUDA out of memory' } : {});
          if (webhook) void deliver(trainingId, { id: finished.id, status: finished.status, error: finished.error, output: null });
        }, 5);
      }
      return answer;
    },
    'poll-training': (p) => pollTraining({ store: data.store, replicate: async () => replicate.api, now }, TrainingInput.parse(p).trainingId),
    'record-version': (p) => recordVersion({ store: data.store, replicate: async () => replicate.api, now }, TrainingInput.parse(p).trainingId),
    'generate-samples': (p) =>
      generateSamples({ store: data.store, replicate: async () => replicate.api, samples: files, now, sleep: async () => undefined, waitMs: 5_000 }, TrainingInput.parse(p).trainingId),
    'email-talent': (p) =>
      emailTalent({ store: data.store, founding, send: async (to, email) => {
          sent.push({ to, email });
          return 'message-id';
        }, once, siteUrl: 'https://humanly.example' }, TrainingInput.parse(p).trainingId),
    'record-failure': (p) => recordFailure({ store: data.store, replicate: async () => replicate.api, now }, RecordFailureInput.parse(p)),
  };

  const calls: Array<{ step: Step; payload: unknown }> = [];
  runner = new StateMachineRunner({
    // The webhook wait (15 minutes) lasts 0.9 s, a poll's minute 60 ms, retry pauses a thousandth.
    waitTimeScale: 0.001,
    retryIntervalScale: 0.001,
    async invokeLambda(fn, payload) {
      const step = fn.split(':').pop() as Step;
      if (!STEPS.includes(step)) throw new Error(`unexpected function ${fn}`);
      calls.push({ step, payload });
      return real[step](payload);
    },
  });
  runner.register('LikenessTraining', MACHINE, DEFINITION);
  const r = runner;

  /** Runs an execution to its end: the acceptance's (`{ applicationId }`) or a retrain's. */
  const run = async (input: { applicationId: string; trainingId?: string }, name?: string) => {
    const { executionArn } = r.startExecution(MACHINE, input, name);
    const done = await r.waitForExecution(executionArn, 30_000);
    const visited = r.getExecutionHistory(executionArn).filter((e) => e.type === 'StateEntered').map((e) => e.stateName ?? '');
    return { done, visited };
  };
  /** What the talent's review routes and the console's retrain use. */
  const executions: string[] = [];
  const started: Array<Promise<unknown>> = [];
  const reviewDeps: ReviewDeps = {
    accounts: { get: async () => ({ id: 'talent-sub', email: 'ada@people.example', full_name: 'Ada', role: 'talent', createdAt: '', credits: 0 }) as never, create: async () => ({}) as never },
    standing: {
      founding: { getEmailLock: async () => ({ applicationId: APPLICATION_ID }) as never, getApplication: founding.getApplication },
      talent: { get: async (id) => (id === TALENT_ID ? structuredClone(talent) : undefined), getExcludedIndustries: async () => [] },
    },
    store: data.store,
    catalog,
    sampleUrl: async (key) => `https://files.example/${key}`,
    limit: noRateLimit,
    startExecution: async (name, input) => {
      executions.push(name);
      // The route answers once the execution started; the test waits for its end.
      const { executionArn } = r.startExecution(MACHINE, input, name);
      started.push(r.waitForExecution(executionArn, 30_000));
    },
    now,
  };
  return {
    data,
    replicate,
    files,
    sent,
    calls,
    deliveries,
    controls,
    talent,
    reviewDeps,
    executions,
    /** Ends every execution the routes started. */
    settle: async () => Promise.all(started.splice(0)),
    run,
    set: (b: Replicate) => void (behaviour = b),
    of: (step: Step) => calls.filter((c) => c.step === step),
  };
}

describe('LikenessTraining state machine', () => {
  test('the definition: errors a retry cannot change go straight to the failure record; the talent is waited for; the webhook wait and the polls are bounded', () => {
    const tasks = Object.entries(DEFINITION.States).filter(([, s]) => s.Type === 'Task');
    expect(new Set(tasks.map(([, t]) => (t as { Parameters?: { FunctionName?: string } }).Parameters?.FunctionName))).toEqual(new Set(STEPS.map(arn)));
    for (const [name, task] of tasks) {
      if (name === 'EmailTalent') {
        expect(task.Retry?.[0]).toEqual({ ErrorEquals: [...TRAINING_PERMANENT_ERRORS], MaxAttempts: 0 });
        expect(task.Catch?.[0]).toMatchObject({ ErrorEquals: ['States.ALL'], Next: 'ReadyWithoutEmail' });
        continue;
      }
      expect(task.Retry?.[0]).toEqual({ ErrorEquals: [...TRAINING_PERMANENT_ERRORS], MaxAttempts: 0 });
      if (name.startsWith('Record') && name !== 'RecordVersion') expect(task.Next).toBe('FailureRecorded');
      else expect(task.Catch?.at(-1)?.ErrorEquals).toEqual(['States.ALL']);
    }
    expect(DEFINITION.States.PrepareTraining.Retry?.map((r) => r.ErrorEquals[0])).toEqual(['TrainingNotFound', 'TalentNotCreated', 'Lambda.ServiceException', 'States.TaskFailed']);
    expect(DEFINITION.States.StartTraining.Retry?.map((r) => r.ErrorEquals[0])).toEqual(['TrainingNotFound', 'StartAttemptBusy', 'Lambda.ServiceException', 'States.TaskFailed']);
    expect(DEFINITION.States.AwaitTraining).toMatchObject({ Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken', TimeoutSeconds: TRAINING_WEBHOOK_WAIT_SECONDS });
    expect(DEFINITION.States.AwaitTraining.Catch?.[0]).toMatchObject({ ErrorEquals: ['States.Timeout'], Next: 'StartPolling' });
    expect(JSON.stringify(DEFINITION.States.PollOutcome)).toContain(`"NumericGreaterThanEquals":${TRAINING_POLL_MAX_ATTEMPTS}`);
  });

  test('an acceptance waits for its talent, trains from the usable photos cropped and zipped, records the version with its cost, makes the samples and emails the talent', async () => {
    const w = await world({ talentAfterAttempts: 2 });
    const { done, visited } = await w.run({ applicationId: APPLICATION_ID });
    expect(done.status).toBe('SUCCEEDED');
    expect(visited.at(-1)).toBe('ReadyForReview');
    // The talent did not exist for the first two reads: PrepareTraining was retried until it did.
    expect(w.of('prepare-training')).toHaveLength(3);

    const training = (await w.data.store.getTraining(acceptanceTrainingId(APPLICATION_ID)))!;
    expect(training).toMatchObject({ status: 'ready-for-review', number: 1, reason: 'acceptance', imageCount: 11, identityStatus: 'not-recorded', costMicros: 122 * 1525, durationSeconds: 125 });
    expect(training.logsUrl).toBe(`https://replicate.com/p/${training.replicateTrainingId}`);
    // The set: 11 usable photos (photo 11 was not usable), square at the trainer's size, without metadata.
    const zip = unzipSync(w.files.objects.get(training.zipKey!)!.body);
    expect(Object.keys(zip)).toHaveLength(11);
    const first = await sharp(Buffer.from(zip['photo-01.jpg'])).metadata();
    expect({ width: first.width, height: first.height, exif: first.exif, icc: first.icc }).toEqual({ width: 64, height: 64, exif: undefined, icc: undefined });

    // Replicate got the stage's trainer and inputs, the zip by URL, the talent's trigger word and our webhook.
    const [sent] = [...w.replicate.trainings.values()];
    expect(sent).toMatchObject({ trainer: CONFIG.TRAINER, trainerVersion: TRAINER_VERSION, destination: expect.stringMatching(/^humanly\/likeness-[0-9a-f]{16}$/) });
    expect(sent.input).toEqual({ input_images: expect.stringContaining(training.zipKey!), trigger_word: triggerWordFor(TALENT_ID), steps: 1000 });
    expect(sent.webhook).toBe(`https://api.example/webhooks/replicate-training?training=${training.id}`);
    expect(w.deliveries).toEqual([{ status: 200 }]);

    // The samples: one per fixed prompt, with the trigger word, stored privately.
    expect(training.samples?.map((s) => s.prompt)).toEqual(SAMPLE_PROMPTS.map((p) => `${triggerWordFor(TALENT_ID)} ${p}`));
    expect(training.samples?.every((s) => s.key && w.files.objects.has(s.key))).toBe(true);
    expect([...w.replicate.predictions.values()].every((p) => p.version === training.version)).toBe(true);
    expect(w.sent.map((m) => [m.to, m.email.subject])).toEqual([['ada@people.example', 'Your Humanly likeness model is ready for your review']]);
    // Nothing is generated for clients yet: no config, the talent hidden.
    expect(w.controls.generation).toBeUndefined();
    expect(w.talent.status).toBe('hidden');
  });

  test('a failed training: recorded failed with the trainer\'s code, counted, no samples, nothing live', async () => {
    const w = await world();
    w.set({ ends: 'failed', webhook: true });
    let visited: string[] = [];
    const metrics = await metricsWritten(async () => {
      ({ visited } = await w.run({ applicationId: APPLICATION_ID }));
    });
    expect(visited).toContain('RecordTrainerFailure');
    expect(visited.at(-1)).toBe('FailureRecorded');
    const training = (await w.data.store.getTraining(acceptanceTrainingId(APPLICATION_ID)))!;
    expect(training).toMatchObject({ status: 'failed', failure: { code: 'trainer-failed' } });
    expect(training.samples).toBeUndefined();
    expect(metrics.map((m) => m.name)).toEqual([FAILURE_METRICS.trainingFailed]);
    expect(w.of('generate-samples')).toEqual([]);
    expect(w.sent).toEqual([]);
  });

  test('a lost webhook: the wait times out, the polls find the finished training and it goes on to review', async () => {
    const w = await world();
    w.set({ ends: 'succeeded', webhook: false });
    const { done, visited } = await w.run({ applicationId: APPLICATION_ID });
    expect(done.status).toBe('SUCCEEDED');
    expect(visited).toEqual(expect.arrayContaining(['StartPolling', 'PollTraining', 'RecordVersion', 'GenerateSamples', 'ReadyForReview']));
    expect(w.deliveries).toEqual([]);
    expect((await w.data.store.getTraining(acceptanceTrainingId(APPLICATION_ID)))?.status).toBe('ready-for-review');
  });

  test('a training that never finishes times out after the polls: canceled on Replicate, recorded timed-out', async () => {
    const w = await world();
    w.set({ ends: 'never' });
    const { visited } = await w.run({ applicationId: APPLICATION_ID });
    expect(w.of('poll-training')).toHaveLength(TRAINING_POLL_MAX_ATTEMPTS);
    expect(visited).toContain('RecordTimeout');
    const training = (await w.data.store.getTraining(acceptanceTrainingId(APPLICATION_ID)))!;
    expect(training).toMatchObject({ status: 'failed', failure: { code: 'timed-out' } });
    expect(w.replicate.calls).toContain(`cancelTraining ${training.replicateTrainingId}`);
    expect(w.replicate.trainings.get(training.replicateTrainingId!)?.status).toBe('canceled');
  });

  test('too few usable photos: failed at once with its code, nothing sent to Replicate', async () => {
    const w = await world({ photos: 9 });
    await w.run({ applicationId: APPLICATION_ID });
    expect(w.of('build-training-set')).toHaveLength(1);
    expect((await w.data.store.getTraining(acceptanceTrainingId(APPLICATION_ID)))?.failure?.code).toBe('too-few-photos');
    expect(w.replicate.calls).toEqual([]);
  });

  test('"This isn\'t me" retrains through the same machine, up to the limit; then the console decides', async () => {
    const w = await world();
    await w.run({ applicationId: APPLICATION_ID });
    for (let n = 1; n <= MAX_TALENT_RETRAINS; n++) {
      const answer = RejectLikenessModelAnswer.parse(await rejectLikenessModel(w.reviewDeps, CALLER, `Not my nose (${n})`));
      expect(answer).toMatchObject({ retraining: true, state: 'retraining', retrainsLeft: MAX_TALENT_RETRAINS - n });
      const [ended] = await w.settle();
      expect(ended).toMatchObject({ status: 'SUCCEEDED' });
    }
    const trainings = await w.data.store.listTrainings(TALENT_ID);
    expect(trainings.map((t) => [t.number, t.reason, t.status])).toEqual([
      [1, 'acceptance', 'rejected'],
      [2, 'rejected', 'rejected'],
      [3, 'rejected', 'rejected'],
      [4, 'rejected', 'ready-for-review'],
    ]);
    expect(trainings[0].review).toMatchObject({ decision: 'rejected', note: 'Not my nose (1)' });
    // Each retraining made its own training and version on the same model, with the same trigger word.
    expect(new Set([...w.replicate.trainings.values()].map((t) => `${t.destination} ${t.input.trigger_word}`)).size).toBe(1);
    expect(w.sent.map((m) => m.email.subject)).toEqual([
      'Your Humanly likeness model is ready for your review',
      ...Array(3).fill('Your new Humanly likeness model is ready for your review'),
    ]);
    // The fourth "This isn't me" starts nothing: the console decides.
    const last = await rejectLikenessModel(w.reviewDeps, CALLER, 'Still not me');
    expect(last).toMatchObject({ retraining: false, state: 'failed', retrainsLeft: 0 });
    expect(w.executions).toHaveLength(MAX_TALENT_RETRAINS);
    expect(w.controls.generation).toBeUndefined();
  });

  test('approval puts the version live and lists the talent; a console retrain is approved too; a rollback puts the first version back', async () => {
    const w = await world();
    await w.run({ applicationId: APPLICATION_ID });
    const first = (await w.data.store.getTraining(acceptanceTrainingId(APPLICATION_ID)))!;
    expect(await approveLikenessModel(w.reviewDeps, CALLER)).toMatchObject({ state: 'live', live: { trainingId: first.id } });
    expect(w.controls.generation).toEqual({ version: first.version, triggerWord: triggerWordFor(TALENT_ID) });
    expect(w.talent.status).toBe('active');

    // The console retrains with more steps; the live version stays live meanwhile.
    const asked = await retrain({ ...w.reviewDeps, modelOwner: 'humanly' }, TALENT_ID, { steps: 1500, note: 'Sharper' }, 'admin@humanly.example');
    const [ended] = await w.settle();
    expect(ended).toMatchObject({ status: 'SUCCEEDED' });
    const second = (await w.data.store.getTraining(asked.trainingId))!;
    expect(second).toMatchObject({ number: 2, reason: 'console', status: 'ready-for-review', requestedBy: 'admin@humanly.example', settings: { steps: 1500 } });
    expect([...w.replicate.trainings.values()].map((t) => t.input.steps)).toEqual([1000, 1500]);
    expect(w.controls.generation?.version).toBe(first.version);
    await approveLikenessModel(w.reviewDeps, CALLER);
    expect(w.controls.generation?.version).toBe(second.version);

    const view = await rollback({ ...w.reviewDeps, store: w.data.store }, TALENT_ID, first.id, 'admin@humanly.example');
    expect(w.controls.generation).toEqual({ version: first.version, triggerWord: triggerWordFor(TALENT_ID) });
    expect(view.trainings.map((t) => [t.number, t.live])).toEqual([
      [2, false],
      [1, true],
    ]);
    expect(view.trainings[1].restored).toMatchObject({ by: 'admin@humanly.example' });
    expect((await w.data.store.getModel(TALENT_ID))?.liveTrainingId).toBe(first.id);
  });
});
