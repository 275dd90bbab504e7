import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../shared/clients';
import { loadConfig, positiveIntFromEnv } from '../shared/config';
import { idempotency } from '../shared/idempotency';
import { rateLimiter } from '../shared/rate-limit';
import { startExecution } from '../shared/workflows';
import { accountStore, creditLedger } from '../accounts';
import { generationStore } from './store';
import { failureBudget } from './failure-budget';
import { talentStore } from '../catalog';
import type { StartDeps } from './start';

const StartConfig = z.object({
  ACCOUNTS_TABLE: z.string().min(1),
  TALENT_TABLE: z.string().min(1),
  GENERATIONS_TABLE: z.string().min(1),
  RATE_LIMITS_TABLE: z.string().min(1),
  IDEMPOTENCY_TABLE: z.string().min(1),
  STATE_MACHINE_ARN: z.string().min(1),
  /** The stage's `modelFailuresPerDay` (decision 038). */
  MODEL_FAILURES_PER_DAY: positiveIntFromEnv,
});
const config = loadConfig(StartConfig);

/** What starting a generation needs, from the function's environment (both start routes share it). */
export function startDepsFromEnv(context?: Context): StartDeps {
  const doc = documentClient();
  return {
    accounts: accountStore(doc, config.ACCOUNTS_TABLE),
    ledger: creditLedger(doc, config.ACCOUNTS_TABLE),
    talent: talentStore(doc, config.TALENT_TABLE),
    generations: generationStore(doc, config.GENERATIONS_TABLE),
    modelFailures: failureBudget(doc, config.GENERATIONS_TABLE),
    modelFailuresPerDay: config.MODEL_FAILURES_PER_DAY,
    limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    once: idempotency(config.IDEMPOTENCY_TABLE, context),
    startWorkflow: (generationId) => startExecution(config.STATE_MACHINE_ARN, generationId, { generationId }),
  };
}
