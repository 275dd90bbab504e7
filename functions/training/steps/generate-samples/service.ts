import { createHash } from 'node:crypto';
import { SAMPLE_PROMPTS } from '../../../../events/training-values';
import { log } from '../../../shared/log';
import type { Bucket } from '../../../shared/s3';
import { TrainingNotFound } from '../../errors';
import { sampleKey } from '../../keys';
import { firstOutput, isFinalStatus, type Prediction, type ReplicateApi } from '../../../shared/replicate';
import type { SampleRecord, TrainingStore } from '../../store';

export interface GenerateSamplesDeps {
  store: Pick<TrainingStore, 'getTraining' | 'getModel' | 'updateTraining' | 'moveTraining'>;
  replicate: () => Promise<Pick<ReplicateApi, 'createPrediction' | 'getPrediction' | 'fetchOutput'>>;
  /** The training bucket: samples are private, reached by short-lived URLs only. */
  samples: Pick<Bucket, 'write'>;
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
  /** How long the step waits for the predictions in all (inside the function's time-out). */
  waitMs: number;
}

/** A sample's prediction that did not give an image: the step is retried, with a new prediction for it. */
class SampleFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SampleFailed';
  }
}

/** The seed of a sample: fixed per training and prompt, so a repeated create asks for the same image. */
const seedOf = (trainingId: string, index: number) => createHash('sha256').update(`${trainingId}:${index}`).digest().readUInt32BE(0) & 0x7fffffff;

/** The pauses between reads of the predictions: short at first (a quick model is seen at once), then a second apart. */
const pollMs = (read: number) => Math.min(250 * 2 ** read, 1_000);

/**
 * Step GenerateSamples: the sample gallery of the new version, from the fixed prompts
 * (events/training-values.ts) after the talent's trigger word, stored privately in the training
 * bucket. These are previews for the talent's decision: they go through no credits and no
 * license, and nobody but the talent and the console sees them. Each sample's prediction is
 * recorded as it is made, so a retried step waits for it instead of making another; a sample
 * already stored is not made again. Then the training is ready for review.
 */
export async function generateSamples(deps: GenerateSamplesDeps, trainingId: string): Promise<{ samples: number }> {
  const training = await deps.store.getTraining(trainingId);
  if (!training?.version) throw new TrainingNotFound(trainingId);
  const model = await deps.store.getModel(training.talentId);
  if (!model) throw new TrainingNotFound(trainingId);
  const api = await deps.replicate();
  const samples: SampleRecord[] =
    training.samples ?? SAMPLE_PROMPTS.map((prompt, index) => ({ index, prompt: `${model.triggerWord} ${prompt}` }));
  const save = () => deps.store.updateTraining(trainingId, { samples, updatedAt: deps.now().toISOString() });

  for (const sample of samples.filter((s) => !s.key && !s.predictionId)) {
    const created = await api.createPrediction({
      version: training.version,
      input: { prompt: sample.prompt, num_outputs: 1, aspect_ratio: '1:1', output_format: 'png', seed: seedOf(trainingId, sample.index) },
      // Replicate holds its answer until the prediction ends, for a few seconds at most.
      waitSeconds: 10,
    });
    sample.predictionId = created.id;
    await save();
  }

  const deadline = Date.now() + deps.waitMs;
  for (let read = 0; ; read++) {
    const waiting = samples.filter((s) => !s.key);
    if (waiting.length === 0) break;
    const answers = await Promise.all(waiting.map(async (s) => ({ sample: s, prediction: await api.getPrediction(s.predictionId!) })));
    let failed = 0;
    for (const { sample, prediction } of answers.filter((a) => isFinalStatus(a.prediction.status))) {
      if (!(await store(deps, api, trainingId, sample, prediction))) failed++;
    }
    await save();
    if (failed > 0) throw new SampleFailed(`${failed} sample prediction(s) gave no image`);
    if (samples.every((s) => s.key)) break;
    if (Date.now() > deadline) throw new SampleFailed('the sample predictions did not finish in time');
    await deps.sleep(pollMs(read));
  }

  const at = deps.now().toISOString();
  await deps.store.moveTraining(trainingId, ['sampling'], { samples, status: 'ready-for-review', readyAt: at, updatedAt: at });
  log.info('samples ready for review', { trainingId, samples: samples.length });
  return { samples: samples.length };
}

/** Stores a finished sample's image; false (its prediction forgotten, made again on the step's retry) when it gave none. */
async function store(deps: GenerateSamplesDeps, api: Pick<ReplicateApi, 'fetchOutput'>, trainingId: string, sample: SampleRecord, prediction: Prediction): Promise<boolean> {
  const output = firstOutput(prediction);
  if (prediction.status !== 'succeeded' || !output) {
    log.warn('a sample prediction gave no image', { trainingId, sample: sample.index, status: prediction.status });
    sample.predictionId = undefined;
    return false;
  }
  const key = sampleKey(trainingId, sample.index);
  await deps.samples.write(key, await api.fetchOutput(output), 'image/png');
  sample.key = key;
  return true;
}
