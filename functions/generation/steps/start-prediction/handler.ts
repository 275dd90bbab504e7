import * as z from 'zod';
import { replicateFromEnv } from '../../../shared/replicate';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { generationStore } from '../../store';
import { talentStore } from '../../../catalog';
import { GenerationInput, TablesConfig } from '../../input';
import { startPrediction } from './service';

const config = loadConfig(TablesConfig.extend({ TALENT_TABLE: z.string().min(1), WEBHOOK_URL: z.url() }));

/** Workflow step StartPrediction: `{ generationId }` -> `{ predictionId }`. */
export async function handler(event: unknown) {
  const { generationId } = GenerationInput.parse(event);
  const doc = documentClient();
  return startPrediction(
    {
      store: generationStore(doc, config.GENERATIONS_TABLE),
      talent: talentStore(doc, config.TALENT_TABLE),
      replicate: replicateFromEnv,
      webhookUrl: config.WEBHOOK_URL,
      now: () => new Date(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
    generationId,
  );
}
