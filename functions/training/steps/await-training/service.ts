import { log } from '../../../shared/log';
import { TrainingNotFound } from '../../errors';
import { outcomeOf, type TrainingOutcome } from '../../outcome';
import { isFinalStatus } from '../../../shared/replicate';
import type { TrainingStore } from '../../store';

export interface AwaitTrainingDeps {
  store: Pick<TrainingStore, 'getTraining' | 'storeTaskToken'>;
  /** SendTaskSuccess with the training's outcome. */
  resume: (taskToken: string, output: TrainingOutcome) => Promise<unknown>;
}

/**
 * Step AwaitTraining (`.waitForTaskToken`): stores the task token on the training, where the
 * completed webhook finds it and resumes the execution. When Replicate's final status is stored
 * already (the webhook came first, or between our read and our write), it resumes itself.
 */
export async function awaitTraining(deps: AwaitTrainingDeps, trainingId: string, taskToken: string): Promise<{ waiting: boolean }> {
  const training = await deps.store.getTraining(trainingId);
  if (!training) throw new TrainingNotFound(trainingId);
  if (!isFinalStatus(training.replicateStatus)) {
    if (await deps.store.storeTaskToken(trainingId, taskToken)) return { waiting: true };
  }
  const final = training.replicateStatus && isFinalStatus(training.replicateStatus) ? training : await deps.store.getTraining(trainingId);
  log.info('the completed webhook came first; resuming', { trainingId });
  await deps.resume(taskToken, outcomeOf({ status: final?.replicateStatus, error: final?.replicateError }));
  return { waiting: false };
}
