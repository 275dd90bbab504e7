import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { TrainerConfig, TrainingInput, TrainingTableConfig } from '../../config';
import { replicateFromEnv } from '../../../shared/replicate';
import { trainingStore } from '../../store';
import { startTraining } from './service';

const config = loadConfig(TrainingTableConfig.extend(TrainerConfig.shape).extend({ TRAINING_BUCKET: z.string().min(1), WEBHOOK_URL: z.url() }));

/** Workflow step StartTraining: `{ trainingId }` -> `{ replicateTrainingId }`. */
export async function handler(event: unknown) {
  const { trainingId } = TrainingInput.parse(event);
  return startTraining(
    {
      store: trainingStore(documentClient(), config.TRAINING_TABLE),
      replicate: replicateFromEnv,
      sets: s3Bucket(config.TRAINING_BUCKET),
      config,
      webhookUrl: config.WEBHOOK_URL,
      now: () => new Date(),
    },
    trainingId,
  );
}
