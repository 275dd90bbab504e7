import * as z from 'zod';
import { CreateCheckoutRequest } from '../../../../events/payments';
import { accountStore, currentAccount } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { paymentsStore } from '../../store';
import { StripePricesSetting, stripeFromEnv } from '../../stripe';
import { createCheckout } from './service';

const config = loadConfig(
  z.object({
    ACCOUNTS_TABLE: z.string().min(1),
    PAYMENTS_TABLE: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
    STRIPE_PRICES: StripePricesSetting,
    SITE_URL: z.url(),
  }),
);

/** `POST /me/checkout-sessions` (clients): 201 with Stripe Checkout's address. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const request = parseJsonBody(event, CreateCheckoutRequest);
  const doc = documentClient();
  const accounts = accountStore(doc, config.ACCOUNTS_TABLE);
  const answer = await createCheckout(
    {
      account: (c) => currentAccount(accounts, c),
      stripe: await stripeFromEnv(),
      prices: config.STRIPE_PRICES,
      store: paymentsStore(doc, config.PAYMENTS_TABLE),
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
      siteUrl: config.SITE_URL.replace(/\/+$/, ''),
    },
    caller,
    request,
  );
  return json(201, answer);
});
