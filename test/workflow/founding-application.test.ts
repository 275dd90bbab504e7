import { App, Stack } from 'aws-cdk-lib';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { REJECTED_PHOTO_RETENTION_DAYS, REVIEW_REMINDER_SECONDS } from '../../events/founding-values';
import { foundingApplicationWorkflow } from '../../infra/lib/workflows/founding-application';
import { StateMachineRunner } from '../../infra/local/stepfunctions';
import { Resolver, resourcesOfType, stateMachineDefinition, type CfnTemplate } from '../../infra/local/template';

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:FoundingApplication';
const STEPS = ['validate-photos', 'send-email', 'record-email-failure', 'await-identity', 'await-review', 'allocate-spot', 'create-talent', 'invite-talent', 'delete-photos', 'record-failure'] as const;
type Step = (typeof STEPS)[number];
const arn = (step: Step) => `arn:aws:lambda:us-east-1:123456789012:function:${step}`;

interface Definition {
  States: Record<string, { Type: string; Parameters?: { FunctionName?: string }; Retry?: unknown[]; [field: string]: unknown }>;
}

/**
 * The definition the stack deploys, read back from the template of a small stack whose task
 * functions are stand-ins with known ARNs (no bundling, no other resources), as the twin reads it.
 */
function synthesizeDefinition(): Definition {
  // The infra tests run CloudFormation's validation on the real stack; here it would only add seconds.
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'FoundingWorkflow');
  const fn = (step: Step) => LambdaFunction.fromFunctionArn(stack, step, arn(step));
  new StateMachine(stack, 'Machine', {
    ...foundingApplicationWorkflow(stack, 'States', {
      validatePhotos: fn('validate-photos'),
      sendEmail: fn('send-email'),
      recordEmailFailure: fn('record-email-failure'),
      awaitReview: fn('await-review'),
      awaitIdentity: fn('await-identity'),
      allocateSpot: fn('allocate-spot'),
      createTalent: fn('create-talent'),
      inviteTalent: fn('invite-talent'),
      deletePhotos: fn('delete-photos'),
      recordFailure: fn('record-failure'),
    }),
  });
  const template = app.synth().getStackByName(stack.stackName).template as CfnTemplate;
  const [[id, resource]] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine');
  return stateMachineDefinition(new Resolver(template), id, resource) as Definition;
}
const DEFINITION = synthesizeDefinition();

/** The real periods, scaled: a 7-day review wait lasts ~200 ms, the 30-day retention ~860 ms. */
const WAIT_SCALE = 200 / (REVIEW_REMINDER_SECONDS * 1000);
const RETENTION_MS = REJECTED_PHOTO_RETENTION_DAYS * 24 * 60 * 60 * 1000 * WAIT_SCALE;

const ID = 'app_abcdefghijklmnopqrst';

class SesThrottled extends Error {
  name = 'ThrottlingException';
}
class ApplicationNotFound extends Error {
  name = 'ApplicationNotFound';
}

/** What the state machine sends the steps (their payloads' fields together). */
interface Payload {
  applicationId: string;
  kind?: string;
  founding?: boolean;
  talentId?: string;
  taskToken?: string;
  review?: unknown;
  error?: { Error: string; Cause: string };
  step?: string;
  mark?: boolean;
  execution?: string;
}
type Mock = (payload: Payload, attempt: number) => unknown;
interface Call {
  step: Step;
  payload: Payload;
  at: number;
}

const defaults: Record<Step, Mock> = {
  'validate-photos': () => ({ applicationId: ID, validCount: 42, rejectedCount: 3, enough: true }),
  'send-email': () => ({ sent: true }),
  'record-email-failure': () => ({ recorded: true }),
  'await-identity': () => ({ waiting: true }),
  'await-review': () => ({ waiting: true }),
  'allocate-spot': () => ({ founding: true, spotNumber: 7 }),
  'create-talent': (p) => ({ talentId: p.founding ? 'maya-chen-1a2b3c' : 'sam-lee-4d5e6f' }),
  'invite-talent': () => ({ invited: true, existingUser: false }),
  'delete-photos': (p) => (p.mark ? { marked: 84 } : { deleted: 84 }),
  'record-failure': () => ({ recorded: true }),
};

/** A decision as the decision API sends it with SendTaskSuccess. */
const decision = (d: 'accept' | 'reject', note = '') => ({ decision: d, note, decidedBy: 'reviewer@humanly.test', decidedAt: '2026-03-01T10:00:00.000Z' });

let runner: StateMachineRunner | undefined;
afterEach(async () => {
  await runner?.stopAll();
  runner = undefined;
});

/**
 * Runs the state machine with per-step, per-attempt mocks. `reviews` answers each AwaitReview
 * invocation in turn (undefined: nobody answers, so the review times out).
 */
function run(
  mocks: Partial<Record<Step, Mock>>,
  reviews: Array<ReturnType<typeof decision> | undefined> = [],
  input: unknown = { version: 1, applicationId: ID, program: 'founding', submittedAt: '2026-02-01T10:00:00.000Z' },
  identity: 'checked' | 'manual' | 'never' = 'checked',
) {
  const calls: Call[] = [];
  const attempts = new Map<Step, number>();
  const started = Date.now();
  let reviewIndex = 0;
  runner = new StateMachineRunner({
    waitTimeScale: WAIT_SCALE,
    retryIntervalScale: 0.001,
    async invokeLambda(fn, input) {
      const payload = input as Payload;
      const step = fn.split(':').pop() as Step;
      if (!STEPS.includes(step)) throw new Error(`unexpected function ${fn}`);
      const attempt = (attempts.get(step) ?? 0) + 1;
      attempts.set(step, attempt);
      calls.push({ step, payload, at: Date.now() - started });
      const result = (mocks[step] ?? defaults[step])(payload, attempt);
      // The proof of person: the check-faces trigger resumes the wait (unless a test answers otherwise).
      if (step === 'await-identity' && identity !== 'never') setTimeout(() => runner!.sendTaskSuccess(payload.taskToken!, JSON.stringify({ identity })), 5);
      if (step === 'await-review') {
        const answer = reviews[reviewIndex++];
        if (answer) setTimeout(() => runner!.sendTaskSuccess(payload.taskToken!, JSON.stringify(answer)), 5);
      }
      return result;
    },
  });
  runner.register('FoundingApplication', MACHINE, DEFINITION);
  const { executionArn } = runner.startExecution(MACHINE, input);
  const r = runner;
  return {
    calls,
    of: (step: Step) => calls.filter((c) => c.step === step),
    done: () => r.waitForExecution(executionArn, 10_000),
    visited: () => r.getExecutionHistory(executionArn).filter((e) => e.type === 'StateEntered').map((e) => e.stateName),
    history: () => r.getExecutionHistory(executionArn),
  };
}

describe('FoundingApplication state machine', () => {
  test('the definition calls the nine task functions, never retries a missing application, and waits for the review with a timeout', () => {
    const def = DEFINITION;
    const tasks = Object.values(def.States).filter((state) => state.Type === 'Task');
    expect(new Set(tasks.map((t) => t.Parameters?.FunctionName))).toEqual(new Set(STEPS.map(arn)));
    for (const task of tasks) expect(task.Retry?.[0]).toEqual({ ErrorEquals: ['ApplicationNotFound', 'ZodError', 'DuplicateExecution'], MaxAttempts: 0 });
    expect(def.States.AwaitReview).toMatchObject({
      Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
      TimeoutSeconds: REVIEW_REMINDER_SECONDS,
      Parameters: { Payload: { 'taskToken.$': '$$.Task.Token' } },
    });
    expect(def.States.WaitRetention.Seconds).toBe(REJECTED_PHOTO_RETENTION_DAYS * 86_400);
  });

  test('valid photos, confirmation, accepted with founding spots left: spot, talent, invitation, acceptance', async () => {
    const h = run({}, [decision('accept')]);
    const done = await h.done();
    expect(done.status).toBe('SUCCEEDED');
    expect(h.calls.map((c) => c.step)).toEqual(['validate-photos', 'await-identity', 'send-email', 'await-review', 'allocate-spot', 'create-talent', 'invite-talent', 'send-email']);
    expect(h.of('validate-photos')[0].payload).toEqual({ applicationId: ID });
    expect(h.of('send-email').map((c) => c.payload)).toEqual([
      { applicationId: ID, kind: 'confirmation' },
      { applicationId: ID, kind: 'acceptance' },
    ]);
    expect(h.of('await-review')[0].payload).toEqual({ applicationId: ID, taskToken: expect.any(String), execution: expect.any(String) });
    expect(h.of('create-talent')[0].payload).toEqual({ applicationId: ID, founding: true });
    expect(h.of('invite-talent')[0].payload).toEqual({ applicationId: ID, talentId: 'maya-chen-1a2b3c' });
    expect(h.visited().at(-1)).toBe('Accepted');
    expect(done.output).toMatchObject({ applicationId: ID, review: { decision: 'accept' }, allocation: { founding: true }, talent: { talentId: 'maya-chen-1a2b3c' } });
  });

  test('too few valid photos: the invalid-photos email, no review, and the photos deleted at once', async () => {
    const h = run({ 'validate-photos': () => ({ applicationId: ID, validCount: 12, rejectedCount: 30, enough: false }) });
    const done = await h.done();
    expect(done.status).toBe('SUCCEEDED');
    expect(h.calls.map((c) => [c.step, c.payload.kind])).toEqual([
      ['validate-photos', undefined],
      ['send-email', 'invalid'],
      ['delete-photos', undefined],
    ]);
    expect(h.of('delete-photos')[0].payload).toEqual({ applicationId: ID });
    expect(h.visited().at(-1)).toBe('Invalid');
  });

  test('the invalid-photos email failing for good is recorded and the execution still ends cleanly', async () => {
    const h = run({
      'validate-photos': () => ({ applicationId: ID, validCount: 0, rejectedCount: 31, enough: false }),
      'send-email': () => {
        throw new SesThrottled('Maximum sending rate exceeded.');
      },
    });
    const done = await h.done();
    expect(done.status).toBe('SUCCEEDED');
    expect(h.of('send-email')).toHaveLength(4);
    expect(h.of('record-email-failure')[0].payload).toMatchObject({ applicationId: ID, kind: 'invalid', error: { Error: 'ThrottlingException' } });
    expect(h.of('await-review')).toHaveLength(0);
  });

  test('SES failing: retried with backoff, then the failure is recorded, the application kept, and the review still happens', async () => {
    const h = run(
      {
        'send-email': (p) => {
          if (p.kind === 'confirmation') throw new SesThrottled('Maximum sending rate exceeded.');
          return { sent: true };
        },
      },
      [decision('reject', 'Photos were too dark.')],
    );
    const done = await h.done();
    expect(done.status).toBe('SUCCEEDED');
    const confirmations = h.of('send-email').filter((c) => c.payload.kind === 'confirmation');
    expect(confirmations).toHaveLength(4); // 1 + 3 retries
    // Backoff: each pause longer than the one before (10 s, 30 s, 90 s scaled by 1/1000, jittered).
    const retried = h.history().filter((e) => e.type === 'StateRetried' && e.stateName === 'SendConfirmation');
    expect(retried).toHaveLength(3);
    expect(h.of('record-email-failure')).toHaveLength(1);
    const failure = h.of('record-email-failure')[0].payload;
    expect(failure).toMatchObject({ applicationId: ID, kind: 'confirmation', error: { Error: 'ThrottlingException' } });
    expect(JSON.parse(failure.error!.Cause)).toMatchObject({ errorMessage: 'Maximum sending rate exceeded.' });
    // The workflow went on to the review after recording the failure.
    const order = h.calls.map((c) => c.step);
    expect(order.indexOf('record-email-failure')).toBeLessThan(order.indexOf('await-review'));
    expect(h.visited()).toContain('AwaitReview');
  });

  test('the review waits for the proof of person: resumed by the face checks or a review by hand, and past its wait it goes on by hand', async () => {
    // Declined face checks: the trigger resumes at once with `manual`, then the usual review.
    const manual = run({}, [decision('accept')], undefined, 'manual');
    expect((await manual.done()).status).toBe('SUCCEEDED');
    expect(manual.visited().slice(0, 5)).toEqual(['FromEvent', 'Start', 'ValidatePhotos', 'EnoughPhotos', 'AwaitIdentity']);
    expect(manual.of('await-identity').map((c) => Object.keys(c.payload).sort())).toEqual([['applicationId', 'taskToken']]);
    // Nobody answers (the applicant never consents): past IDENTITY_WAIT_SECONDS the review goes on.
    const silent = run({}, [decision('reject')], undefined, 'never');
    const done = await silent.done();
    expect(done.status).toBe('SUCCEEDED');
    expect(silent.visited()).toEqual(expect.arrayContaining(['AwaitIdentity', 'IdentityNotFinished', 'SendConfirmation', 'AwaitReview']));
    const order = silent.calls.map((c) => c.step);
    expect(order.indexOf('await-identity')).toBeLessThan(order.indexOf('await-review'));
  });

  test('review timeout: the reviewers are reminded and the application waits again until decided', async () => {
    const h = run({}, [undefined, undefined, decision('accept')]);
    const done = await h.done();
    expect(done.status).toBe('SUCCEEDED');
    const reviews = h.of('await-review');
    expect(reviews).toHaveLength(3);
    expect(new Set(reviews.map((c) => c.payload.taskToken)).size).toBe(3); // a fresh token each time
    expect(h.of('send-email').map((c) => c.payload.kind)).toEqual(['confirmation', 'reminder', 'reminder', 'acceptance']);
    const steps = h.calls.map((c) => (c.step === 'send-email' ? c.payload.kind : c.step));
    expect(steps.slice(3, 8)).toEqual(['await-review', 'reminder', 'await-review', 'reminder', 'await-review']);
    // The reminder came a review period (scaled) after the wait began.
    const firstReminder = h.calls.find((c) => c.payload.kind === 'reminder')!;
    expect(firstReminder.at - reviews[0].at).toBeGreaterThanOrEqual(190);
    // An expired token is refused, as Step Functions refuses it.
    expect(() => runner!.sendTaskSuccess(reviews[0].payload.taskToken!, '{}')).toThrow(expect.objectContaining({ name: 'TaskTimedOut' }));
  });

  test('a failing reminder is recorded and the application still goes back to waiting', async () => {
    const h = run(
      {
        'send-email': (p) => {
          if (p.kind === 'reminder') throw new SesThrottled('down');
          return { sent: true };
        },
      },
      [undefined, decision('accept')],
    );
    expect((await h.done()).status).toBe('SUCCEEDED');
    expect(h.of('record-email-failure').map((c) => c.payload.kind)).toEqual(['reminder']);
    expect(h.of('await-review')).toHaveLength(2);
  });

  test('accepted with no founding spots left: standard talent, acceptance email', async () => {
    const h = run({ 'allocate-spot': () => ({ founding: false }) }, [decision('accept')]);
    const done = await h.done();
    expect(done.status).toBe('SUCCEEDED');
    expect(h.of('create-talent')[0].payload).toEqual({ applicationId: ID, founding: false });
    expect(h.of('invite-talent')[0].payload).toEqual({ applicationId: ID, talentId: 'sam-lee-4d5e6f' });
    expect(h.of('send-email').at(-1)!.payload).toEqual({ applicationId: ID, kind: 'acceptance' });
    expect(h.of('delete-photos')).toHaveLength(0);
  });

  test('rejected: rejection email with the review, the retention wait, then the photos are deleted', async () => {
    const h = run({}, [decision('reject', 'Please retake the photos in daylight.')]);
    const done = await h.done();
    expect(done.status).toBe('SUCCEEDED');
    expect(h.calls.map((c) => c.step)).toEqual(['validate-photos', 'await-identity', 'send-email', 'await-review', 'send-email', 'delete-photos', 'delete-photos']);
    // First tagged for the lifecycle backstop, then deleted after the wait.
    expect(h.of('delete-photos').map((c) => c.payload)).toEqual([{ applicationId: ID, mark: true }, { applicationId: ID }]);
    expect(h.of('send-email')[1].payload).toEqual({
      applicationId: ID,
      kind: 'rejection',
      review: decision('reject', 'Please retake the photos in daylight.'),
    });
    expect(h.of('delete-photos')[1].at - h.of('send-email')[1].at).toBeGreaterThanOrEqual(RETENTION_MS * 0.95);
    expect(h.of('allocate-spot')).toHaveLength(0);
    expect(h.visited().slice(-4)).toEqual(['MarkPhotosForDeletion', 'WaitRetention', 'DeletePhotos', 'Rejected']);
  });

  test('a failing rejection email is recorded and the photos are still deleted after the wait', async () => {
    const h = run(
      { 'send-email': (p) => (p.kind === 'rejection' ? Promise.reject(new SesThrottled('down')) : { sent: true }) },
      [decision('reject')],
    );
    expect((await h.done()).status).toBe('SUCCEEDED');
    expect(h.of('record-email-failure').map((c) => c.payload.kind)).toEqual(['rejection']);
    expect(h.of('delete-photos')).toHaveLength(2);
  });

  test('started with the whole EventBridge event, it reads the application id from its detail', async () => {
    const h = run({}, [decision('accept')], { 'detail-type': 'FoundingApplication.Submitted', detail: { version: 1, applicationId: ID, program: 'founding' } });
    expect((await h.done()).status).toBe('SUCCEEDED');
    expect(h.of('validate-photos')[0].payload).toEqual({ applicationId: ID });
  });

  test('a transient validation failure is retried; a missing application fails the execution without retries', async () => {
    const flaky = run({
      'validate-photos': (_p, attempt) => {
        if (attempt === 1) throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
        return { applicationId: ID, validCount: 2, rejectedCount: 0, enough: false };
      },
    });
    expect((await flaky.done()).status).toBe('SUCCEEDED');
    expect(flaky.of('validate-photos')).toHaveLength(2);
    await runner!.stopAll();

    const gone = () => {
      throw new ApplicationNotFound(`application ${ID} not found`);
    };
    const missing = run({ 'validate-photos': gone, 'record-failure': gone });
    const done = await missing.done();
    expect(done).toMatchObject({ status: 'FAILED', error: 'ApplicationNotFound' });
    expect(missing.of('validate-photos')).toHaveLength(1);
    expect(missing.of('record-failure')).toHaveLength(1);
  });

  test('a decision that is neither accept nor reject fails loudly', async () => {
    const h = run({}, [{ ...decision('accept'), decision: 'maybe' as 'accept' }]);
    expect(await h.done()).toMatchObject({ status: 'FAILED', error: 'UnknownDecision' });
  });
});

class Boom extends Error {
  name = 'InternalServerError';
}
const boom = () => {
  throw new Boom('the dependency answered 500 for ana.lima@example.com');
};

describe('a step that fails for good', () => {
  // Each data-changing step: its failure (after its retries) is recorded and the execution stops, failed.
  const cases: Array<{ state: string; step: Step; mocks: Partial<Record<Step, Mock>>; reviews: Array<ReturnType<typeof decision>>; after: Step[] }> = [
    { state: 'ValidatePhotos', step: 'validate-photos', mocks: { 'validate-photos': boom }, reviews: [], after: ['send-email', 'await-review'] },
    { state: 'AllocateSpot', step: 'allocate-spot', mocks: { 'allocate-spot': boom }, reviews: [decision('accept')], after: ['create-talent', 'invite-talent'] },
    { state: 'CreateTalent', step: 'create-talent', mocks: { 'create-talent': boom }, reviews: [decision('accept')], after: ['invite-talent'] },
    { state: 'InviteTalent', step: 'invite-talent', mocks: { 'invite-talent': boom }, reviews: [decision('accept')], after: [] },
    { state: 'MarkPhotosForDeletion', step: 'delete-photos', mocks: { 'delete-photos': (p) => (p.mark ? boom() : { deleted: 1 }) }, reviews: [decision('reject')], after: [] },
    { state: 'DeletePhotos', step: 'delete-photos', mocks: { 'delete-photos': (p) => (p.mark ? { marked: 1 } : boom()) }, reviews: [decision('reject')], after: [] },
    {
      state: 'DeleteInvalidPhotos',
      step: 'delete-photos',
      mocks: { 'validate-photos': () => ({ applicationId: ID, validCount: 3, rejectedCount: 27, enough: false }), 'delete-photos': boom },
      reviews: [],
      after: ['await-review'],
    },
  ];

  test.each(cases)('$state: retried, then recorded on the application (name only), and the execution fails with StepFailed', async ({ state, step, mocks, reviews, after }) => {
    const h = run(mocks, reviews);
    const done = await h.done();
    expect(done).toMatchObject({ status: 'FAILED', error: 'StepFailed' });
    // 1 + 3 retries of States.TaskFailed.
    expect(h.history().filter((e) => e.type === 'StateRetried' && e.stateName === state)).toHaveLength(3);
    expect(h.of('record-failure')).toHaveLength(1);
    const recorded = h.of('record-failure')[0].payload;
    expect(recorded).toMatchObject({ applicationId: ID, step: state, error: { Error: 'InternalServerError' } });
    expect(h.visited().slice(-2)).toEqual([`Record${state}Failure`, 'StepFailed']);
    for (const next of after) expect(h.calls.filter((c) => c.step === next && c.at > h.of(step).at(-1)!.at)).toHaveLength(0);
    expect(h.of('send-email').map((c) => c.payload.kind)).not.toContain('acceptance');
  });

  test('AwaitReview: a failure other than the review timeout is recorded too', async () => {
    const h = run({ 'await-review': boom });
    expect(await h.done()).toMatchObject({ status: 'FAILED', error: 'StepFailed' });
    expect(h.of('record-failure')[0].payload).toMatchObject({ step: 'AwaitReview', error: { Error: 'InternalServerError' } });
  });

  test('an email step is not one of them: its failure is recorded as an email failure and the workflow goes on', async () => {
    const h = run({ 'send-email': (p) => (p.kind === 'acceptance' ? boom() : { sent: true }) }, [decision('accept')]);
    expect((await h.done()).status).toBe('SUCCEEDED');
    expect(h.of('record-failure')).toHaveLength(0);
  });
});

describe('a retry resumes at the failed step', () => {
  const resume = (resumeAt: string, extra: object = {}) => ({ applicationId: ID, resumeAt, ...extra });

  test('CreateTalent: with the recorded allocation, then invitation and acceptance; nothing before it runs again', async () => {
    const h = run({}, [], resume('CreateTalent', { allocation: { founding: true } }));
    expect((await h.done()).status).toBe('SUCCEEDED');
    expect(h.calls.map((c) => c.step)).toEqual(['create-talent', 'invite-talent', 'send-email']);
    expect(h.of('create-talent')[0].payload).toEqual({ applicationId: ID, founding: true });
    expect(h.of('send-email')[0].payload).toEqual({ applicationId: ID, kind: 'acceptance' });
    expect(h.visited().slice(0, 2)).toEqual(['FromEvent', 'ResumeAt']);
  });

  test('InviteTalent: with the recorded talent id', async () => {
    const h = run({}, [], resume('InviteTalent', { allocation: { founding: false }, talent: { talentId: 'sam-lee-4d5e6f' } }));
    expect((await h.done()).status).toBe('SUCCEEDED');
    expect(h.calls.map((c) => c.step)).toEqual(['invite-talent', 'send-email']);
    expect(h.of('invite-talent')[0].payload).toEqual({ applicationId: ID, talentId: 'sam-lee-4d5e6f' });
  });

  test('AllocateSpot, ValidatePhotos, AwaitReview: the rest of the path runs as in a first execution', async () => {
    const allocate = run({}, [], resume('AllocateSpot'));
    expect((await allocate.done()).status).toBe('SUCCEEDED');
    expect(allocate.calls.map((c) => c.step)).toEqual(['allocate-spot', 'create-talent', 'invite-talent', 'send-email']);
    await runner!.stopAll();

    const validate = run({}, [decision('accept')], resume('ValidatePhotos'));
    expect((await validate.done()).status).toBe('SUCCEEDED');
    expect(validate.calls.map((c) => c.step)).toEqual(['validate-photos', 'await-identity', 'send-email', 'await-review', 'allocate-spot', 'create-talent', 'invite-talent', 'send-email']);
    await runner!.stopAll();

    const review = run({}, [decision('reject')], resume('AwaitReview'));
    expect((await review.done()).status).toBe('SUCCEEDED');
    expect(review.calls.map((c) => c.step)).toEqual(['await-review', 'send-email', 'delete-photos', 'delete-photos']);
  });

  test('MarkPhotosForDeletion, DeletePhotos and DeleteInvalidPhotos end as Rejected or Invalid', async () => {
    const mark = run({}, [], resume('MarkPhotosForDeletion'));
    expect((await mark.done()).status).toBe('SUCCEEDED');
    expect(mark.visited().slice(-4)).toEqual(['MarkPhotosForDeletion', 'WaitRetention', 'DeletePhotos', 'Rejected']);
    await runner!.stopAll();
    const del = run({}, [], resume('DeletePhotos'));
    expect((await del.done()).status).toBe('SUCCEEDED');
    expect(del.calls.map((c) => c.step)).toEqual(['delete-photos']);
    await runner!.stopAll();
    const invalid = run({}, [], resume('DeleteInvalidPhotos'));
    expect((await invalid.done()).status).toBe('SUCCEEDED');
    expect(invalid.visited().at(-1)).toBe('Invalid');
  });

  test('a step the workflow cannot resume at fails loudly', async () => {
    const h = run({}, [], resume('SendAcceptance'));
    expect(await h.done()).toMatchObject({ status: 'FAILED', error: 'UnknownResumeStep' });
    expect(h.calls).toHaveLength(0);
  });
});

describe('one review per application', () => {
  test('the review wait names its execution, and a second execution whose wait ends with DuplicateExecution stops quietly: no retry, no failure, nothing after', async () => {
    const h = run({
      'await-review': (p) => {
        setTimeout(() => runner!.sendTaskFailure(p.taskToken!, 'DuplicateExecution', 'Another execution of this application owns its review'), 5);
        return { waiting: false };
      },
    });
    const done = await h.done();
    expect(done.status).toBe('SUCCEEDED');
    expect(h.of('await-review')).toHaveLength(1);
    expect(h.of('await-review')[0].payload.execution).toEqual(expect.any(String));
    expect(h.of('record-failure')).toHaveLength(0);
    expect(h.calls.map((c) => c.step)).toEqual(['validate-photos', 'await-identity', 'send-email', 'await-review']);
    expect(h.visited().at(-1)).toBe('ReviewedByAnotherExecution');
  });
});
