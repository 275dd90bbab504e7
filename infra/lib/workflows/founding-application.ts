// The FoundingApplication state machine (docs/founding-pipeline.md): validate the photos,
// confirm, wait for a reviewer (reminding them), then accept (spot, talent, invitation) or
// reject (photos deleted after the retention period). A step that fails for good leaves the
// application `failed`; an admin's retry starts a new execution at that step (decision 017).
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Choice, Condition, DefinitionBody, Errors, Fail, JsonPath, Pass, Succeed, Wait, WaitTime, type IChainable } from 'aws-cdk-lib/aws-stepfunctions';
import type { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { IDENTITY_WAIT_SECONDS, REJECTED_PHOTO_RETENTION_DAYS, REVIEW_REMINDER_SECONDS, type RetryableStep } from '../../../events/founding';
import { EMAIL_RETRY, LAMBDA_SERVICE_RETRY, TASK_RETRY, lambdaStep, noRetry, type RetryPolicy } from './steps';

/** The task functions, one per step kind (docs/founding-pipeline.md lists their contracts). */
export interface FoundingWorkflowFunctions {
  validatePhotos: IFunction;
  sendEmail: IFunction;
  recordEmailFailure: IFunction;
  awaitReview: IFunction;
  awaitIdentity: IFunction;
  allocateSpot: IFunction;
  createTalent: IFunction;
  inviteTalent: IFunction;
  deletePhotos: IFunction;
  recordFailure: IFunction;
}

type EmailKind = 'confirmation' | 'invalid' | 'acceptance' | 'rejection' | 'reminder';

const permanent = noRetry(['ApplicationNotFound', 'ZodError', 'DuplicateExecution']);
/** Steps that change our data: each is idempotent, so any failure may be retried. */
const WORK_RETRY: RetryPolicy = [permanent, LAMBDA_SERVICE_RETRY, TASK_RETRY];
const SEND_RETRY: RetryPolicy = [permanent, EMAIL_RETRY];
const RECORD_RETRY: RetryPolicy = [permanent, LAMBDA_SERVICE_RETRY, TASK_RETRY];

/**
 * The definition and comment of the FoundingApplication state machine, to spread into
 * StateMachineProps. Its states are created in a scope `id` under `scope`.
 */
export function foundingApplicationWorkflow(scope: Construct, id: string, fns: FoundingWorkflowFunctions): { definitionBody: DefinitionBody; comment: string } {
  const s = new Construct(scope, id);
  const applicationId = JsonPath.stringAt('$.applicationId');
  const stepFailed = new Fail(s, 'StepFailed', {
    error: 'StepFailed',
    cause: 'A step failed after its retries; the application shows status failed, and an admin can retry it from the console',
  });
  /**
   * A step that changes our data. Once its retries are spent, any error is recorded on the
   * application (status failed, the step, the error's name) and the execution ends failed.
   */
  const work = (stateId: RetryableStep, fn: IFunction, payload: Record<string, unknown> = {}, more: { resultSelector?: Record<string, unknown>; resultPath?: string } = {}) =>
    catchFailure(lambdaStep(s, stateId, { fn, payload: { applicationId, ...payload }, retry: WORK_RETRY, ...more }), stateId);
  const catchFailure = (step: LambdaInvoke, stateId: RetryableStep) =>
    step.addCatch(
      lambdaStep(s, `Record${stateId}Failure`, {
        fn: fns.recordFailure,
        payload: { applicationId, step: stateId, error: JsonPath.objectAt('$.stepError') },
        retry: RECORD_RETRY,
      }).next(stepFailed),
      { errors: [Errors.ALL], resultPath: '$.stepError' },
    );

  /** Sends an application email; one that cannot be sent is recorded, and the workflow goes on to `next` either way. */
  const email = (stateId: string, kind: EmailKind, failureId: string, next: IChainable, extra: Record<string, unknown> = {}) => {
    const recordFailure = lambdaStep(s, failureId, {
      fn: fns.recordEmailFailure,
      payload: { applicationId, kind, error: JsonPath.objectAt('$.emailError') },
      retry: RECORD_RETRY,
    }).next(next);
    return lambdaStep(s, stateId, { fn: fns.sendEmail, payload: { applicationId, kind, ...extra }, retry: SEND_RETRY })
      .addCatch(recordFailure, { errors: [Errors.ALL], resultPath: '$.emailError' })
      .next(next);
  };

  // Rejected: the photos are tagged for the bucket's lifecycle backstop, kept for the retention
  // period, then deleted. Invalid: nothing to review, the photos are deleted at once.
  const deletePhotos = work('DeletePhotos', fns.deletePhotos);
  const waitRetention = new Wait(s, 'WaitRetention', {
    comment: 'Rejected applicants\' photos are kept REJECTED_PHOTO_RETENTION_DAYS, then deleted',
    time: WaitTime.duration(Duration.days(REJECTED_PHOTO_RETENTION_DAYS)),
  });
  waitRetention.next(deletePhotos).next(new Succeed(s, 'Rejected'));
  const markPhotos = work('MarkPhotosForDeletion', fns.deletePhotos, { mark: true });
  markPhotos.next(waitRetention);
  const reject = email('SendRejection', 'rejection', 'RecordRejectionFailure', markPhotos, { review: JsonPath.objectAt('$.review') });

  const inviteTalent = work('InviteTalent', fns.inviteTalent, { talentId: JsonPath.stringAt('$.talent.talentId') });
  inviteTalent.next(email('SendAcceptance', 'acceptance', 'RecordAcceptanceFailure', new Succeed(s, 'Accepted')));
  const createTalent = work('CreateTalent', fns.createTalent, { founding: JsonPath.stringAt('$.allocation.founding') }, {
    resultSelector: { talentId: JsonPath.stringAt('$.Payload.talentId') },
    resultPath: '$.talent',
  });
  createTalent.next(inviteTalent);
  const allocateSpot = work('AllocateSpot', fns.allocateSpot, {}, { resultSelector: { founding: JsonPath.stringAt('$.Payload.founding') }, resultPath: '$.allocation' });
  allocateSpot.next(createTalent);

  const decision = new Choice(s, 'Decision')
    .when(Condition.stringEquals('$.review.decision', 'accept'), allocateSpot)
    .when(Condition.stringEquals('$.review.decision', 'reject'), reject)
    .otherwise(new Fail(s, 'UnknownDecision', { error: 'UnknownDecision', cause: 'The review ended without \'accept\' or \'reject\'' }));

  const awaitReview = lambdaStep(s, 'AwaitReview', {
    fn: fns.awaitReview,
    comment: 'Stores the task token on the application; the decision API resumes with { decision, note, messageToApplicant?, decidedBy, decidedAt }',
    payload: { applicationId, taskToken: JsonPath.taskToken, execution: JsonPath.stringAt('$$.Execution.Name') },
    waitForTaskToken: { timeout: Duration.seconds(REVIEW_REMINDER_SECONDS) },
    resultPath: '$.review',
    retry: WORK_RETRY,
  });
  // No decision within the review period: remind the reviewers, then wait again with a new token.
  awaitReview.addCatch(email('RemindReviewers', 'reminder', 'RecordReminderFailure', awaitReview), { errors: [Errors.TIMEOUT], resultPath: '$.reviewTimeout' });
  // A second execution of the same application (a repeated start) leaves the review to the first.
  awaitReview.addCatch(new Succeed(s, 'ReviewedByAnotherExecution', { comment: 'Another execution of this application owns its review' }), {
    errors: ['DuplicateExecution'],
    resultPath: JsonPath.DISCARD,
  });
  catchFailure(awaitReview, 'AwaitReview').next(decision);

  // The proof of person (docs/identity.md): the review waits for the applicant's consent and, with
  // it, for the photos' face checks (and replacements); the check-faces trigger resumes it. Past
  // IDENTITY_WAIT_SECONDS the review goes on by hand with what there is.
  const confirmation = email('SendConfirmation', 'confirmation', 'RecordConfirmationFailure', awaitReview);
  const awaitIdentity = lambdaStep(s, 'AwaitIdentity', {
    fn: fns.awaitIdentity,
    comment: 'Stores the task token on the application; the check-faces trigger resumes with { identity }',
    payload: { applicationId, taskToken: JsonPath.taskToken },
    waitForTaskToken: { timeout: Duration.seconds(IDENTITY_WAIT_SECONDS) },
    resultPath: '$.identity',
    retry: WORK_RETRY,
  });
  awaitIdentity.addCatch(new Pass(s, 'IdentityNotFinished', { comment: 'No proof of person in time: reviewed by hand' }).next(confirmation), {
    errors: [Errors.TIMEOUT],
    resultPath: '$.identityTimeout',
  });
  catchFailure(awaitIdentity, 'AwaitIdentity').next(confirmation);

  const deleteInvalidPhotos = work('DeleteInvalidPhotos', fns.deletePhotos);
  deleteInvalidPhotos.next(new Succeed(s, 'Invalid', { comment: 'Too few usable photos: the applicant was told why, and the photos are deleted' }));
  const validate = work('ValidatePhotos', fns.validatePhotos, {}, {
    resultSelector: {
      validCount: JsonPath.numberAt('$.Payload.validCount'),
      rejectedCount: JsonPath.numberAt('$.Payload.rejectedCount'),
      enough: JsonPath.stringAt('$.Payload.enough'),
    },
    resultPath: '$.validation',
  });
  validate.next(
    new Choice(s, 'EnoughPhotos')
      .when(Condition.booleanEquals('$.validation.enough', true), awaitIdentity)
      .otherwise(email('SendInvalidEmail', 'invalid', 'RecordInvalidEmailFailure', deleteInvalidPhotos)),
  );

  // An admin's retry starts a new execution with `resumeAt` naming the failed step, and what the
  // steps after it read from earlier ones (`allocation`, `talent`) taken from the application.
  const resumable: Record<RetryableStep, IChainable> = {
    ValidatePhotos: validate,
    AwaitIdentity: awaitIdentity,
    AwaitReview: awaitReview,
    AllocateSpot: allocateSpot,
    CreateTalent: createTalent,
    InviteTalent: inviteTalent,
    MarkPhotosForDeletion: markPhotos,
    DeletePhotos: deletePhotos,
    DeleteInvalidPhotos: deleteInvalidPhotos,
  };
  const resume = new Choice(s, 'ResumeAt', { comment: 'A retry: go straight to the step that failed' });
  for (const [step, state] of Object.entries(resumable)) resume.when(Condition.stringEquals('$.resumeAt', step), state);
  resume.otherwise(new Fail(s, 'UnknownResumeStep', { error: 'UnknownResumeStep', cause: 'resumeAt names no step the workflow can resume at' }));

  // The EventBridge rule starts it with the event's detail; an input that is the whole event is accepted too.
  const start = new Choice(s, 'FromEvent', { comment: 'Started by the EventBridge rule with the event\'s detail, or with the whole event; or by a retry' })
    .when(Condition.isPresent('$.resumeAt'), resume)
    .when(Condition.isPresent('$.detail.applicationId'), new Pass(s, 'UnwrapEvent', { parameters: { applicationId: JsonPath.stringAt('$.detail.applicationId') } }).next(validate))
    .otherwise(new Pass(s, 'Start', { parameters: { applicationId } }).next(validate));

  return {
    definitionBody: DefinitionBody.fromChainable(start),
    comment:
      'FoundingApplication: validate photos, confirm, wait for a reviewer (reminding them), then accept (spot, talent, invitation) or reject (photos deleted after the retention period); a step that fails for good is recorded for an admin to retry. docs/founding-pipeline.md',
  };
}
