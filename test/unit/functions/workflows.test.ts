// Starting a state machine's execution (functions/shared/workflows.ts): the input is sent as JSON
// under the execution's name, and a start that fails is counted for the alarm and thrown.
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { FAILURE_METRICS } from '../../../events/metrics';
import { startExecution } from '../../../functions/shared/workflows';
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
