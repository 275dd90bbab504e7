import type { ApplicationDecisionRecord } from '../../../events/founding';
import { isConditionFailure } from '../../shared/errors';
import type { FoundingStore } from '../../stores/founding';
import { log } from '../../shared/log';

export interface AwaitReviewDeps {
  store: FoundingStore;
  /** SendTaskSuccess: resumes the execution at once when a decision is already recorded. */
  resume: (taskToken: string, output: ApplicationDecisionRecord) => Promise<unknown>;
}

/**
 * Stores the task token on the application (status `pending_review`) so the decision API can
 * resume the execution. If a decision was recorded while no token was current (the reviewer
 * decided as a reminder period ended, and the old token had just expired), the decision is
 * delivered here instead of waiting for one that has already happened.
 */
export async function awaitReview(deps: AwaitReviewDeps, applicationId: string, taskToken: string): Promise<{ waiting: boolean }> {
  const app = await deps.store.getApplication(applicationId);
  if (app.decision) {
    log.info('decision already recorded; resuming', { applicationId });
    await deps.resume(taskToken, app.decision);
    return { waiting: false };
  }
  const first = !app.reviewWaitingSince;
  try {
    await deps.store.updateApplication(
      applicationId,
      { taskToken, status: 'pending_review', reviewWaitingSince: app.reviewWaitingSince ?? deps.store.now().toISOString() },
      { condition: 'attribute_not_exists(decision)' },
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // Decided between our read and our write.
    const decided = await deps.store.getApplication(applicationId);
    if (decided.decision) await deps.resume(taskToken, decided.decision);
    return { waiting: false };
  }
  if (first) await deps.store.addHistory(applicationId, 'waiting for review');
  return { waiting: true };
}
