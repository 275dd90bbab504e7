import * as z from 'zod';
import { royaltyStore } from '../../../royalties';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { httpHandler } from '../../../shared/http';
import { signingSecretFromEnv, stripeFromEnv } from '../../../shared/stripe';
import { payoutStore } from '../../store';
import { receiveConnectEvent } from './service';

const config = loadConfig(EmailConfig.extend({ PAYOUTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), STRIPE_CONNECT_WEBHOOK_SECRET_SECRET: z.string().min(1) }));
const send = emailSender(config);

/** `POST /webhooks/stripe-connect` (signed by Stripe): applies each verified Connect event once. */
export const handler = httpHandler(async (event) => {
  const doc = documentClient();
  return receiveConnectEvent(
    {
      stripe: await stripeFromEnv(),
      secret: () => signingSecretFromEnv('STRIPE_CONNECT_WEBHOOK_SECRET_SECRET'),
      store: payoutStore(doc, config.PAYOUTS_TABLE),
      statements: royaltyStore(doc, config.GENERATIONS_TABLE),
      send,
      siteUrl: config.SITE_URL,
      now: () => new Date(),
    },
    event,
  );
});
