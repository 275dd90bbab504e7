// Building blocks of our state machines (decision 011): retry policies written once, and a
// Lambda step that takes one of them. A workflow module composes these with CDK's own states
// (Choice, Wait, Pass, Succeed, Fail) and returns its first state; the stack wraps it with
// DefinitionBody.fromChainable, and CDK grants the state machine each step's function.
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { IntegrationPattern, JitterType, JsonPath, TaskInput, Timeout, type RetryProps } from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';

/** An ordered list of retriers: Step Functions uses the first whose errors match. */
export type RetryPolicy = readonly RetryProps[];

/** Errors a retry cannot fix (bad input, a record that is gone): never retried. */
export const noRetry = (errors: string[]): RetryProps => ({ errors, maxAttempts: 0 });

/** Lambda's own transient failures (throttling, service errors): retried quickly, often. */
export const LAMBDA_SERVICE_RETRY: RetryProps = {
  errors: ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.TooManyRequestsException'],
  interval: Duration.seconds(2),
  maxAttempts: 6,
  backoffRate: 2,
  jitterStrategy: JitterType.FULL,
};

/** Any other task failure (a dependency timing out, a conflict): a few spaced retries. */
export const TASK_RETRY: RetryProps = {
  errors: ['States.TaskFailed'],
  interval: Duration.seconds(5),
  maxAttempts: 3,
  backoffRate: 2,
  jitterStrategy: JitterType.FULL,
};

/** Sending mail: SES throttles by the second, so the pauses grow faster, up to five minutes. */
export const EMAIL_RETRY: RetryProps = {
  errors: ['States.TaskFailed'],
  interval: Duration.seconds(10),
  maxAttempts: 3,
  backoffRate: 3,
  maxDelay: Duration.minutes(5),
  jitterStrategy: JitterType.FULL,
};

export interface LambdaStepProps {
  fn: IFunction;
  /** The Lambda's event; values from JsonPath (e.g. `JsonPath.stringAt('$.id')`) are read from the state's input. */
  payload: Record<string, unknown>;
  retry: RetryPolicy;
  /** Picks fields of the Lambda's answer (`JsonPath.*At('$.Payload.x')`). */
  resultSelector?: Record<string, unknown>;
  /** Where the (selected) answer goes in the state's output; by default it is discarded. */
  resultPath?: string;
  comment?: string;
  /**
   * Waits for SendTaskSuccess/SendTaskFailure with the task token the payload carries
   * (`JsonPath.taskToken`), at most `timeout`; States.Timeout otherwise.
   */
  waitForTaskToken?: { timeout: Duration; heartbeat?: Duration };
}

/** A `lambda:invoke` Task with our retry policy instead of CDK's default retrier. */
export function lambdaStep(scope: Construct, id: string, props: LambdaStepProps): LambdaInvoke {
  const wait = props.waitForTaskToken;
  const step = new LambdaInvoke(scope, id, {
    lambdaFunction: props.fn,
    payload: TaskInput.fromObject(props.payload),
    retryOnServiceExceptions: false,
    resultSelector: props.resultSelector,
    resultPath: props.resultPath ?? JsonPath.DISCARD,
    comment: props.comment,
    ...(wait
      ? {
          integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN,
          taskTimeout: Timeout.duration(wait.timeout),
          ...(wait.heartbeat ? { heartbeatTimeout: Timeout.duration(wait.heartbeat) } : {}),
        }
      : {}),
  });
  for (const retrier of props.retry) step.addRetry(retrier);
  return step;
}
