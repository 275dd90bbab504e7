import type { ApplicationDecisionRecord } from '../../../../events/founding';
import type { FoundingStore } from '../../store';
import { log } from '../../../shared/log';

export interface AwaitReviewDeps {
  store: FoundingStore;
  /** `resumeTask`: resumes the execution at once when a decision is already recorded. */
  resume: (taskToken: string, output: ApplicationDecisionRecord) => Promise<unknown>;
  /** `failTask`: ends this wait with an error the state machine catches. */
  fail: (taskToken: string, error: string, cause: string) => Promise<unknown>;
}

/** The error a second execution's review wait ends with: the state machine ends it quietly. */
export const DUPLICATE_EXECUTION = 'DuplicateExecution';

/**
 * Stores the task token on the application (status `pending_review`) so the decision API can
 * resume the execution. If a decision was recorded while no token was current (the reviewer
 * decided as a reminder period ended, and the old token had just expired), the decision is
 * delivered here instead of waiting for one that has already happened.
 *
 * The application's review belongs to one execution, named by the first to wait (or by an
 * admin's retry): another execution of the same application (a start repeated by EventBridge)
 * never replaces the owner's token; its wait ends with DuplicateExecution (decision 017).
 */
export async function awaitReview(deps: AwaitReviewDeps, applicationId: string, taskToken: string, execution?: string): Promise<{ waiting: boolean }> {
  const app = await deps.store.getApplication(applicationId);
  const ownedByAnother = (owner: string | undefined) => execution !== undefined && owner !== undefined && owner !== execution;
  if (ownedByAnother(app.reviewExecution)) return duplicate(deps, applicationId, taskToken);
  if (app.decision) {
    log.info('decision already recorded; resuming', { applicationId });
    await deps.resume(taskToken, app.decision);
    return { waiting: false };
  }
  const first = !app.reviewWaitingSince;
  if (!(await deps.store.waitForReview(applicationId, { taskToken, reviewWaitingSince: app.reviewWaitingSince ?? deps.store.now().toISOString(), execution }))) {
    // Decided, or claimed by another execution, between our read and our write.
    const now = await deps.store.getApplication(applicationId);
    if (ownedByAnother(now.reviewExecution)) return duplicate(deps, applicationId, taskToken);
    if (now.decision) await deps.resume(taskToken, now.decision);
    return { waiting: false };
  }
  if (first) await deps.store.addHistory(applicationId, 'waiting for review');
  return { waiting: true };
}

async function duplicate(deps: AwaitReviewDeps, applicationId: string, taskToken: string): Promise<{ waiting: boolean }> {
  log.warn('another execution owns this review; this one ends', { applicationId });
  await deps.fail(taskToken, DUPLICATE_EXECUTION, 'Another execution of this application owns its review');
  return { waiting: false };
}
