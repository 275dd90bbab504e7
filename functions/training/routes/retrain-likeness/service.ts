import type { RetrainAnswer, RetrainRequest } from '../../../../events/training';
import { LIKENESS_REMOVED_MESSAGE, NO_LIKENESS_MODEL_MESSAGE } from '../../../../events/training-values';
import { likenessState } from '../../../../events/likeness';
import type { TalentStore } from '../../../catalog';
import { ConflictError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { talentOf } from '../../admin-trainings';
import { startFirstTraining, startRetraining, type StartTrainingDeps } from '../../start';
import type { TrainingStore } from '../../store';

export interface RetrainDeps {
  store: Pick<TrainingStore, 'getModel'> & StartTrainingDeps['store'];
  catalog: Pick<TalentStore, 'getForGeneration'>;
  startExecution: StartTrainingDeps['startExecution'];
  /** The stage's owner of the talent's models (a first training makes the model). */
  modelOwner: string;
  now: () => Date;
}

/**
 * `POST /admin/talent/{id}/trainings` `{ steps?, note? }`: a new training of the talent's model
 * with the stage's settings, or the steps given (409 while one runs, or when the likeness was
 * removed). A talent accepted before trainings existed has no model: its first training is made
 * from the application the catalog names (409 without one: seeded talent keep their hand-typed
 * configuration). It does not count against the talent's own retrains.
 */
export async function retrain(deps: RetrainDeps, talentId: string | undefined, request: RetrainRequest, admin: string): Promise<RetrainAnswer> {
  const { talentId: id, controls } = await talentOf(deps, talentId);
  if (likenessState(controls, deps.now()) === 'removed' || controls.removal) throw new ConflictError(LIKENESS_REMOVED_MESSAGE);
  const model = await deps.store.getModel(id);
  const asked = { reason: 'console' as const, requestedBy: admin, note: request.note, steps: request.steps };
  let training;
  if (model) {
    if (model.removedAt) throw new ConflictError(LIKENESS_REMOVED_MESSAGE);
    training = await startRetraining(deps, model, asked);
  } else {
    if (!controls.applicationId) throw new ConflictError(NO_LIKENESS_MODEL_MESSAGE);
    training = await startFirstTraining(deps, id, controls.applicationId, deps.modelOwner, asked);
  }
  log.info('retrain asked in the console', { trainingId: training.id, steps: request.steps });
  return { talentId: id, trainingId: training.id, number: training.number };
}
