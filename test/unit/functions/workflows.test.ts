// Starting a state machine's execution (functions/shared/workflows.ts): the input is sent as JSON
// under the execution's name, and a start that fails is counted for the alarm and thrown. A task
// token is resumed or failed through one helper that answers false for a spent token.
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { FAILURE_METRICS } from '../../../events/metrics';
import { failTask, isSpentToken, resumeTask, SPENT_TOKEN_ERRORS, startExecution } from '../../../functions/shared/workflows';
import { metricsWritten } from '../../support/metrics';

const sfn = mockClient(SFNClient);
const ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:GenerationWorkflow';

afterEach(() => sfn.reset());
afterAll(() => sfn.restore());

describe('startExecution', () => {
  it('starts the named execution with its input as JSON, and counts nothing', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: `${ARN}:g-1`, startDate: new Date() });
    expect(await metricsWritten(() => startExecution(ARN, 'g-1', { generationId: 'g-1' }))).toEqual([]);
    expect(sfn.commandCalls(StartExecutionCommand).map((c) => c.args[0].input)).toEqual([{ stateMachineArn: ARN, name: 'g-1', input: '{"generationId":"g-1"}' }]);
  });

  it('counts a failed start as a workflow start failure, naming the execution, and throws it to the caller', async () => {
    sfn.on(StartExecutionCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    let thrown: unknown;
    const written = await metricsWritten(() => startExecution(ARN, 'g-2', { generationId: 'g-2' }).catch((err: unknown) => void (thrown = err)));
    expect((thrown as Error).name).toBe('ThrottlingException');
    expect(written.map((m) => [m.name, m.value, m.line.execution])).toEqual([[FAILURE_METRICS.workflowStartFailed, 1, 'g-2']]);
    expect(written[0].dimensions).toEqual([[]]);
  });
});

describe('resumeTask and failTask', () => {
  const named = (name: string) => Object.assign(new Error(name), { name });
  // The commands by their class names: only workflows.ts imports them.
  const sent = () => sfn.calls().map((c) => [(c.args[0] as object).constructor.name, (c.args[0] as { input: unknown }).input]);

  it('resumeTask sends the output as JSON and answers true', async () => {
    sfn.onAnyCommand().resolves({});
    expect(await resumeTask('token-1', { status: 'succeeded' })).toBe(true);
    expect(sent()).toEqual([['SendTaskSuccessCommand', { taskToken: 'token-1', output: '{"status":"succeeded"}' }]]);
  });

  it('failTask sends the error and its cause and answers true', async () => {
    sfn.onAnyCommand().resolves({});
    expect(await failTask('token-2', 'DuplicateExecution', 'another owns it')).toBe(true);
    expect(sent()).toEqual([['SendTaskFailureCommand', { taskToken: 'token-2', error: 'DuplicateExecution', cause: 'another owns it' }]]);
  });

  it.each(['TaskTimedOut', 'InvalidToken', 'TaskDoesNotExist'])('a spent token (%s) answers false, not thrown', async (name) => {
    sfn.onAnyCommand().rejects(named(name));
    expect(await resumeTask('token-3', {})).toBe(false);
    expect(await failTask('token-3', 'E', 'c')).toBe(false);
    expect(isSpentToken(named(name))).toBe(true);
  });

  it('any other error is thrown for the caller to retry', async () => {
    sfn.onAnyCommand().rejects(named('ThrottlingException'));
    await expect(resumeTask('token-4', {})).rejects.toMatchObject({ name: 'ThrottlingException' });
    await expect(failTask('token-4', 'E', 'c')).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(isSpentToken(named('ThrottlingException'))).toBe(false);
    expect(isSpentToken(undefined)).toBe(false);
    expect(SPENT_TOKEN_ERRORS).toHaveLength(3);
  });
});
