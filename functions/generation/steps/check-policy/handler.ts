import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { generationStore } from '../../store';
import { talentStore } from '../../../catalog';
import { GenerationInput, TablesConfig } from '../../input';
import { replicateIndustryClassifier } from '../../industry-classifier';
import { replicateFromEnv } from '../../../shared/replicate';
import { checkPolicy } from './service';

const config = loadConfig(
  TablesConfig.extend({
    TALENT_TABLE: z.string().min(1),
    // The stage's industryClassifierModel (decision 039); unset where the stage turned it off.
    INDUSTRY_CLASSIFIER_MODEL: z
      .string()
      .regex(/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/, { error: "INDUSTRY_CLASSIFIER_MODEL must be a Replicate model 'owner/name'" })
      .optional(),
  }),
);
const classifier = config.INDUSTRY_CLASSIFIER_MODEL ? replicateIndustryClassifier(replicateFromEnv, { model: config.INDUSTRY_CLASSIFIER_MODEL }) : undefined;

/** Workflow step CheckPolicy: `{ generationId }` -> `{ allowed: true }`, or the error PolicyRefused (or IndustryCheckUnavailable). */
export async function handler(event: unknown) {
  const { generationId } = GenerationInput.parse(event);
  const doc = documentClient();
  return checkPolicy(
    { store: generationStore(doc, config.GENERATIONS_TABLE), talent: talentStore(doc, config.TALENT_TABLE), now: () => new Date(), classifier },
    generationId,
  );
}
