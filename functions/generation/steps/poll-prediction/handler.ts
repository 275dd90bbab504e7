import { replicateFromEnv } from '../../../shared/replicate';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { generationStore } from '../../store';
import { GenerationInput, TablesConfig } from '../../input';
import { pollPrediction } from './service';

const config = loadConfig(TablesConfig);

/** Workflow step PollPrediction: `{ generationId }` -> `{ status, error }`. */
export async function handler(event: unknown) {
  const { generationId } = GenerationInput.parse(event);
  return pollPrediction({ store: generationStore(documentClient(), config.GENERATIONS_TABLE), replicate: replicateFromEnv, now: () => new Date() }, generationId);
}
