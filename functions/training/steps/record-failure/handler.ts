import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { TrainingTableConfig } from '../../config';
import { replicateFromEnv } from '../../../shared/replicate';
import { trainingStore } from '../../store';
import { RecordFailureInput, recordFailure } from './service';

const config = loadConfig(TrainingTableConfig);

/** Workflow step RecordFailure: `{ trainingId | input, error? | training? | timedOut? }` -> `{ recorded, code }`. */
export async function handler(event: unknown) {
  return recordFailure({ store: trainingStore(documentClient(), config.TRAINING_TABLE), replicate: replicateFromEnv, now: () => new Date() }, RecordFailureInput.parse(event));
}
