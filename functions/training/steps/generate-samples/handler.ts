import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { TrainingInput, TrainingTableConfig } from '../../config';
import { replicateFromEnv } from '../../../shared/replicate';
import { trainingStore } from '../../store';
import { generateSamples } from './service';

const config = loadConfig(TrainingTableConfig.extend({ TRAINING_BUCKET: z.string().min(1) }));

/** Workflow step GenerateSamples: `{ trainingId }` -> `{ samples }`. */
export async function handler(event: unknown) {
  const { trainingId } = TrainingInput.parse(event);
  return generateSamples(
    {
      store: trainingStore(documentClient(), config.TRAINING_TABLE),
      replicate: replicateFromEnv,
      samples: s3Bucket(config.TRAINING_BUCKET),
      now: () => new Date(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      // The function has 5 minutes: the predictions get 4 of them.
      waitMs: 4 * 60_000,
    },
    trainingId,
  );
}
