import { trainingCostMicros } from '../../../../events/training-values';
import { log } from '../../../shared/log';
import { TrainerFailed, TrainingNotFound } from '../../errors';
import { parseVersionRef, type ReplicateApi } from '../../../shared/replicate';
import type { TrainingStore } from '../../store';

export interface RecordVersionDeps {
  store: Pick<TrainingStore, 'getTraining' | 'moveTraining'>;
  replicate: () => Promise<Pick<ReplicateApi, 'getTraining'>>;
  now: () => Date;
}

const seconds = (from?: string, to?: string) => {
  const ms = from && to ? Date.parse(to) - Date.parse(from) : NaN;
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 1000) : undefined;
};

/**
 * Step RecordVersion (the training succeeded): reads the training from Replicate, whose answer is
 * authoritative (a webhook only says it ended), and records the new version, when it ran, its
 * duration, its cost (`metrics.predict_time` times the hardware's price, events/training-values.ts)
 * and its logs' page. TrainerFailed when Replicate gives no version.
 */
export async function recordVersion(deps: RecordVersionDeps, trainingId: string): Promise<{ version: string }> {
  const training = await deps.store.getTraining(trainingId);
  if (!training?.replicateTrainingId) throw new TrainingNotFound(trainingId);
  const replicate = await (await deps.replicate()).getTraining(training.replicateTrainingId);
  if (replicate.status !== 'succeeded') throw new TrainerFailed(`the training ended ${replicate.status}`);
  const ref = parseVersionRef(replicate.version);
  if (!ref) throw new TrainerFailed('the training succeeded without a version');
  const hardware = training.settings?.hardware ?? '';
  const cost = replicate.predictTimeSeconds === undefined ? undefined : trainingCostMicros(replicate.predictTimeSeconds, hardware);
  const at = deps.now().toISOString();
  await deps.store.moveTraining(trainingId, ['training', 'sampling'], {
    version: ref.id,
    versionRef: replicate.version,
    replicateStatus: 'succeeded',
    startedAt: replicate.startedAt,
    completedAt: replicate.completedAt,
    durationSeconds: seconds(replicate.startedAt, replicate.completedAt),
    predictTimeSeconds: replicate.predictTimeSeconds,
    costMicros: cost,
    logsUrl: replicate.webUrl ?? `https://replicate.com/p/${replicate.id}`,
    status: 'sampling',
    taskToken: undefined,
    updatedAt: at,
  });
  log.info('trained version recorded', { trainingId, predictTimeSeconds: replicate.predictTimeSeconds, costMicros: cost });
  return { version: ref.id };
}
