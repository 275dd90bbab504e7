import type { LikenessModelView } from '../../../../events/training';
import { LIKENESS_REMOVED_MESSAGE, NOT_READY_FOR_REVIEW_MESSAGE } from '../../../../events/training-values';
import { likenessState } from '../../../../events/likeness';
import { callerTalent, NO_LIKENESS_MESSAGE, ownChangeRule } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { waitingForReview, type ReviewDeps } from '../../review';
import { modelViewOf } from '../../talent-model';

/** Approving starts no training. */
export type ApproveDeps = Omit<ReviewDeps, 'startExecution'>;

/**
 * `POST /me/likeness-model/approve`: the version waiting for review goes live. The catalog first
 * (the talent's generation config gets the version and the trigger word), so a failure after it
 * leaves the version still waiting and the same approval can be sent again; then the review is
 * recorded with the model's live version in one transaction. On the first approval a hidden
 * talent becomes active, so the likeness appears in the library and on /create, unless the
 * likeness is removed or its removal requested (the catalog's rules, docs/training.md "Approval").
 * A talent an admin hid after an approval stays hidden on later ones.
 */
export async function approveLikenessModel(deps: ApproveDeps, caller: AccountCaller): Promise<LikenessModelView> {
  const { likeness: { talentId } } = await callerTalent(deps, caller);
  await deps.limit([ownChangeRule('likeness', caller.sub)]);
  const { model, training } = await waitingForReview(deps, talentId);
  const found = await deps.catalog.getForGeneration(talentId);
  if (!found) throw new ConflictError(NO_LIKENESS_MESSAGE);
  const now = deps.now();
  if (likenessState(found.controls, now) === 'removed') throw new ConflictError(LIKENESS_REMOVED_MESSAGE);

  if (!(await deps.catalog.setGenerationConfig(talentId, { version: training.version, triggerWord: model.triggerWord }))) throw new ConflictError(NO_LIKENESS_MESSAGE);
  const firstApproval = !model.liveTrainingId;
  const listable = !found.controls.removal && !found.controls.removedAt;
  if (firstApproval && listable && found.talent.status === 'hidden') await deps.catalog.update(talentId, { status: 'active' });
  const at = now.toISOString();
  if (!(await deps.store.review(training, { decision: 'approved', at }, { liveTrainingId: training.id, liveVersion: training.version }))) {
    throw new ConflictError(NOT_READY_FOR_REVIEW_MESSAGE);
  }
  log.info('likeness model approved', { trainingId: training.id, number: training.number, activated: firstApproval && listable && found.talent.status === 'hidden' });
  return modelViewOf(deps, talentId);
}
