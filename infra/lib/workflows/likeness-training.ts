// The LikenessTraining state machine (docs/training.md): prepare the training (waiting for the
// accepted application's talent), build the training set, create the talent's private model on
// Replicate, start the training, wait for its signed webhook through a task token (polling when
// none comes, up to a time-out), record the new version, make its samples and email the talent
// that it is ready for review. A failure is recorded on the training, counted and shown in the
// console; the execution then ends, the training's record telling what happened.
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Choice, Condition, DefinitionBody, Errors, JsonPath, Succeed, type RetryProps } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import {
  START_BUSY_ERROR,
  TALENT_NOT_CREATED_ERROR,
  TALENT_WAIT,
  TRAINING_PERMANENT_ERRORS,
  TRAINING_POLL_INTERVAL_SECONDS,
  TRAINING_POLL_MAX_ATTEMPTS,
  TRAINING_WEBHOOK_WAIT_SECONDS,
} from '../../../events/training-values';
import { awaitReplicate } from './replicate-wait';
import { EMAIL_RETRY, LAMBDA_SERVICE_RETRY, TASK_RETRY, lambdaStep, noRetry, type RetryPolicy } from './steps';

/** The task functions (docs/training.md lists their contracts). */
export interface LikenessTrainingFunctions {
  prepareTraining: IFunction;
  buildTrainingSet: IFunction;
  createModel: IFunction;
  startTraining: IFunction;
  awaitTraining: IFunction;
  pollTraining: IFunction;
  recordVersion: IFunction;
  generateSamples: IFunction;
  emailTalent: IFunction;
  recordFailure: IFunction;
}

const permanent = noRetry([...TRAINING_PERMANENT_ERRORS]);
const WORK_RETRY: RetryPolicy = [permanent, LAMBDA_SERVICE_RETRY, TASK_RETRY];
/** The acceptance's steps create the talent after the decision: about 10 minutes of doubling pauses. */
const TALENT_RETRY: RetryProps = {
  errors: [TALENT_NOT_CREATED_ERROR],
  interval: Duration.seconds(TALENT_WAIT.firstPauseSeconds),
  maxAttempts: TALENT_WAIT.attempts,
  backoffRate: 2,
};
/** An earlier create's answer was lost: StartTraining waits (about two minutes in all) until it shows or cannot any more. */
const START_BUSY_RETRY: RetryProps = { errors: [START_BUSY_ERROR], interval: Duration.seconds(10), maxAttempts: 5, backoffRate: 1.5 };
const SEND_RETRY: RetryPolicy = [permanent, EMAIL_RETRY];


/**
 * The definition and comment of the LikenessTraining state machine, to spread into
 * StateMachineProps. Its input is `{ applicationId, trainingId? }` (an acceptance's names the
 * application only); its states are created in a scope `id` under `scope`.
 */
export function likenessTrainingWorkflow(scope: Construct, id: string, fns: LikenessTrainingFunctions): { definitionBody: DefinitionBody; comment: string } {
  const s = new Construct(scope, id);
  const trainingId = JsonPath.stringAt('$.prepared.trainingId');
  const catchAll = { errors: [Errors.ALL], resultPath: '$.error' };

  const recorded = new Succeed(s, 'FailureRecorded', {
    comment: 'The training is failed, with its code, in the console\'s list; the metric LikenessTrainingsFailed and its alarm tell somebody',
  });
  const recordFailure = (stateId: string, payload: Record<string, unknown>) =>
    lambdaStep(s, stateId, { fn: fns.recordFailure, payload, retry: WORK_RETRY }).next(recorded);
  const recordError = recordFailure('RecordFailure', { trainingId, error: JsonPath.objectAt('$.error') });
  const recordTrainerFailure = recordFailure('RecordTrainerFailure', { trainingId, training: JsonPath.objectAt('$.training') });
  const recordTimeout = recordFailure('RecordTimeout', { trainingId, timedOut: true });

  const step = (stateId: string, fn: IFunction, comment: string, retry: RetryPolicy = WORK_RETRY) =>
    lambdaStep(s, stateId, { fn, comment, payload: { trainingId }, retry }).addCatch(recordError, catchAll);

  // Ready: the samples are stored; the email that tells the talent is tried, and its failure
  // leaves the training ready all the same (the talent portal shows it).
  const ready = new Succeed(s, 'ReadyForReview', { comment: 'The talent approves, or says "This isn\'t me", in the talent portal' });
  const email = lambdaStep(s, 'EmailTalent', { fn: fns.emailTalent, comment: 'Tells the talent the model is ready for their review (once)', payload: { trainingId }, retry: SEND_RETRY })
    .addCatch(new Succeed(s, 'ReadyWithoutEmail', { comment: 'The email could not be sent; the portal shows the samples' }), { errors: [Errors.ALL], resultPath: '$.emailError' })
    .next(ready);
  const recordVersion = step('RecordVersion', fns.recordVersion, 'Reads the finished training from Replicate: the version, its duration, its cost and its logs');
  recordVersion
    .next(step('GenerateSamples', fns.generateSamples, 'The new version\'s samples from the fixed prompts, stored privately (no credits, no license)'))
    .next(email);

  const awaitTraining = awaitReplicate(s, {
    subject: 'Training',
    payload: { trainingId },
    wait: {
      fn: fns.awaitTraining,
      comment: 'Stores the task token on the training; the completed webhook (or this function, when it came first) resumes with { status, error }',
      timeout: Duration.seconds(TRAINING_WEBHOOK_WAIT_SECONDS),
    },
    poll: {
      fn: fns.pollTraining,
      comment: 'Reads the training from Replicate (or the final status a late webhook stored)',
      interval: Duration.seconds(TRAINING_POLL_INTERVAL_SECONDS),
      maxAttempts: TRAINING_POLL_MAX_ATTEMPTS,
    },
    startPollingComment: `No completed webhook within ${TRAINING_WEBHOOK_WAIT_SECONDS} s: poll every ${TRAINING_POLL_INTERVAL_SECONDS} s, at most ${TRAINING_POLL_MAX_ATTEMPTS} times, then time out`,
    succeeded: recordVersion,
    unsuccessful: recordTrainerFailure,
    timedOut: recordTimeout,
    recordError,
    catchAll,
    retry: WORK_RETRY,
  });

  // Failures of PrepareTraining: the training may not exist yet; the input names the application.
  const recordPrepareError = recordFailure('RecordPrepareFailure', { input: JsonPath.entirePayload, error: JsonPath.objectAt('$.error') });
  const prepare = lambdaStep(s, 'PrepareTraining', {
    fn: fns.prepareTraining,
    comment: 'The training this execution runs: a retrain\'s, or the acceptance\'s first, made once the application has its talent (TalentNotCreated is retried)',
    payload: { input: JsonPath.entirePayload },
    retry: [permanent, TALENT_RETRY, LAMBDA_SERVICE_RETRY, TASK_RETRY],
    resultSelector: { trainingId: JsonPath.stringAt('$.Payload.trainingId'), proceed: JsonPath.stringAt('$.Payload.proceed') },
    resultPath: '$.prepared',
  }).addCatch(recordPrepareError, catchAll);
  prepare.next(
    new Choice(s, 'Proceed')
      .when(Condition.booleanEquals('$.prepared.proceed', false), new Succeed(s, 'NotThisExecutions', { comment: 'The training ended already, or the model was started another way' }))
      .otherwise(
        step('BuildTrainingSet', fns.buildTrainingSet, 'The usable photos, cropped square around the face at the trainer\'s size, without metadata, zipped in the training bucket')
          .next(step('CreateModel', fns.createModel, 'The talent\'s private destination model on Replicate (409: made before)'))
          .next(
            step('StartTraining', fns.startTraining, 'Starts the training with the stage\'s trainer, the set by a presigned URL, the trigger word and our webhook', [
              permanent,
              START_BUSY_RETRY,
              LAMBDA_SERVICE_RETRY,
              TASK_RETRY,
            ]),
          )
          .next(awaitTraining),
      ),
  );

  return {
    definitionBody: DefinitionBody.fromChainable(prepare),
    comment:
      'LikenessTraining: prepare, build the training set, create the model, start the training on Replicate, wait for its webhook (polling as a fallback, then a time-out), record the version, make samples, email the talent. docs/training.md',
  };
}
