import type { GenerationStore } from '../../store';
import { log } from '../../../shared/log';
import { generationOf, outcomeOf, type PredictionOutcome } from '../../prediction';

export interface AwaitPredictionDeps {
  store: GenerationStore;
  /** SendTaskSuccess with the prediction's outcome. */
  resume: (taskToken: string, output: PredictionOutcome) => Promise<unknown>;
  now: () => Date;
}

/**
 * Step AwaitPrediction (`.waitForTaskToken`): stores the task token on the generation, where the
 * completed webhook finds it and resumes the execution. When the final prediction is stored
 * already (the webhook came first, or between our read and our write), it resumes the execution
 * itself.
 */
export async function awaitPrediction(deps: AwaitPredictionDeps, generationId: string, taskToken: string): Promise<{ waiting: boolean }> {
  const generation = await generationOf(deps.store, generationId);
  if (!generation.prediction && (await deps.store.storeTaskToken(generationId, taskToken, deps.now().toISOString()))) {
    await deps.store.recordStep(generationId, { step: 'AwaitPrediction', at: deps.now().toISOString(), detail: 'waiting for the completed webhook', once: true });
    return { waiting: true };
  }
  const prediction = generation.prediction ?? (await generationOf(deps.store, generationId)).prediction;
  if (!prediction) throw new Error('The final prediction was stored but cannot be read');
  log.info('the completed webhook came first; resuming', { generationId });
  await deps.resume(taskToken, outcomeOf(prediction));
  return { waiting: false };
}
