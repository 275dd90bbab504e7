import { SendTaskSuccessCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
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

/** Step Functions' answers for a task token that is no longer waited on (used already, or timed out). */
const SPENT_TOKEN = new Set(['TaskTimedOut', 'InvalidToken', 'TaskDoesNotExist']);

/**
 * Resumes a `.waitForTaskToken` step with `output`. A token another caller used first (two sides
 * may both see the outcome) or that timed out is answered `false`, not thrown.
 */
export async function resumeTask(taskToken: string, output: object): Promise<boolean> {
  try {
    await stepFunctions().send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output) }));
    return true;
  } catch (err) {
    if (SPENT_TOKEN.has((err as { name?: string }).name ?? '')) {
      log.info('task token already used or timed out', { error: (err as Error).name });
      return false;
    }
    throw err;
  }
}
