import type { LikenessModelView } from '../../../../events/training';
import { MAX_TALENT_RETRAINS, NOT_READY_FOR_REVIEW_MESSAGE, RETRAINS_USED_MESSAGE } from '../../../../events/training-values';
import { callerTalent, ownChangeRule } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { waitingForReview, type ReviewDeps } from '../../review';
import { startRetraining } from '../../start';
import { modelViewOf } from '../../talent-model';

/**
 * `POST /me/likeness-model/reject` `{ note }` ("This isn't me"): the version waiting for review is
 * rejected, with the talent's note for the console; up to MAX_TALENT_RETRAINS times that starts a
 * new training from the same photos, after that the console decides. Nothing changes for clients:
 * a live version stays live, and without one nothing is generated.
 */
export async function rejectLikenessModel(deps: ReviewDeps, caller: AccountCaller, note: string): Promise<LikenessModelView & { retraining: boolean; message?: string }> {
  const { likeness: { talentId } } = await callerTalent(deps, caller);
  await deps.limit([ownChangeRule('likeness', caller.sub)]);
  const { model, training } = await waitingForReview(deps, talentId);
  const rejections = model.rejections + 1;
  const at = deps.now().toISOString();
  if (!(await deps.store.review(training, { decision: 'rejected', note, at }, { rejections }))) throw new ConflictError(NOT_READY_FOR_REVIEW_MESSAGE);
  log.info('likeness model rejected by its talent', { trainingId: training.id, rejections });
  const retraining = rejections <= MAX_TALENT_RETRAINS;
  if (retraining) await startRetraining(deps, { ...model, rejections }, { reason: 'rejected', note });
  const view = await modelViewOf(deps, talentId);
  return { ...view, retraining, ...(retraining ? {} : { message: RETRAINS_USED_MESSAGE }) };
}
