import type { LikenessModelView } from '../../../../events/training';
import {
  LIKENESS_REMOVED_MESSAGE,
  MAX_TALENT_RETRAINS,
  NO_LIKENESS_MODEL_MESSAGE,
  NOT_READY_FOR_REVIEW_MESSAGE,
  RETRAINS_USED_MESSAGE,
} from '../../../../events/training-values';
import { likenessState } from '../../../../events/likeness';
import { callerTalent, NO_LIKENESS_MESSAGE, ownChangeRule } from '../../../accounts';
import type { TalentStore } from '../../../catalog';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import type { RateLimiter } from '../../../shared/rate-limit';
import { startRetraining, type StartTrainingDeps } from '../../start';
import type { LikenessModelRecord, TrainingRecord, TrainingStore } from '../../store';
import { modelViewOf, type TalentModelDeps } from '../../talent-model';

export interface ReviewDeps extends TalentModelDeps {
  store: TalentModelDeps['store'] & Pick<TrainingStore, 'review'> & StartTrainingDeps['store'];
  /** The catalog: the talent's generation config and status. */
  catalog: Pick<TalentStore, 'getForGeneration' | 'setGenerationConfig' | 'update'>;
  limit: RateLimiter;
  startExecution: StartTrainingDeps['startExecution'];
  now: () => Date;
}

/** The model and its training waiting for the caller's review; 409 when there is none. */
async function waitingForReview(deps: ReviewDeps, talentId: string): Promise<{ model: LikenessModelRecord; training: TrainingRecord & { version: string } }> {
  const model = await deps.store.getModel(talentId);
  if (!model) throw new ConflictError(NO_LIKENESS_MODEL_MESSAGE);
  if (model.removedAt) throw new ConflictError(LIKENESS_REMOVED_MESSAGE);
  const training = model.currentTrainingId ? await deps.store.getTraining(model.currentTrainingId) : undefined;
  if (!training || training.status !== 'ready-for-review' || !training.version) throw new ConflictError(NOT_READY_FOR_REVIEW_MESSAGE);
  return { model, training: training as TrainingRecord & { version: string } };
}

/**
 * `POST /me/likeness-model/approve`: the version waiting for review goes live. The catalog first
 * (the talent's generation config gets the version and the trigger word), so a failure after it
 * leaves the version still waiting and the same approval can be sent again; then the review is
 * recorded with the model's live version in one transaction. On the first approval a hidden
 * talent becomes active, so the likeness appears in the library and on /create, unless the
 * likeness is removed or its removal requested (the catalog's rules, docs/training.md "Approval").
 * A talent an admin hid after an approval stays hidden on later ones.
 */
export async function approveLikenessModel(deps: ReviewDeps, caller: AccountCaller): Promise<LikenessModelView> {
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
