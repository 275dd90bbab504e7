import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { TrainingInput, TrainingTableConfig } from '../../config';
import { replicateFromEnv } from '../../../shared/replicate';
import { trainingStore } from '../../store';
import { pollTraining } from './service';

const config = loadConfig(TrainingTableConfig);

/** Workflow step PollTraining: `{ trainingId }` -> `{ status, error }`. */
export async function handler(event: unknown) {
  const { trainingId } = TrainingInput.parse(event);
  return pollTraining({ store: trainingStore(documentClient(), config.TRAINING_TABLE), replicate: replicateFromEnv, now: () => new Date() }, trainingId);
}
