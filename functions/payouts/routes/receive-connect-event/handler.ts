import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { emailSender } from '../../../shared/email';
import { httpHandler } from '../../../shared/http';
import { signingSecretFromEnv } from '../../../shared/stripe';
import { payAwaiting } from '../../run';
import { PayoutRunConfig, payoutDeps, verifiedNameOf } from '../../wiring';
import { receiveConnectEvent } from './service';

const config = loadConfig(PayoutRunConfig.extend({ STRIPE_CONNECT_WEBHOOK_SECRET_SECRET: z.string().min(1) }));
const send = emailSender(config);

/** `POST /webhooks/stripe-connect` (signed by Stripe): applies each verified Connect event once. */
export const handler = httpHandler(async (event, context) => {
  const pay = await payoutDeps(documentClient(), config, send, context);
  return receiveConnectEvent(
    {
      stripe: pay.stripe,
      secret: () => signingSecretFromEnv('STRIPE_CONNECT_WEBHOOK_SECRET_SECRET'),
      store: pay.store,
      statements: pay.statements,
      payAwaiting: async (talentId) => void (await payAwaiting(pay, talentId)),
      send,
      once: pay.once,
      siteUrl: config.SITE_URL,
      now: pay.now,
      verifiedName: verifiedNameOf(documentClient(), config),
    },
    event,
  );
});
