// What the console's likeness model routes share (routes/list-trainings-admin, retrain-likeness,
// rollback-likeness): the catalog's talent an admin names, and the list of their trainings that
// the list and a rollback answer.
import type { AdminTrainingsResponse } from '../../events/training';
import { isTalentId, TALENT_NOT_FOUND_MESSAGE } from '../../events/talent';
import type { TalentStore } from '../catalog';
import { NotFoundError } from '../shared/errors';
import type { TrainingStore } from './store';
import { adminTrainingsView, type SampleUrl } from './views';

export interface AdminTrainingDeps {
  store: Pick<TrainingStore, 'getModel' | 'getTraining' | 'listTrainings' | 'updateModel' | 'updateTraining'>;
  catalog: Pick<TalentStore, 'getForGeneration'>;
  sampleUrl: SampleUrl;
}

/** The catalog's talent (404 for an unknown id) and their controls. */
export async function talentOf(deps: { catalog: Pick<TalentStore, 'getForGeneration'> }, talentId: string | undefined) {
  if (!talentId || !isTalentId(talentId)) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  const found = await deps.catalog.getForGeneration(talentId);
  if (!found) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  return { talentId, ...found };
}

/** `GET /admin/talent/{id}/trainings`: the model's state and every training, newest first. */
export async function listTrainings(deps: AdminTrainingDeps, talentId: string | undefined): Promise<AdminTrainingsResponse> {
  const { talentId: id } = await talentOf(deps, talentId);
  const [model, trainings] = await Promise.all([deps.store.getModel(id), deps.store.listTrainings(id)]);
  return adminTrainingsView(id, model, trainings, deps.sampleUrl);
}

