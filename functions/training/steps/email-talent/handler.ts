import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { idempotency } from '../../../shared/idempotency';
import { foundingStore } from '../../../founding';
import { TrainingInput, TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';
import { emailTalent } from './service';

const config = loadConfig(EmailConfig.extend(TrainingTableConfig.shape).extend({ APPLICATIONS_TABLE: z.string().min(1), IDEMPOTENCY_TABLE: z.string().min(1) }));

/** Workflow step EmailTalent: `{ trainingId }` -> `{ sent }`. */
export async function handler(event: unknown, context?: Context) {
  const doc = documentClient();
  const { trainingId } = TrainingInput.parse(event);
  return emailTalent(
    {
      store: trainingStore(doc, config.TRAINING_TABLE),
      founding: foundingStore(doc, config.APPLICATIONS_TABLE),
      send: emailSender(config),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
      siteUrl: config.SITE_URL,
    },
    trainingId,
  );
}
