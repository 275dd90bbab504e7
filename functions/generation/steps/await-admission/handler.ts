import * as z from 'zod';
import { ADMISSION_MAX_WAIT_SECONDS } from '../../../../events/generation-values';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { generationStore } from '../../store';
import { GenerationInput, TablesConfig } from '../../input';
import { awaitAdmission } from './service';

const config = loadConfig(TablesConfig.extend({ REPLICATE_CREATIONS_PER_MINUTE: z.coerce.number().int().min(3) }));

/** Workflow step AwaitAdmission: `{ generationId }` -> `{ admitted }`. */
export async function handler(event: unknown) {
  const { generationId } = GenerationInput.parse(event);
  return awaitAdmission(
    {
      store: generationStore(documentClient(), config.GENERATIONS_TABLE),
      now: () => new Date(),
      creationsPerMinute: config.REPLICATE_CREATIONS_PER_MINUTE,
      maxWaitMs: ADMISSION_MAX_WAIT_SECONDS * 1000,
    },
    generationId,
  );
}
