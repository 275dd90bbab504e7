import type { PredictionApi } from '../../../shared/replicate';
import type { GenerationStore } from '../../store';
import { generationOf, isFinalPrediction, outcomeOf, storedPrediction, type PredictionOutcome } from '../../prediction';

export interface PollPredictionDeps {
  store: GenerationStore;
  replicate: () => Promise<PredictionApi>;
  now: () => Date;
}

/**
 * Step PollPrediction (the fallback when no completed webhook came in time): the final
 * prediction a late webhook stored, or Replicate's answer. A final one is stored on the
 * generation as the webhook would; a running one moves the status on to `processing`.
 */
export async function pollPrediction(deps: PollPredictionDeps, generationId: string): Promise<PredictionOutcome> {
  const generation = await generationOf(deps.store, generationId);
  if (generation.prediction) return outcomeOf(generation.prediction);
  if (!generation.predictionId) throw new Error('The generation has no prediction to poll');
  const prediction = await (await deps.replicate()).getPrediction(generation.predictionId);
  const at = deps.now().toISOString();
  if (isFinalPrediction(prediction.status)) {
    await deps.store.storeFinalPrediction(generationId, storedPrediction(prediction), at);
    await deps.store.recordStep(generationId, { step: 'PollPrediction', at, detail: `${prediction.status} (found by polling)`, once: true });
  } else if (prediction.status === 'processing' && generation.status === 'starting') {
    await deps.store.recordStep(generationId, { step: 'Processing', at, detail: 'found by polling', once: true }, { status: 'processing' }, { from: ['starting'] });
  }
  return outcomeOf(prediction);
}
