// The Generation state machine (docs/generation.md, decision 027): reserve the credits, check the
// talent's policy, start the Replicate prediction, wait for its completed webhook through a task
// token (polling when none comes), deliver the images with their licenses, commit the credits for
// what was delivered and release the rest. Any failure releases whatever is still reserved.
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Choice, Condition, DefinitionBody, Errors, Fail, JsonPath, Succeed, Wait, WaitTime } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ADMISSION_POLL_SECONDS, POLL_INTERVAL_MS, POLL_MAX_ATTEMPTS, WEBHOOK_WAIT_SECONDS, type FailureCode } from '../../../events/generation-values';
import { awaitReplicate } from './replicate-wait';
import { LAMBDA_SERVICE_RETRY, TASK_RETRY, lambdaStep, noRetry, type RetryPolicy } from './steps';

/** The task functions (docs/generation.md lists their contracts). */
export interface GenerationWorkflowFunctions {
  reserveCredits: IFunction;
  checkPolicy: IFunction;
  awaitAdmission: IFunction;
  startPrediction: IFunction;
  awaitPrediction: IFunction;
  pollPrediction: IFunction;
  deliverImages: IFunction;
  recordFailure: IFunction;
}

/**
 * Errors that carry a refusal or a final answer (functions/generation/errors.ts): a retry would
 * get the same answer, so they go straight to the failure record.
 */
export const GENERATION_REFUSALS = ['InsufficientCredits', 'PolicyRefused', 'PredictionFailed', 'AdmissionTimedOut', 'GenerationNotFound', 'ZodError'] as const;
const WORK_RETRY: RetryPolicy = [noRetry([...GENERATION_REFUSALS]), LAMBDA_SERVICE_RETRY, TASK_RETRY];

/** Failure codes of refusals (events/generation-values.ts): the execution ends Refused, not failed. */
const REFUSAL_CODES: FailureCode[] = ['insufficient-credits', 'policy'];

/**
 * The definition and comment of the Generation state machine, to spread into StateMachineProps.
 * Its input is `{ generationId }` (the execution is named by the id); its states are created in
 * a scope `id` under `scope`.
 */
export function generationWorkflow(scope: Construct, id: string, fns: GenerationWorkflowFunctions): { definitionBody: DefinitionBody; comment: string } {
  const s = new Construct(scope, id);
  const generationId = JsonPath.stringAt('$.generationId');

  const failed = new Fail(s, 'GenerationFailed', {
    error: 'GenerationFailed',
    cause: 'The generation failed; its record holds the failure code and message, and its reserved credits were released',
  });
  /** Records a failure on the generation (releasing the credits, canceling a running prediction), then ends failed. */
  const recordFailure = (stateId: string, payload: Record<string, unknown>) =>
    lambdaStep(s, stateId, { fn: fns.recordFailure, payload: { generationId, ...payload }, retry: WORK_RETRY }).next(failed);
  // Errors caught after their retries: the function maps a refusal's name to its code and message.
  // A refusal by our own rules (not enough credits, the talent's policy) is an answer to the
  // client, not a fault: the execution succeeds, so the state machine's Failed alarm stays for faults.
  const refused = new Succeed(s, 'Refused', { comment: 'Refused by our rules: the generation shows failed with its message; nothing is wrong with the system' });
  const recordError = lambdaStep(s, 'RecordFailure', {
    fn: fns.recordFailure,
    payload: { generationId, error: JsonPath.objectAt('$.error') },
    retry: WORK_RETRY,
    resultSelector: { code: JsonPath.stringAt('$.Payload.code') },
    resultPath: '$.failure',
  }).next(
    new Choice(s, 'RefusedOrFailed')
      .when(Condition.or(...REFUSAL_CODES.map((code) => Condition.stringEquals('$.failure.code', code))), refused)
      .otherwise(failed),
  );
  const recordPredictionFailure = recordFailure('RecordPredictionFailure', { prediction: JsonPath.objectAt('$.prediction') });
  const recordTimeout = recordFailure('RecordTimeout', { timedOut: true });
  const catchAll = { errors: [Errors.ALL], resultPath: '$.error' };

  const step = (stateId: string, fn: IFunction, comment: string) =>
    lambdaStep(s, stateId, { fn, comment, payload: { generationId }, retry: WORK_RETRY }).addCatch(recordError, catchAll);

  const deliver = step('DeliverImages', fns.deliverImages, 'Copies the outputs with XMP into the images bucket, one license per image, commits the delivered credits and releases the rest');
  deliver.next(new Succeed(s, 'Delivered'));

  const awaitPrediction = awaitReplicate(s, {
    subject: 'Prediction',
    payload: { generationId },
    wait: {
      fn: fns.awaitPrediction,
      comment: 'Stores the task token on the generation; the completed webhook (or this function, when it came first) resumes with { status, error }',
      timeout: Duration.seconds(WEBHOOK_WAIT_SECONDS),
    },
    poll: {
      fn: fns.pollPrediction,
      comment: 'Reads the prediction from Replicate (or the final one a late webhook stored) and records its status',
      interval: Duration.millis(POLL_INTERVAL_MS),
      maxAttempts: POLL_MAX_ATTEMPTS,
    },
    startPollingComment: `No completed webhook within ${WEBHOOK_WAIT_SECONDS} s: poll every ${POLL_INTERVAL_MS} ms, at most ${POLL_MAX_ATTEMPTS} times`,
    succeeded: deliver,
    unsuccessful: recordPredictionFailure,
    timedOut: recordTimeout,
    recordError,
    catchAll,
    retry: WORK_RETRY,
  });

  const checkPolicy = step('CheckPolicy', fns.checkPolicy, 'The talent is active, not paused or removed, not under another client\'s exclusive contract, and the prompt is outside their excluded industries');

  // Admission under Replicate's creation limit (decision 065), before CheckPolicy, whose industry
  // classifier creates a prediction too (a start that needs it takes two creations): the start joins the queue and
  // serves it; until a creation is its, it waits ADMISSION_POLL_SECONDS and looks again (each
  // look serves the queue too, so it drains with no new starts). AdmissionTimedOut after the
  // longest wait goes to RecordFailure, which returns the credits.
  const awaitAdmission = lambdaStep(s, 'AwaitAdmission', {
    fn: fns.awaitAdmission,
    comment: "Joins the admission queue and serves it, in turn across clients, under Replicate's creation limit; { admitted }",
    payload: { generationId },
    retry: WORK_RETRY,
    resultSelector: { admitted: JsonPath.stringAt('$.Payload.admitted') },
    resultPath: '$.admission',
  }).addCatch(recordError, catchAll);
  const waitForAdmission = new Wait(s, 'WaitForAdmission', { time: WaitTime.duration(Duration.seconds(ADMISSION_POLL_SECONDS)) });
  waitForAdmission.next(awaitAdmission);
  const admitted = new Choice(s, 'Admitted').when(Condition.booleanEquals('$.admission.admitted', true), checkPolicy).otherwise(waitForAdmission);
  checkPolicy.next(step('StartPrediction', fns.startPrediction, 'Starts the prediction with the talent\'s model and trigger word, our webhook and a deadline')).next(awaitPrediction);

  const start = step('ReserveCredits', fns.reserveCredits, 'Reserves one credit per image; InsufficientCredits when the balance is short');
  start.next(awaitAdmission).next(admitted);

  return {
    definitionBody: DefinitionBody.fromChainable(start),
    comment:
      'Generation: reserve credits, wait for admission under Replicate\'s creation limit, check policy, start the Replicate prediction, wait for its webhook (polling as a fallback), deliver the images with licenses; any failure releases the credits. docs/generation.md',
  };
}
