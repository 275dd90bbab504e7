import type { RetryAnswer } from '../../../../events/founding';
import type { RetryableStep } from '../../../../events/founding-values';
import { AppError, ConflictError, NotFoundError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { ApplicationNotFoundError, type FoundingStore, type StoredApplication } from '../../store';
import { APPLICATION_ID_PATTERN } from '../../keys';

export interface RetryDeps {
  store: FoundingStore;
  /** StartExecution of the FoundingApplication state machine with this execution name and input. */
  start: (name: string, input: ResumeInput) => Promise<void>;
}

/** A retry execution's input: the step to resume at and what the steps after it read from earlier ones. */
export interface ResumeInput {
  applicationId: string;
  resumeAt: RetryableStep;
  allocation?: { founding: boolean };
  talent?: { talentId: string };
}

export const NOT_FAILED_MESSAGE = 'This application has not failed: there is nothing to retry.';
export const START_FAILED_MESSAGE = 'The workflow could not be started. The application stays failed; try again.';

/** The retry execution's input, from what the earlier steps recorded on the application. */
function resumeInput(app: StoredApplication, step: RetryableStep): ResumeInput {
  const input: ResumeInput = { applicationId: app.id, resumeAt: step };
  if (step === 'CreateTalent' || step === 'InviteTalent') input.allocation = { founding: Boolean(app.founding) };
  if (step === 'InviteTalent') {
    if (!app.talentId) throw new ConflictError('This application has no talent yet: it cannot resume at InviteTalent.');
    input.talent = { talentId: app.talentId };
  }
  return input;
}

/**
 * An admin's retry of a failed application (decision 017): one conditional update takes the
 * application out of `failed` (restoring the status it had, counting the retry), so of two
 * retries at once only one goes on; then a new execution starts at the failed step, named after
 * the application and the retry's number, so it can never run twice. The steps are idempotent,
 * so re-running the failed one is safe. If the execution cannot be started the application is
 * put back to `failed`.
 */
export async function retryApplication(deps: RetryDeps, id: string, admin: string): Promise<RetryAnswer> {
  if (!APPLICATION_ID_PATTERN.test(id)) throw new NotFoundError('No application with this id.');
  const app = await deps.store.getApplication(id).catch((err) => {
    throw err instanceof ApplicationNotFoundError ? new NotFoundError('No application with this id.') : err;
  });
  if (app.status !== 'failed' || !app.failure) throw new ConflictError(NOT_FAILED_MESSAGE);
  const step = app.failure.step;
  const input = resumeInput(app, step);
  const status = app.statusBeforeFailure ?? 'validating';
  const retries = (app.retryCount ?? 0) + 1;
  const execution = `${id}-retry-${retries}`;
  // The review, when still ahead, belongs to the new execution (decision 017).
  const reviewExecution = step === 'ValidatePhotos' || step === 'AwaitReview' ? execution : undefined;
  if (!(await deps.store.markRetried(id, app.failure.at, { status, retryCount: retries, reviewExecution }))) throw new ConflictError(NOT_FAILED_MESSAGE);
  try {
    await deps.start(execution, input);
  } catch (err) {
    log.error('could not start the retry execution', err, { applicationId: id, step });
    await deps.store.restoreFailure(id, app.failure, retries - 1);
    throw new AppError(START_FAILED_MESSAGE, 503);
  }
  await deps.store.addHistory(id, 'retried', { by: admin, note: `resumed at ${step}` });
  log.info('application retried', { applicationId: id, step, retries });
  return { id, status, resumedAt: step };
}
