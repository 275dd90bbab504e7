import { StartExecutionCommand } from '@aws-sdk/client-sfn';
import { FAILURE_METRICS } from '../../events/metrics';
import { stepFunctions } from './clients';
import { log } from './log';

/**
 * The one way a function starts a state machine's execution (`name` is its execution name, an
 * id of ours; `input` is sent as JSON). A failure is logged by the error's name, counted as a
 * metric an alarm watches (a generation or a retry that never started is otherwise silent: the
 * state machine's own alarms see no execution), and thrown for the caller to answer (decision 041).
 */
export async function startExecution(stateMachineArn: string, name: string, input: unknown): Promise<void> {
  try {
    await stepFunctions().send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
  } catch (err) {
    log.error('state machine execution not started', err, { execution: name });
    log.metric(FAILURE_METRICS.workflowStartFailed, { fields: { execution: name } });
    throw err;
  }
}
