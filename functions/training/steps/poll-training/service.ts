import { TrainingNotFound } from '../../errors';
import { outcomeOf, type TrainingOutcome } from '../../outcome';
import { isFinalStatus, type ReplicateApi } from '../../../shared/replicate';
import type { TrainingStore } from '../../store';

export interface PollTrainingDeps {
  store: Pick<TrainingStore, 'getTraining' | 'recordReplicateStatus'>;
  replicate: () => Promise<Pick<ReplicateApi, 'getTraining'>>;
  now: () => Date;
}

/**
 * Step PollTraining (no completed webhook came in time): the final status a late webhook stored,
 * or the training as Replicate has it now, recorded on ours.
 */
export async function pollTraining(deps: PollTrainingDeps, trainingId: string): Promise<TrainingOutcome> {
  const training = await deps.store.getTraining(trainingId);
  if (!training?.replicateTrainingId) throw new TrainingNotFound(trainingId);
  if (isFinalStatus(training.replicateStatus)) return outcomeOf({ status: training.replicateStatus, error: training.replicateError });
  const now = await (await deps.replicate()).getTraining(training.replicateTrainingId);
  await deps.store.recordReplicateStatus(trainingId, now, deps.now().toISOString());
  return outcomeOf(now);
}
