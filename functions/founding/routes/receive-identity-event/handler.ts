import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { s3Bucket } from '../../../shared/s3';
import { signingSecretFromEnv, stripeFromEnv } from '../../../shared/stripe';
import { resumeTask } from '../../../shared/workflows';
import { foundingStore } from '../../store';
import { receiveIdentityEvent } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    STRIPE_SECRET_KEY_SECRET: z.string().min(1),
    STRIPE_IDENTITY_WEBHOOK_SECRET_SECRET: z.string().min(1),
  }),
);

/** `POST /webhooks/stripe-identity` (signed by Stripe): applies each verified Stripe Identity event once. */
export const handler = httpHandler(async (event, context) =>
  receiveIdentityEvent(
    {
      stripe: await stripeFromEnv(),
      secret: () => signingSecretFromEnv('STRIPE_IDENTITY_WEBHOOK_SECRET_SECRET'),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      storage: s3Bucket(config.PHOTOS_BUCKET),
      resume: resumeTask,
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
    },
    event,
  ),
);
