// Removal and erasure of a talent's likeness model (docs/training.md "Removal and erasure"): its
// versions deleted on Replicate, its training sets and samples deleted from the training bucket,
// any training still running canceled. For the likeness removal (the catalog's removal, carried
// out by the likeness schedule) and the console's erasure to call.
import { log } from '../shared/log';
import type { Bucket } from '../shared/s3';
import { RUNNING_TRAINING_STATUSES } from '../../events/training-values';
import { samplesPrefix } from './keys';
import { isFinalStatus, type ReplicateApi } from '../shared/replicate';
import type { TrainingStore } from './store';

export interface LikenessModelRemovalDeps {
  store: Pick<TrainingStore, 'getModel' | 'listTrainings' | 'updateTraining' | 'updateModel' | 'deleteAll'>;
  replicate: () => Promise<Pick<ReplicateApi, 'deleteVersion' | 'cancelTraining'>>;
  /** The training bucket. */
  files: Pick<Bucket, 'list' | 'remove'>;
  now: () => Date;
}

export interface LikenessModelRemoval {
  /** Versions deleted on Replicate (those already gone are not counted). */
  versions: number;
  /** Training sets and sample images deleted. */
  files: number;
  /** Records deleted (erasure only). */
  records: number;
}

/**
 * Deletes everything trained from the talent's photos: each version on Replicate (a version
 * already gone is fine), the training sets and the samples; a running training is canceled
 * first. For a removal (`forget: false`) the records stay, marked deleted, for the console's
 * history and accounting, and the model is marked removed so nothing trains or goes live again;
 * an erasure (`forget: true`) deletes them too. Safe to run again: what is gone is skipped.
 */
export async function removeLikenessModel(deps: LikenessModelRemovalDeps, talentId: string, options: { forget: boolean }): Promise<LikenessModelRemoval> {
  const model = await deps.store.getModel(talentId);
  if (!model) return { versions: 0, files: 0, records: 0 };
  const trainings = await deps.store.listTrainings(talentId);
  const api = await deps.replicate();
  const at = deps.now().toISOString();
  if (!options.forget) await deps.store.updateModel(talentId, { removedAt: model.removedAt ?? at, liveTrainingId: undefined, liveVersion: undefined, updatedAt: at });

  let versions = 0;
  let files = 0;
  for (const training of trainings) {
    if (training.replicateTrainingId && !isFinalStatus(training.replicateStatus) && RUNNING_TRAINING_STATUSES.includes(training.status)) {
      await api.cancelTraining(training.replicateTrainingId).catch((err: unknown) => log.error('could not cancel a training of a removed likeness', err, { trainingId: training.id }));
    }
    if (training.version && (await api.deleteVersion(model.replicateModel, training.version)) === 'deleted') versions++;
    const keys = [...(training.zipKey ? [training.zipKey] : []), ...(await deps.files.list(samplesPrefix(training.id)))];
    for (const key of keys) await deps.files.remove(key);
    files += keys.length;
    if (!options.forget && !training.deletedAt) await deps.store.updateTraining(training.id, { deletedAt: at });
  }
  const records = options.forget ? await deps.store.deleteAll(talentId, trainings.map((t) => t.id), model.applicationId) : 0;
  log.info('likeness model removed', { versions, files, records, forget: options.forget });
  return { versions, files, records };
}
