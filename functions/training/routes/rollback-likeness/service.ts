import type { AdminTrainingsResponse } from '../../../../events/training';
import {
  LIKENESS_REMOVED_MESSAGE,
  NO_LIKENESS_MODEL_MESSAGE,
  NOT_APPROVED_MESSAGE,
  TRAINING_ID_PATTERN,
  TRAINING_NOT_FOUND_MESSAGE,
  VERSION_DELETED_MESSAGE,
} from '../../../../events/training-values';
import { TALENT_NOT_FOUND_MESSAGE } from '../../../../events/talent';
import { likenessState } from '../../../../events/likeness';
import type { TalentStore } from '../../../catalog';
import { ConflictError, NotFoundError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { listTrainings, talentOf, type AdminTrainingDeps } from '../../admin-trainings';

export interface RollbackDeps extends AdminTrainingDeps {
  catalog: AdminTrainingDeps['catalog'] & Pick<TalentStore, 'setGenerationConfig'>;
  now: () => Date;
}

/**
 * `POST /admin/talent/{id}/trainings/{trainingId}/rollback`: an earlier version the talent
 * approved goes live again (the catalog's generation config first, then the model's live
 * version), and the training records who put it back and when. Only an approved version that was
 * not deleted; not once the likeness was removed.
 */
export async function rollback(deps: RollbackDeps, talentId: string | undefined, trainingId: string | undefined, admin: string): Promise<AdminTrainingsResponse> {
  const { talentId: id, controls } = await talentOf(deps, talentId);
  const model = await deps.store.getModel(id);
  if (!model) throw new ConflictError(NO_LIKENESS_MODEL_MESSAGE);
  const training = trainingId && TRAINING_ID_PATTERN.test(trainingId) ? await deps.store.getTraining(trainingId) : undefined;
  if (!training || training.talentId !== id) throw new NotFoundError(TRAINING_NOT_FOUND_MESSAGE);
  if (!training.approvedAt || !training.version) throw new ConflictError(NOT_APPROVED_MESSAGE);
  if (training.deletedAt) throw new ConflictError(VERSION_DELETED_MESSAGE);
  if (model.removedAt || likenessState(controls, deps.now()) === 'removed') throw new ConflictError(LIKENESS_REMOVED_MESSAGE);
  if (model.liveTrainingId !== training.id) {
    if (!(await deps.catalog.setGenerationConfig(id, { version: training.version, triggerWord: model.triggerWord }))) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
    const at = deps.now().toISOString();
    await deps.store.updateModel(id, { liveTrainingId: training.id, liveVersion: training.version, updatedAt: at });
    await deps.store.updateTraining(training.id, { restored: { at, by: admin } });
    log.info('likeness model rolled back', { trainingId: training.id, from: model.liveTrainingId });
  }
  return listTrainings(deps, id);
}
