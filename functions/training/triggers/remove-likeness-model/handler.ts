import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { LikenessRemovedV1 } from '../../../../events/likeness-events';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { TrainingTableConfig } from '../../config';
import { replicateFromEnv } from '../../../shared/replicate';
import { trainingStore } from '../../store';
import { removeRemovedLikenessModel } from './service';

const config = loadConfig(TrainingTableConfig.extend({ TRAINING_BUCKET: z.string().min(1) }));

/** Rule OnLikenessRemoved (`Likeness.Removed`): deletes the talent's model versions on Replicate and their training files. */
export async function handler(event: EventBridgeEvent<string, unknown>) {
  return removeRemovedLikenessModel(
    { store: trainingStore(documentClient(), config.TRAINING_TABLE), replicate: replicateFromEnv, files: s3Bucket(config.TRAINING_BUCKET), now: () => new Date() },
    LikenessRemovedV1.parse(event.detail),
  );
}
