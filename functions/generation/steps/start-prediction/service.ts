import { ASPECT_RATIO, PREDICTION_DEADLINE_SECONDS, TALENT_NOT_CONFIGURED_MESSAGE, styledPrompt } from '../../../../events/generation-values';
import type { ReplicateApi } from '../../replicate';
import type { GenerationStore } from '../../store';
import type { TalentStore } from '../../../catalog';
import { PolicyRefused } from '../../errors';
import { generationOf, isFinalPrediction, storedPrediction } from '../../prediction';

export interface StartPredictionDeps {
  store: GenerationStore;
  talent: Pick<TalentStore, 'getForGeneration'>;
  replicate: () => Promise<ReplicateApi>;
  /** `<API endpoint>/webhooks/replicate`: the generation's id is added as `?generation=`. */
  webhookUrl: string;
  now: () => Date;
}

/**
 * Step StartPrediction: creates the prediction with the talent's model (or version) and trigger
 * word, our webhook (start and completed events) and a deadline after which Replicate cancels
 * it, then records its id and status `starting`. A retried step that finds a prediction
 * recorded starts none.
 */
export async function startPrediction(deps: StartPredictionDeps, generationId: string): Promise<{ predictionId: string }> {
  const generation = await generationOf(deps.store, generationId);
  if (generation.predictionId) return { predictionId: generation.predictionId };
  const config = (await deps.talent.getForGeneration(generation.talentId))?.controls.generation;
  if (!config) throw new PolicyRefused(TALENT_NOT_CONFIGURED_MESSAGE);

  const replicate = await deps.replicate();
  const prediction = await replicate.createPrediction({
    ...(config.model ? { model: config.model } : { version: config.version }),
    input: {
      prompt: `${config.triggerWord} ${styledPrompt(generation.prompt, generation.style)}`,
      num_outputs: generation.count,
      aspect_ratio: ASPECT_RATIO,
      output_format: 'png',
    },
    webhook: `${deps.webhookUrl}?generation=${encodeURIComponent(generationId)}`,
    webhookEventsFilter: ['start', 'completed'],
    cancelAfterSeconds: PREDICTION_DEADLINE_SECONDS,
  });
  const at = deps.now().toISOString();
  await deps.store.recordStep(
    generationId,
    { step: 'StartPrediction', at, detail: `prediction ${prediction.id}`, once: true },
    { predictionId: prediction.id, status: 'starting' },
    // The completed webhook may have come first and recorded the id; a start webhook moves on from starting.
    { expression: '(attribute_not_exists(predictionId) OR predictionId = :p) AND #st = :queued', names: { '#st': 'status' }, values: { ':p': prediction.id, ':queued': 'queued' } },
  );
  // A prediction can answer final at once (a model that refuses the input).
  if (isFinalPrediction(prediction.status)) await deps.store.storeFinalPrediction(generationId, storedPrediction(prediction), at);
  return { predictionId: prediction.id };
}
