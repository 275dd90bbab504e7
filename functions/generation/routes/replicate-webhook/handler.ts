import * as z from 'zod';
import { replicateFromEnv } from '../../../shared/replicate';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { rateLimiter } from '../../../shared/rate-limit';
import { resumeTask } from '../../../shared/workflows';
import { generationStore } from '../../store';
import { handleReplicateWebhook } from './service';

const config = loadConfig(
  z.object({ GENERATIONS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1), IDEMPOTENCY_TABLE: z.string().min(1) }),
);

/** `POST /webhooks/replicate` (public; Replicate signs every delivery). */
export const handler = httpHandler(async (event, context) => {
  const doc = documentClient();
  return handleReplicateWebhook(
    {
      store: generationStore(doc, config.GENERATIONS_TABLE),
      secret: async () => (await replicateFromEnv()).webhookSecret(),
      resume: resumeTask,
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
      now: () => new Date(),
    },
    event,
  );
});
