import * as z from 'zod';
import { accountStore, creditLedger } from '../../../accounts';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { httpHandler } from '../../../shared/http';
import { idempotency } from '../../../shared/idempotency';
import { chargeEventDeps } from '../../refunds';
import { paymentsStore } from '../../store';
import { StripePricesSetting, stripeFromEnv, webhookSecretFromEnv } from '../../stripe';
import { receiveStripeEvent } from './service';

const config = loadConfig(
  EmailConfig.extend({
    PAYMENTS_TABLE: z.string().min(1),
    ACCOUNTS_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    STRIPE_PRICES: StripePricesSetting,
    /** Where `Payments.SpentCreditsRefunded` goes (the royalties wing takes back what refunded images earned). */
    EVENT_BUS_NAME: z.string().min(1),
  }),
);
const send = emailSender(config);

/** `POST /webhooks/stripe` (signed by Stripe): applies each verified event once. */
export const handler = httpHandler(async (event, context) => {
  const doc = documentClient();
  const stripe = await stripeFromEnv();
  return receiveStripeEvent(
    {
      stripe,
      secret: webhookSecretFromEnv,
      prices: config.STRIPE_PRICES,
      store: paymentsStore(doc, config.PAYMENTS_TABLE),
      accounts: accountStore(doc, config.ACCOUNTS_TABLE),
      ledger: creditLedger(doc, config.ACCOUNTS_TABLE),
      send,
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
      siteUrl: config.SITE_URL,
      charges: chargeEventDeps(doc, config, stripe),
    },
    event,
  );
});
