import * as z from 'zod';
import { replicateFromEnv } from '../../../shared/replicate';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { creditLedger } from '../../../accounts';
import { generationStore } from '../../store';
import { failureBudget } from '../../failure-budget';
import { GenerationInput, TablesConfig } from '../../input';
import { recordFailure } from './service';

const config = loadConfig(TablesConfig.extend({ ACCOUNTS_TABLE: z.string().min(1) }));

const Input = GenerationInput.extend({
  error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
  prediction: z.object({ status: z.string(), error: z.string().optional() }).optional(),
  timedOut: z.boolean().optional(),
});

/** Workflow steps RecordFailure, RecordPredictionFailure, RecordTimeout -> `{ recorded, code }` (the failure code). */
export async function handler(event: unknown) {
  const input = Input.parse(event);
  const doc = documentClient();
  return recordFailure(
    {
      store: generationStore(doc, config.GENERATIONS_TABLE),
      ledger: creditLedger(doc, config.ACCOUNTS_TABLE),
      replicate: replicateFromEnv,
      modelFailures: failureBudget(doc, config.GENERATIONS_TABLE),
      now: () => new Date(),
    },
    input,
  );
}
