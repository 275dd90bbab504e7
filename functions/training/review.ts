// What the talent's review routes (functions/training/routes/approve-likeness-model,
// reject-likeness-model) share: their dependencies and the version waiting for the review.
import { LIKENESS_REMOVED_MESSAGE, NO_LIKENESS_MODEL_MESSAGE, NOT_READY_FOR_REVIEW_MESSAGE } from '../../events/training-values';
import type { TalentStore } from '../catalog';
import { ConflictError } from '../shared/errors';
import type { RateLimiter } from '../shared/rate-limit';
import type { StartTrainingDeps } from './start';
import type { LikenessModelRecord, TrainingRecord, TrainingStore } from './store';
import type { TalentModelDeps } from './talent-model';

export interface ReviewDeps extends TalentModelDeps {
  store: TalentModelDeps['store'] & Pick<TrainingStore, 'review'> & StartTrainingDeps['store'];
  /** The catalog: the talent's generation config and status. */
  catalog: Pick<TalentStore, 'getForGeneration' | 'setGenerationConfig' | 'update'>;
  limit: RateLimiter;
  startExecution: StartTrainingDeps['startExecution'];
  now: () => Date;
}

/** The model and its training waiting for the caller's review; 409 when there is none. */
export async function waitingForReview(deps: Pick<ReviewDeps, 'store'>, talentId: string): Promise<{ model: LikenessModelRecord; training: TrainingRecord & { version: string } }> {
  const model = await deps.store.getModel(talentId);
  if (!model) throw new ConflictError(NO_LIKENESS_MODEL_MESSAGE);
  if (model.removedAt) throw new ConflictError(LIKENESS_REMOVED_MESSAGE);
  const training = model.currentTrainingId ? await deps.store.getTraining(model.currentTrainingId) : undefined;
  if (!training || training.status !== 'ready-for-review' || !training.version) throw new ConflictError(NOT_READY_FOR_REVIEW_MESSAGE);
  return { model, training: training as TrainingRecord & { version: string } };
}

