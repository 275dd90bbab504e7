import { SendTaskFailureCommand, SendTaskSuccessCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { FAILURE_METRICS } from '../../events/metrics';
import { log } from './log';

/** One client per container, created on first use (here, so only the functions that reach Step Functions load its SDK: decision 064). */
let sfn: SFNClient | undefined;
const stepFunctions = () => (sfn ??= new SFNClient({}));

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

/**
 * Step Functions' answers for a task token no execution waits on any more: used already (two
 * sides may both see an outcome: a webhook and a poll, a decision and a re-armed wait) or timed
 * out. Declared here only: `resumeTask` and `failTask` answer `false` for them.
 */
export const SPENT_TOKEN_ERRORS: readonly string[] = ['TaskTimedOut', 'InvalidToken', 'TaskDoesNotExist'];

/** Whether an error of SendTaskSuccess / SendTaskFailure says the token is spent. */
export const isSpentToken = (err: unknown): boolean => SPENT_TOKEN_ERRORS.includes((err as { name?: string } | undefined)?.name ?? '');

async function sendTask(send: () => Promise<unknown>): Promise<boolean> {
  try {
    await send();
    return true;
  } catch (err) {
    if (!isSpentToken(err)) throw err;
    log.info('task token already used or timed out', { error: (err as Error).name });
    return false;
  }
}

/**
 * The one way a function resumes a `.waitForTaskToken` step: SendTaskSuccess with `output` as
 * JSON. `false` when the token is spent (see SPENT_TOKEN_ERRORS): the caller decides whether
 * that matters. Any other error is thrown (the caller retries or fails).
 */
export function resumeTask(taskToken: string, output: object): Promise<boolean> {
  return sendTask(() => stepFunctions().send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output) })));
}

/** Ends a `.waitForTaskToken` step with an error the state machine catches (SendTaskFailure); `false` when the token is spent. */
export function failTask(taskToken: string, error: string, cause: string): Promise<boolean> {
  return sendTask(() => stepFunctions().send(new SendTaskFailureCommand({ taskToken, error, cause })));
}
