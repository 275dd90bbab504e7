import * as z from 'zod';
import { ADMISSION_MAX_WAIT_SECONDS } from '../../../../events/generation-values';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { talentStore } from '../../../catalog';
import { generationStore } from '../../store';
import { GenerationInput, TablesConfig } from '../../input';
import { awaitAdmission } from './service';

const config = loadConfig(TablesConfig.extend({ TALENT_TABLE: z.string().min(1), REPLICATE_CREATIONS_PER_MINUTE: z.coerce.number().int().min(3) }));

/** Workflow step AwaitAdmission: `{ generationId }` -> `{ admitted }`. */
export async function handler(event: unknown) {
  const { generationId } = GenerationInput.parse(event);
  const doc = documentClient();
  const talent = talentStore(doc, config.TALENT_TABLE);
  return awaitAdmission(
    {
      store: generationStore(doc, config.GENERATIONS_TABLE),
      // CheckPolicy asks the industry classifier (a prediction) for a talent who excludes industries.
      creationsOf: async ({ talentId }) => (((await talent.getForGeneration(talentId))?.controls.excludedIndustries?.length ?? 0) > 0 ? 2 : 1),
      now: () => new Date(),
      creationsPerMinute: config.REPLICATE_CREATIONS_PER_MINUTE,
      maxWaitMs: ADMISSION_MAX_WAIT_SECONDS * 1000,
    },
    generationId,
  );
}
