import * as z from 'zod';
import { accountStore, currentAccount } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { paymentsStore } from '../../store';
import { stripeFromEnv } from '../../stripe';
import { createPortalSession } from './service';

const config = loadConfig(
  z.object({ ACCOUNTS_TABLE: z.string().min(1), PAYMENTS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1), SITE_URL: z.url() }),
);

/** `POST /me/billing-portal-sessions` (clients): 201 with the billing portal's address. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const doc = documentClient();
  const accounts = accountStore(doc, config.ACCOUNTS_TABLE);
  const answer = await createPortalSession(
    {
      account: (c) => currentAccount(accounts, c),
      stripe: await stripeFromEnv(),
      store: paymentsStore(doc, config.PAYMENTS_TABLE),
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
      siteUrl: config.SITE_URL.replace(/\/+$/, ''),
    },
    caller,
  );
  return json(201, answer);
});
