import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig, positiveIntFromEnv } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { foundingStore } from '../../../founding';
import { TrainingInput, TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';
import { buildTrainingSet } from './service';

const config = loadConfig(
  TrainingTableConfig.extend({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    TRAINING_BUCKET: z.string().min(1),
    TRAINING_IMAGE_SIZE: positiveIntFromEnv,
  }),
);

/** Workflow step BuildTrainingSet: `{ trainingId }` -> `{ imageCount }`. */
export async function handler(event: unknown) {
  const doc = documentClient();
  const { trainingId } = TrainingInput.parse(event);
  return buildTrainingSet(
    {
      store: trainingStore(doc, config.TRAINING_TABLE),
      founding: foundingStore(doc, config.APPLICATIONS_TABLE),
      photos: s3Bucket(config.PHOTOS_BUCKET),
      sets: s3Bucket(config.TRAINING_BUCKET),
      imageSize: config.TRAINING_IMAGE_SIZE,
      now: () => new Date(),
    },
    trainingId,
  );
}
