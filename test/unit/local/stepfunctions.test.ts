import { StateMachineRunner, StepFunctionsError, type StateMachineRunnerOptions } from '../../../infra/local/stepfunctions';
import { Resolver, stateMachineDefinition, type CfnTemplate } from '../../../infra/local/template';
import { eventually } from '../../support/eventually';

const ARN = 'arn:aws:states:us-east-1:123456789012:stateMachine:review-flow';
const FLAKY = 'arn:aws:lambda:us-east-1:123456789012:function:flaky';
const NOTIFY = 'arn:aws:lambda:us-east-1:123456789012:function:notify';

class TransientError extends Error {
  name = 'TransientError';
}
class FatalError extends Error {
  name = 'FatalError';
}

/**
 * A Lambda task that retries TransientError and catches the rest, a Wait, and a human review
 * (.waitForTaskToken) with a timeout branch: the shape of our approval workflows.
 */
function reviewFlow(review: Record<string, unknown> = {}) {
  return {
    Comment: 'fixture',
    StartAt: 'Flaky',
    States: {
      Flaky: {
        Type: 'Task',
        Resource: 'arn:aws:states:::lambda:invoke',
        Parameters: { FunctionName: FLAKY, 'Payload.$': '$' },
        ResultSelector: { 'value.$': '$.Payload.value' },
        ResultPath: '$.flaky',
        Retry: [{ ErrorEquals: ['TransientError'], IntervalSeconds: 5, MaxAttempts: 2, BackoffRate: 2 }],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Broken' }],
        Next: 'Pause',
      },
      Pause: { Type: 'Wait', Seconds: 60, Next: 'Review' },
      Review: {
        Type: 'Task',
        Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
        Parameters: {
          FunctionName: NOTIFY,
          Payload: { 'token.$': '$$.Task.Token', 'executionId.$': '$$.Execution.Id', 'machine.$': '$$.StateMachine.Name', kind: 'review' },
        },
        TimeoutSeconds: 30,
        ResultPath: '$.review',
        Catch: [
          { ErrorEquals: ['Rejected'], ResultPath: '$.rejection', Next: 'WasRejected' },
          { ErrorEquals: ['States.Timeout'], ResultPath: '$.timeout', Next: 'TimedOut' },
        ],
        Next: 'Done',
        ...review,
      },
      Done: { Type: 'Succeed' },
      WasRejected: { Type: 'Pass', Result: 'rejected', ResultPath: '$.outcome', End: true },
      TimedOut: { Type: 'Pass', Result: 'timed-out', ResultPath: '$.outcome', End: true },
      Broken: { Type: 'Fail', Error: 'Broken', Cause: 'flaky failed for good' },
    },
  };
}

/** What the review flow's notify step is invoked with. */
interface NotifyPayload {
  token: string;
  executionId: string;
  machine: string;
  kind: string;
}

interface Harness {
  runner: StateMachineRunner;
  calls: Array<{ fn: string; payload: unknown }>;
  /** Resolves with the payload of the next notify invocation (it carries the task token). */
  nextNotify(): Promise<NotifyPayload>;
}

function harness(flaky: (attempt: number) => unknown, extra: Partial<StateMachineRunnerOptions> = {}): Harness {
  const calls: Harness['calls'] = [];
  let attempt = 0;
  let notifyWaiters: Array<(payload: NotifyPayload) => void> = [];
  const runner = new StateMachineRunner({
    waitTimeScale: 0.001,
    retryIntervalScale: 0.001,
    ...extra,
    async invokeLambda(fn, payload) {
      calls.push({ fn, payload });
      if (fn === FLAKY) return flaky(++attempt);
      if (fn === NOTIFY) {
        const waiters = notifyWaiters;
        notifyWaiters = [];
        waiters.forEach((resolve) => resolve(payload as NotifyPayload));
        return { accepted: true };
      }
      throw new Error(`unexpected function ${fn}`);
    },
  });
  return {
    runner,
    calls,
    nextNotify: () => new Promise((resolve) => notifyWaiters.push(resolve)),
  };
}

const failsOnceThenSucceeds = (attempt: number) => {
  if (attempt === 1) throw new TransientError('try again');
  return { value: 42 };
};

describe('StateMachineRunner', () => {
  let runner: StateMachineRunner | undefined;
  afterEach(async () => {
    await runner?.stopAll();
    runner = undefined;
  });

  test('retries a Lambda task, waits, and resumes a waitForTaskToken task on sendTaskSuccess', async () => {
    const h = harness(failsOnceThenSucceeds);
    runner = h.runner;
    runner.register('review-flow', ARN, reviewFlow());
    const notified = h.nextNotify();
    const started = Date.now();
    const { executionArn } = runner.startExecution(ARN, { id: 'app-1' }, 'exec-1');
    expect(executionArn).toBe('arn:aws:states:us-east-1:123456789012:execution:review-flow:exec-1');

    const payload = await notified;
    // Wait 60 s scaled by 0.001.
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(payload).toEqual({ token: expect.any(String), executionId: executionArn, machine: 'review-flow', kind: 'review' });
    expect(payload.token).not.toContain('placeholder');
    expect(runner.describeExecution(executionArn).status).toBe('RUNNING');
    expect(runner.pendingTaskTokens(executionArn)).toEqual([{ taskToken: payload.token, executionArn, stateName: 'Review' }]);

    runner.sendTaskSuccess(payload.token, JSON.stringify({ approved: true }));
    const done = await runner.waitForExecution(executionArn, 5000);

    expect(done.status).toBe('SUCCEEDED');
    expect(done.output).toEqual({ id: 'app-1', flaky: { value: 42 }, review: { approved: true } });
    expect(h.calls.filter((c) => c.fn === FLAKY)).toHaveLength(2);
    expect(h.calls[0].payload).toEqual({ id: 'app-1' });
    const entered = runner.getExecutionHistory(executionArn).filter((e) => e.type === 'StateEntered');
    expect(entered.map((e) => `${e.stateName}:${e.stateType}`)).toEqual(['Flaky:Task', 'Pause:Wait', 'Review:Task', 'Done:Succeed']);
    expect(runner.getExecutionHistory(executionArn).some((e) => e.type === 'StateRetried' && e.stateName === 'Flaky')).toBe(true);
    // The task is over: its token is no longer accepted.
    expect(() => runner!.sendTaskSuccess(payload.token, '{}')).toThrow(expect.objectContaining({ name: 'TaskTimedOut' }));
  });

  test('a non-retryable Lambda error goes to the Catch branch with the Lambda error name and cause', async () => {
    const h = harness(() => {
      throw new FatalError('disk on fire');
    });
    runner = h.runner;
    const definition = reviewFlow();
    // End the catch branch in a Pass state so the caught error is visible in the output.
    const states: Record<string, unknown> = definition.States;
    states.Broken = { Type: 'Pass', End: true };
    runner.register('review-flow', ARN, definition);
    const { executionArn } = runner.startExecution(ARN, { id: 'app-2' });
    const done = await runner.waitForExecution(executionArn, 5000);

    expect(done.status).toBe('SUCCEEDED');
    expect(h.calls.filter((c) => c.fn === FLAKY)).toHaveLength(1); // FatalError is not retried
    const caught = (done.output as { error: { Error: string; Cause: string } }).error;
    expect(caught.Error).toBe('FatalError');
    expect(JSON.parse(caught.Cause)).toMatchObject({ errorType: 'FatalError', errorMessage: 'disk on fire' });
  });

  test('an exhausted Retry ends in the Fail state', async () => {
    const h = harness(() => {
      throw new TransientError('still down');
    });
    runner = h.runner;
    runner.register('review-flow', ARN, reviewFlow());
    const { executionArn } = runner.startExecution(ARN, {});
    const done = await runner.waitForExecution(executionArn, 5000);
    expect(h.calls.filter((c) => c.fn === FLAKY)).toHaveLength(3); // 1 + MaxAttempts 2
    expect(done).toMatchObject({ status: 'FAILED', error: 'Broken', cause: 'flaky failed for good' });
  });

  test('a review nobody answers times out into the timeout branch', async () => {
    const h = harness(failsOnceThenSucceeds);
    runner = h.runner;
    runner.register('review-flow', ARN, reviewFlow());
    const notified = h.nextNotify();
    const { executionArn } = runner.startExecution(ARN, { id: 'app-3' });
    const { token } = await notified;
    const done = await runner.waitForExecution(executionArn, 5000);

    expect(done.status).toBe('SUCCEEDED');
    expect(done.output).toMatchObject({ outcome: 'timed-out', timeout: { Error: 'States.Timeout' } });
    expect(() => runner!.sendTaskSuccess(token, '{}')).toThrow(expect.objectContaining({ name: 'TaskTimedOut' }));
  });

  test('States.TaskFailed does not catch a timeout (as in Step Functions)', async () => {
    const h = harness(failsOnceThenSucceeds);
    runner = h.runner;
    runner.register('review-flow', ARN, reviewFlow({
        Catch: [
          { ErrorEquals: ['Rejected'], Next: 'WasRejected' },
          { ErrorEquals: ['States.TaskFailed'], Next: 'TimedOut' },
        ],
      }),);
    const { executionArn } = runner.startExecution(ARN, {});
    const done = await runner.waitForExecution(executionArn, 5000);
    expect(done).toMatchObject({ status: 'FAILED', error: 'States.Timeout' });
  });

  test('sendTaskFailure fails the task with the given error name, which Catch matches', async () => {
    const h = harness(failsOnceThenSucceeds);
    runner = h.runner;
    runner.register('review-flow', ARN, reviewFlow());
    const notified = h.nextNotify();
    const { executionArn } = runner.startExecution(ARN, {});
    const { token } = await notified;
    runner.sendTaskFailure(token, 'Rejected', 'images are blurry');
    const done = await runner.waitForExecution(executionArn, 5000);
    expect(done.output).toMatchObject({ outcome: 'rejected', rejection: { Error: 'Rejected', Cause: 'images are blurry' } });
  });

  test('HeartbeatSeconds: heartbeats keep the task alive; silence fails it with States.HeartbeatTimeout', async () => {
    const h = harness(failsOnceThenSucceeds);
    runner = h.runner;
    // 300 s / 1000 = 300 ms between heartbeats at most; the task itself may run 100 s (scaled).
    runner.register('review-flow', ARN, reviewFlow({ HeartbeatSeconds: 300, TimeoutSeconds: 100_000 }));

    const alive = h.nextNotify();
    const first = runner.startExecution(ARN, {}, 'alive');
    const { token } = await alive;
    // Heartbeats at most 75 ms apart until twice the heartbeat time has passed since the task began.
    const since = Date.now();
    await eventually(
      () => {
        runner!.sendTaskHeartbeat(token);
        return Date.now() - since > 600;
      },
      { maxIntervalMs: 75, what: 'twice the heartbeat time under heartbeats' },
    );
    expect(runner.describeExecution(first.executionArn).status).toBe('RUNNING');
    runner.sendTaskSuccess(token, { ok: true });
    expect((await runner.waitForExecution(first.executionArn, 5000)).status).toBe('SUCCEEDED');

    const second = runner.startExecution(ARN, {}, 'silent');
    const done = await runner.waitForExecution(second.executionArn, 5000);
    // The catcher lists States.Timeout, which in Step Functions also covers heartbeat timeouts.
    expect(done.output).toMatchObject({ outcome: 'timed-out', timeout: { Error: 'States.HeartbeatTimeout' } });
  });

  test('plain Lambda ARNs, events:putEvents, Parallel and Map states, and the Context object', async () => {
    const putEvents = jest.fn(async () => ({ Entries: [{ EventId: 'e-1' }], FailedEntryCount: 0 }));
    const invokeLambda = jest.fn(async (fn: string, payload: unknown) => ({ fn: fn.split(':').pop(), doubled: (payload as { n: number }).n * 2 }));
    runner = new StateMachineRunner({ invokeLambda, putEvents, waitTimeScale: 0.001 });
    runner.register('fanout', 'arn:aws:states:us-east-1:123456789012:stateMachine:fanout', {
      StartAt: 'Each',
      States: {
        Each: {
          Type: 'Map',
          ItemsPath: '$.items',
          ItemSelector: { 'n.$': '$$.Map.Item.Value' },
          ItemProcessor: { StartAt: 'Double', States: { Double: { Type: 'Task', Resource: 'arn:aws:lambda:us-east-1:123456789012:function:double', End: true } } },
          ResultPath: '$.doubled',
          Next: 'Both',
        },
        Both: {
          Type: 'Parallel',
          Branches: [
            { StartAt: 'Who', States: { Who: { Type: 'Pass', Parameters: { 'id.$': '$$.Execution.Id', 'name.$': '$$.Execution.Name' }, End: true } } },
            { StartAt: 'Nap', States: { Nap: { Type: 'Wait', SecondsPath: '$.nap', End: true } } },
          ],
          ResultPath: '$.both',
          Next: 'Announce',
        },
        Announce: {
          Type: 'Task',
          Resource: 'arn:aws:states:::events:putEvents',
          Parameters: { Entries: [{ Source: 'marketplace.workflow', DetailType: 'Fanout.Completed', 'Detail.$': '$.doubled', EventBusName: 'bus' }] },
          ResultPath: '$.put',
          End: true,
        },
      },
    });
    const arn = 'arn:aws:states:us-east-1:123456789012:stateMachine:fanout';
    const { executionArn } = runner.startExecution(arn, { items: [1, 2], nap: 20 }, 'fan-1');
    const done = await runner.waitForExecution(executionArn, 5000);

    expect(done.status).toBe('SUCCEEDED');
    const output = done.output as { doubled: unknown; both: unknown[]; put: unknown };
    expect(output.doubled).toEqual([
      { fn: 'double', doubled: 2 },
      { fn: 'double', doubled: 4 },
    ]);
    expect(output.both[0]).toEqual({ id: executionArn, name: 'fan-1' });
    expect(output.both[1]).toEqual({ items: [1, 2], nap: 20, doubled: output.doubled }); // a Wait passes its input on
    expect(output.put).toEqual({ Entries: [{ EventId: 'e-1' }], FailedEntryCount: 0 });
    expect(putEvents).toHaveBeenCalledWith([
      { Source: 'marketplace.workflow', DetailType: 'Fanout.Completed', Detail: JSON.stringify(output.doubled), EventBusName: 'bus' },
    ]);
    expect(runner.listExecutions(arn).map((e) => e.executionArn)).toEqual([executionArn]);
  });

  test('stopExecution and stopAll abort running executions and release their task tokens', async () => {
    const h = harness(failsOnceThenSucceeds);
    runner = h.runner;
    runner.register('review-flow', ARN, reviewFlow({ TimeoutSeconds: 1_000_000 }));
    const notified = h.nextNotify();
    const a = runner.startExecution(ARN, {}, 'a');
    const { token } = await notified;
    const b = runner.startExecution(ARN, {}, 'b');

    runner.stopExecution(a.executionArn, 'Operator', 'cancelled by test');
    expect(runner.describeExecution(a.executionArn)).toMatchObject({ status: 'ABORTED', error: 'Operator', cause: 'cancelled by test' });
    expect(() => runner!.sendTaskSuccess(token, '{}')).toThrow(expect.objectContaining({ name: 'TaskTimedOut' }));

    await runner.stopAll();
    expect(runner.describeExecution(b.executionArn).status).toBe('ABORTED');
    expect(runner.pendingTaskTokens()).toEqual([]);
  });

  test('rejects unknown tokens, duplicate execution names and unsupported resources', () => {
    const h = harness(failsOnceThenSucceeds);
    runner = h.runner;
    expect(() => runner!.sendTaskSuccess('nope', '{}')).toThrow(expect.objectContaining({ name: 'InvalidToken' }));
    expect(() => runner!.startExecution(ARN, {})).toThrow(expect.objectContaining({ name: 'StateMachineDoesNotExist' }));
    expect(() =>
      runner!.register('x', 'arn:aws:states:us-east-1:1:stateMachine:x', {
        StartAt: 'Q',
        States: { Q: { Type: 'Task', Resource: 'arn:aws:states:::sqs:sendMessage', End: true } },
      }),
    ).toThrow(StepFunctionsError);

    runner.register('review-flow', ARN, reviewFlow({ TimeoutSeconds: 1_000_000 }));
    runner.startExecution(ARN, { same: 1 }, 'dup');
    expect(runner.startExecution(ARN, { same: 1 }, 'dup').executionArn).toMatch(/:dup$/);
    expect(() => runner!.startExecution(ARN, { other: 2 }, 'dup')).toThrow(expect.objectContaining({ name: 'ExecutionAlreadyExists' }));
  });
});

describe('stateMachineDefinition', () => {
  const template: CfnTemplate = {
    Resources: {
      Step: { Type: 'AWS::Lambda::Function' },
      Machine: {
        Type: 'AWS::StepFunctions::StateMachine',
        Properties: {
          // As CDK writes it: JSON text joined around the function's ARN and the partition.
          DefinitionString: {
            'Fn::Join': ['', ['{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:', { Ref: 'AWS::Partition' }, ':states:::lambda:invoke","Parameters":{"FunctionName":"', { 'Fn::GetAtt': ['Step', 'Arn'] }, '"},"End":true}}}']],
          },
        },
      },
    },
  };
  const resolver = new Resolver(template);
  resolver.set('Step', { ref: 'step', attrs: { Arn: FLAKY } });

  it('resolves the definition CDK writes and parses it', () => {
    expect(stateMachineDefinition(resolver, 'Machine', template.Resources.Machine)).toEqual({
      StartAt: 'T',
      States: { T: { Type: 'Task', Resource: 'arn:aws:states:::lambda:invoke', Parameters: { FunctionName: FLAKY }, End: true } },
    });
  });

  it('refuses substitutions and S3 definitions rather than guessing', () => {
    const machine = template.Resources.Machine;
    for (const extra of [{ DefinitionSubstitutions: { Arn: FLAKY } }, { DefinitionS3Location: { Bucket: 'b', Key: 'k' } }]) {
      const resource = { ...machine, Properties: { ...machine.Properties, ...extra } };
      expect(() => stateMachineDefinition(resolver, 'Machine', resource)).toThrow(/does not read Definition(Substitutions|S3Location)/);
    }
  });

  it('refuses an intrinsic it cannot resolve', () => {
    const resource = { Type: 'AWS::StepFunctions::StateMachine', Properties: { DefinitionString: { 'Fn::ImportValue': 'shared-definition' } } };
    expect(() => stateMachineDefinition(resolver, 'Machine', resource)).toThrow(/cannot resolve Fn::ImportValue/);
  });
});
