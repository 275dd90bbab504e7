import { log } from '../../../shared/log';
import { LikenessRemoved, TrainingNotFound } from '../../errors';
import type { ReplicateApi } from '../../../shared/replicate';
import type { TrainingStore } from '../../store';

export interface CreateModelDeps {
  store: Pick<TrainingStore, 'getTraining' | 'getModel'>;
  replicate: () => Promise<Pick<ReplicateApi, 'createModel'>>;
  /** The destination models' hardware (stage setting). */
  hardware: string;
}

/**
 * Step CreateModel: the talent's private destination model on Replicate, under the stage's
 * owner, named from the talent id through a hash (functions/training/keys.ts). Idempotent:
 * Replicate answers 409 for a model that exists, which is this one's.
 */
export async function createModel(deps: CreateModelDeps, trainingId: string): Promise<{ model: 'created' | 'exists' }> {
  const training = await deps.store.getTraining(trainingId);
  if (!training) throw new TrainingNotFound(trainingId);
  const model = await deps.store.getModel(training.talentId);
  if (!model) throw new TrainingNotFound(trainingId);
  if (model.removedAt) throw new LikenessRemoved(training.talentId);
  const [owner, name] = model.replicateModel.split('/');
  const result = await (await deps.replicate()).createModel({
    owner,
    name,
    hardware: deps.hardware,
    description: 'A private likeness model of one Humanly talent, trained from their own photos with their consent.',
  });
  log.info('destination model ready', { trainingId, model: result });
  return { model: result };
}
