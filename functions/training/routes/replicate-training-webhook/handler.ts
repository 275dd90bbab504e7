import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { rateLimiter } from '../../../shared/rate-limit';
import { resumeTask } from '../../../shared/workflows';
import * as z from 'zod';
import { TrainingTableConfig } from '../../config';
import { replicateFromEnv } from '../../../shared/replicate';
import { trainingStore } from '../../store';
import { handleTrainingWebhook } from './service';

const config = loadConfig(TrainingTableConfig.extend({ RATE_LIMITS_TABLE: z.string().min(1), IDEMPOTENCY_TABLE: z.string().min(1) }));

/** `POST /webhooks/replicate-training` (public; Replicate signs every delivery). */
export const handler = httpHandler(async (event, context) => {
  const doc = documentClient();
  return handleTrainingWebhook(
    {
      store: trainingStore(doc, config.TRAINING_TABLE),
      secret: async () => (await replicateFromEnv()).webhookSecret(),
      resume: resumeTask,
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
      now: () => new Date(),
    },
    event,
  );
});
