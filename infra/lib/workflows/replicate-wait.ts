// Waiting for Replicate in a state machine, the one way the generation and training workflows do
// it: a task token the completed webhook resumes, and when none comes in time, polling with a
// counter in the state until a final status or the maximum number of polls.
import type { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Choice, Condition, Errors, JsonPath, Pass, Result, Wait, WaitTime, type CatchProps, type IChainable, type INextable } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { lambdaStep, type RetryPolicy } from './steps';

/** Replicate's final statuses other than succeeded. */
const UNSUCCESSFUL = ['failed', 'canceled', 'aborted'];

export interface ReplicateWaitProps {
  /**
   * What is waited for: names the states (`Await<subject>`, `<subject>Outcome`, `Poll<subject>`)
   * and where `{ status, error }` lands in the state (`$.prediction`, `$.training`).
   */
  subject: 'Prediction' | 'Training';
  /** The payload of both steps (the record's id); the waiting step's also carries the task token. */
  payload: Record<string, unknown>;
  /** The step that stores the task token: its function, comment and how long it waits. */
  wait: { fn: IFunction; comment: string; timeout: Duration };
  /** The polling step: its function and comment, how often and how many times. */
  poll: { fn: IFunction; comment: string; interval: Duration; maxAttempts: number };
  /** The comment of the state that starts polling. */
  startPollingComment: string;
  /** Where a succeeded, an unsuccessful and a timed-out run go. */
  succeeded: IChainable;
  unsuccessful: IChainable;
  timedOut: IChainable;
  /** Where any other error goes, and how it is caught. */
  recordError: IChainable;
  catchAll: CatchProps;
  retry: RetryPolicy;
}

/** The waiting step (chain the steps before it to this); it goes on to `succeeded`, `unsuccessful` or `timedOut`. */
export function awaitReplicate(s: Construct, props: ReplicateWaitProps): INextable & IChainable {
  const resultPath = `$.${props.subject.toLowerCase()}`;
  const statusPath = `${resultPath}.status`;
  /** Replicate's final status: a Choice that goes on to `otherwise` while it is not final. */
  const outcome = (stateId: string, otherwise: IChainable, extra?: (c: Choice) => Choice) => {
    const choice = new Choice(s, stateId)
      .when(Condition.stringEquals(statusPath, 'succeeded'), props.succeeded)
      .when(Condition.or(...UNSUCCESSFUL.map((status) => Condition.stringEquals(statusPath, status))), props.unsuccessful);
    return (extra ? extra(choice) : choice).otherwise(otherwise);
  };

  // The polling fallback: the counter lives in the state, so the loop ends after maxAttempts.
  const waitToPoll = new Wait(s, 'WaitToPoll', { time: WaitTime.duration(props.poll.interval) });
  const poll = lambdaStep(s, `Poll${props.subject}`, {
    fn: props.poll.fn,
    comment: props.poll.comment,
    payload: props.payload,
    retry: props.retry,
    resultSelector: { status: JsonPath.stringAt('$.Payload.status'), error: JsonPath.stringAt('$.Payload.error') },
    resultPath,
  }).addCatch(props.recordError, props.catchAll);
  const countPoll = new Pass(s, 'CountPoll', { parameters: { attempts: JsonPath.mathAdd(JsonPath.numberAt('$.poll.attempts'), 1) }, resultPath: '$.poll' });
  waitToPoll.next(poll).next(countPoll).next(
    outcome('PollOutcome', waitToPoll, (c) => c.when(Condition.numberGreaterThanEquals('$.poll.attempts', props.poll.maxAttempts), props.timedOut)),
  );
  const startPolling = new Pass(s, 'StartPolling', { comment: props.startPollingComment, result: Result.fromObject({ attempts: 0 }), resultPath: '$.poll' });
  startPolling.next(waitToPoll);

  const wait = lambdaStep(s, `Await${props.subject}`, {
    fn: props.wait.fn,
    comment: props.wait.comment,
    payload: { ...props.payload, taskToken: JsonPath.taskToken },
    waitForTaskToken: { timeout: props.wait.timeout },
    resultPath,
    retry: props.retry,
  });
  wait.addCatch(startPolling, { errors: [Errors.TIMEOUT], resultPath: JsonPath.DISCARD });
  wait.addCatch(props.recordError, props.catchAll);
  wait.next(outcome(`${props.subject}Outcome`, startPolling));
  return wait;
}
