import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { TrainingInput, TrainingTableConfig } from '../../config';
import { replicateFromEnv } from '../../../shared/replicate';
import { trainingStore } from '../../store';
import { createModel } from './service';

const config = loadConfig(TrainingTableConfig.extend({ TRAINING_HARDWARE: z.string().min(1) }));

/** Workflow step CreateModel: `{ trainingId }` -> `{ model: 'created' | 'exists' }`. */
export async function handler(event: unknown) {
  const { trainingId } = TrainingInput.parse(event);
  return createModel({ store: trainingStore(documentClient(), config.TRAINING_TABLE), replicate: replicateFromEnv, hardware: config.TRAINING_HARDWARE }, trainingId);
}
