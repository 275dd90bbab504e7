// The Generation state machine as the stack deploys it, run by the twin's runner with stand-in
// task functions: every branch, every Retry and Catch, the happy path's state transitions and
// the polling loop's bound.
import { App, Stack } from 'aws-cdk-lib';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { ADMISSION_POLL_SECONDS, POLL_INTERVAL_MS, POLL_MAX_ATTEMPTS, WEBHOOK_WAIT_SECONDS } from '../../events/generation-values';
import { GENERATION_REFUSALS, generationWorkflow } from '../../infra/lib/workflows/generation';
import { StateMachineRunner } from '../../infra/local/stepfunctions';
import { Resolver, resourcesOfType, stateMachineDefinition, type CfnTemplate } from '../../infra/local/template';

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:Generation';
const STEPS = ['reserve-credits', 'check-policy', 'await-admission', 'start-prediction', 'await-prediction', 'poll-prediction', 'deliver-images', 'record-failure'] as const;
type Step = (typeof STEPS)[number];
const arn = (step: Step) => `arn:aws:lambda:us-east-1:123456789012:function:${step}`;

interface State {
  Type: string;
  Parameters?: { FunctionName?: string; Payload?: Record<string, unknown> };
  Retry?: Array<{ ErrorEquals: string[]; MaxAttempts?: number }>;
  Catch?: Array<{ ErrorEquals: string[]; Next: string }>;
  [field: string]: unknown;
}
interface Definition {
  StartAt: string;
  States: Record<string, State>;
}

function synthesizeDefinition(): Definition {
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'GenerationWorkflow');
  const fn = (step: Step) => LambdaFunction.fromFunctionArn(stack, step, arn(step));
  new StateMachine(stack, 'Machine', {
    ...generationWorkflow(stack, 'States', {
      reserveCredits: fn('reserve-credits'),
      checkPolicy: fn('check-policy'),
      awaitAdmission: fn('await-admission'),
      startPrediction: fn('start-prediction'),
      awaitPrediction: fn('await-prediction'),
      pollPrediction: fn('poll-prediction'),
      deliverImages: fn('deliver-images'),
      recordFailure: fn('record-failure'),
    }),
  });
  const template = app.synth().getStackByName(stack.stackName).template as CfnTemplate;
  const [[id, resource]] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine');
  return stateMachineDefinition(new Resolver(template), id, resource) as Definition;
}
const DEFINITION = synthesizeDefinition();

const ID = '0d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f';

const named = (name: string, message = name) => Object.assign(new Error(message), { name });

interface Payload {
  generationId: string;
  taskToken?: string;
  error?: { Error: string; Cause: string };
  prediction?: { status: string; error: string };
  timedOut?: boolean;
}
type Mock = (payload: Payload, attempt: number) => unknown;

const defaults: Record<Step, Mock> = {
  'reserve-credits': () => ({ reserved: 2 }),
  'check-policy': () => ({ allowed: true }),
  // Admitted at once (decision 065).
  'await-admission': () => ({ admitted: true }),
  'start-prediction': () => ({ predictionId: 'p1' }),
  'await-prediction': () => ({ waiting: true }),
  'poll-prediction': () => ({ status: 'processing', error: '' }),
  'deliver-images': () => ({ delivered: 2 }),
  // The failure code record-failure works out from the error: a refusal's, or a fault's.
  'record-failure': (payload) => ({ recorded: true, code: refusalCode((payload as { error?: { Error?: string } }).error?.Error) }),
};

function refusalCode(error: string | undefined): string {
  return error === 'InsufficientCredits' ? 'insufficient-credits' : error === 'PolicyRefused' ? 'policy' : 'error';
}

let runner: StateMachineRunner | undefined;
afterEach(async () => {
  await runner?.stopAll();
  runner = undefined;
});

/**
 * Runs the machine with per-step mocks. `webhook` is what the completed webhook resumes
 * AwaitPrediction with (undefined: no webhook comes, so the wait times out and polling starts).
 */
function run(mocks: Partial<Record<Step, Mock>>, webhook?: { status: string; error: string }) {
  const calls: Array<{ step: Step; payload: Payload }> = [];
  const attempts = new Map<Step, number>();
  runner = new StateMachineRunner({
    // The webhook wait (90 s) lasts 90 ms, a poll's 5 s pause 5 ms.
    waitTimeScale: 0.001,
    retryIntervalScale: 0.001,
    async invokeLambda(fn, input) {
      const payload = input as Payload;
      const step = fn.split(':').pop() as Step;
      if (!STEPS.includes(step)) throw new Error(`unexpected function ${fn}`);
      const attempt = (attempts.get(step) ?? 0) + 1;
      attempts.set(step, attempt);
      calls.push({ step, payload });
      const result = (mocks[step] ?? defaults[step])(payload, attempt);
      if (step === 'await-prediction' && webhook) setTimeout(() => runner!.sendTaskSuccess(payload.taskToken!, JSON.stringify(webhook)), 5);
      return result;
    },
  });
  runner.register('Generation', MACHINE, DEFINITION);
  const { executionArn } = runner.startExecution(MACHINE, { generationId: ID });
  const r = runner;
  return {
    calls,
    steps: () => calls.map((c) => c.step),
    of: (step: Step) => calls.filter((c) => c.step === step),
    done: () => r.waitForExecution(executionArn, 20_000),
    visited: () => r.getExecutionHistory(executionArn).filter((e) => e.type === 'StateEntered').map((e) => e.stateName),
  };
}

const SUCCEEDED = { status: 'succeeded', error: '' };

describe('Generation state machine', () => {
  test('the definition: eight task functions, refusals never retried, every task caught into a failure record, the webhook wait bounded', () => {
    const tasks = Object.entries(DEFINITION.States).filter(([, s]) => s.Type === 'Task');
    expect(new Set(tasks.map(([, t]) => t.Parameters?.FunctionName))).toEqual(new Set(STEPS.map(arn)));
    for (const [name, task] of tasks) {
      // The refusals first (never retried), then Lambda's own errors, then any task failure.
      expect(task.Retry?.[0]).toEqual({ ErrorEquals: [...GENERATION_REFUSALS], MaxAttempts: 0 });
      expect(task.Retry?.map((r) => r.ErrorEquals[0])).toEqual(['InsufficientCredits', 'Lambda.ServiceException', 'States.TaskFailed']);
      if (name.startsWith('Record')) {
        // A recorded error goes on to tell a refusal (Refused, a succeeded execution) from a fault.
        expect(task.Next).toBe(name === 'RecordFailure' ? 'RefusedOrFailed' : 'GenerationFailed');
        expect(task.Catch).toBeUndefined();
      } else {
        // Every other task ends in RecordFailure whatever fails (AwaitPrediction's time-out polls first).
        expect(task.Catch?.at(-1)).toEqual({ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'RecordFailure' });
      }
    }
    expect(DEFINITION.States.AwaitPrediction).toMatchObject({
      Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
      TimeoutSeconds: WEBHOOK_WAIT_SECONDS,
      Parameters: { Payload: { 'generationId.$': '$.generationId', 'taskToken.$': '$$.Task.Token' } },
      Catch: [{ ErrorEquals: ['States.Timeout'], Next: 'StartPolling' }, { ErrorEquals: ['States.ALL'], Next: 'RecordFailure' }],
    });
    expect(DEFINITION.States.WaitToPoll.Seconds).toBe(POLL_INTERVAL_MS / 1000);
    // A start not yet admitted waits and looks again (decision 065).
    expect(DEFINITION.States.AwaitAdmission).toMatchObject({ ResultSelector: { 'admitted.$': '$.Payload.admitted' }, ResultPath: '$.admission', Next: 'Admitted' });
    expect(DEFINITION.States.Admitted).toMatchObject({ Choices: [{ Variable: '$.admission.admitted', BooleanEquals: true, Next: 'CheckPolicy' }], Default: 'WaitForAdmission' });
    expect(DEFINITION.States.WaitForAdmission).toMatchObject({ Seconds: ADMISSION_POLL_SECONDS, Next: 'AwaitAdmission' });
    expect(DEFINITION.States.GenerationFailed.Type).toBe('Fail');
    expect(DEFINITION.StartAt).toBe('ReserveCredits');
  });

  test('happy path by webhook: reserve, policy, start, wait, deliver, in at most 12 state transitions', async () => {
    const h = run({}, SUCCEEDED);
    const done = await h.done();
    expect(done.status).toBe('SUCCEEDED');
    expect(h.steps()).toEqual(['reserve-credits', 'await-admission', 'check-policy', 'start-prediction', 'await-prediction', 'deliver-images']);
    for (const call of h.calls.filter((c) => c.step !== 'await-prediction')) expect(call.payload).toEqual({ generationId: ID });
    expect(h.of('await-prediction')[0].payload).toEqual({ generationId: ID, taskToken: expect.any(String) });
    const visited = h.visited();
    expect(visited).toEqual(['ReserveCredits', 'AwaitAdmission', 'Admitted', 'CheckPolicy', 'StartPrediction', 'AwaitPrediction', 'PredictionOutcome', 'DeliverImages', 'Delivered']);
    expect(visited.length).toBeLessThanOrEqual(12);
  });

  test('a failed, canceled or aborted prediction is recorded with its status and error, and the execution fails', async () => {
    for (const status of ['failed', 'canceled', 'aborted']) {
      const h = run({}, { status, error: 'CUDA out of memory' });
      expect(await h.done()).toMatchObject({ status: 'FAILED', error: 'GenerationFailed' });
      expect(h.of('record-failure').map((c) => c.payload)).toEqual([{ generationId: ID, prediction: { status, error: 'CUDA out of memory' } }]);
      expect(h.of('deliver-images')).toHaveLength(0);
      expect(h.visited().slice(-2)).toEqual(['RecordPredictionFailure', 'GenerationFailed']);
      await runner!.stopAll();
    }
  });

  test('no webhook: polling finishes it (a lost webhook), counting its attempts in the state', async () => {
    const h = run({ 'poll-prediction': (_p, attempt) => (attempt < 3 ? { status: 'processing', error: '' } : SUCCEEDED) });
    expect((await h.done()).status).toBe('SUCCEEDED');
    expect(h.of('poll-prediction')).toHaveLength(3);
    expect(h.of('deliver-images')).toHaveLength(1);
    const visited = h.visited();
    expect(visited.slice(5, 8)).toEqual(['AwaitPrediction', 'StartPolling', 'WaitToPoll']);
    expect(visited.filter((s) => s === 'CountPoll')).toHaveLength(3);
  });

  test(`the polling loop is bounded: after ${POLL_MAX_ATTEMPTS} polls the time-out is recorded (it cancels the prediction)`, async () => {
    const h = run({});
    expect(await h.done()).toMatchObject({ status: 'FAILED', error: 'GenerationFailed' });
    expect(h.of('poll-prediction')).toHaveLength(POLL_MAX_ATTEMPTS);
    expect(h.of('record-failure').map((c) => c.payload)).toEqual([{ generationId: ID, timedOut: true }]);
    expect(h.visited().slice(-3)).toEqual(['PollOutcome', 'RecordTimeout', 'GenerationFailed']);
  });

  test('a poll that finds the prediction failed records it as the webhook path does', async () => {
    const h = run({ 'poll-prediction': () => ({ status: 'failed', error: 'NSFW content detected' }) });
    expect((await h.done()).status).toBe('FAILED');
    expect(h.of('poll-prediction')).toHaveLength(1);
    expect(h.of('record-failure')[0].payload).toEqual({ generationId: ID, prediction: { status: 'failed', error: 'NSFW content detected' } });
  });

  test('refusals (credits, policy) are recorded at once with their error, never retried, nothing after them runs, and the execution ends Refused (not failed: no alarm)', async () => {
    for (const [step, name] of [['reserve-credits', 'InsufficientCredits'], ['check-policy', 'PolicyRefused']] as const) {
      const h = run({ [step]: () => { throw named(name, 'refused'); } }, SUCCEEDED);
      expect((await h.done()).status).toBe('SUCCEEDED');
      expect(h.visited().slice(-3)).toEqual(['RecordFailure', 'RefusedOrFailed', 'Refused']);
      expect(h.of(step)).toHaveLength(1);
      expect(h.of('start-prediction')).toHaveLength(0);
      expect(h.of('record-failure')).toHaveLength(1);
      expect(h.of('record-failure')[0].payload.error).toMatchObject({ Error: name, Cause: expect.stringContaining('refused') });
      await runner!.stopAll();
    }
  });

  test('a transient failure is retried (a 429 the client gave up on, then success); one that persists is recorded after the retries', async () => {
    const flaky = run({ 'start-prediction': (_p, attempt) => { if (attempt === 1) throw named('ReplicateError', 'HTTP 429'); return { predictionId: 'p1' }; } }, SUCCEEDED);
    expect((await flaky.done()).status).toBe('SUCCEEDED');
    expect(flaky.of('start-prediction')).toHaveLength(2);
    await runner!.stopAll();

    const broken = run({ 'deliver-images': () => { throw named('InternalServerError'); } }, SUCCEEDED);
    expect((await broken.done()).status).toBe('FAILED');
    // TASK_RETRY: the first attempt and three retries.
    expect(broken.of('deliver-images')).toHaveLength(4);
    expect(broken.of('record-failure')[0].payload.error).toMatchObject({ Error: 'InternalServerError' });
    expect(broken.visited().slice(-3)).toEqual(['RecordFailure', 'RefusedOrFailed', 'GenerationFailed']);
  });

  test('a start not yet admitted waits and looks again until admitted; one that waited too long is recorded at once, never retried', async () => {
    const h = run({ 'await-admission': (_p, attempt) => ({ admitted: attempt >= 3 }) }, SUCCEEDED);
    expect((await h.done()).status).toBe('SUCCEEDED');
    expect(h.of('await-admission')).toHaveLength(3);
    expect(h.visited().filter((s) => s === 'WaitForAdmission')).toHaveLength(2);
    expect(h.of('start-prediction')).toHaveLength(1);
    await runner!.stopAll();

    const late = run({ 'await-admission': () => { throw named('AdmissionTimedOut', 'waited 10 minutes'); } });
    expect(await late.done()).toMatchObject({ status: 'FAILED', error: 'GenerationFailed' });
    expect(late.of('await-admission')).toHaveLength(1);
    expect(late.of('start-prediction')).toHaveLength(0);
    expect(late.of('record-failure')[0].payload.error).toMatchObject({ Error: 'AdmissionTimedOut' });
  });

  test('AwaitPrediction failing (not a time-out) is recorded too, without polling', async () => {
    const h = run({ 'await-prediction': () => { throw named('GenerationNotFound'); } });
    expect((await h.done()).status).toBe('FAILED');
    expect(h.of('await-prediction')).toHaveLength(1);
    expect(h.of('poll-prediction')).toHaveLength(0);
    expect(h.of('record-failure')[0].payload.error).toMatchObject({ Error: 'GenerationNotFound' });
  });
});
