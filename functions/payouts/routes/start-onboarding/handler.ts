import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { stripeFromEnv } from '../../../shared/stripe';
import { payoutStore } from '../../store';
import { startOnboarding } from './service';

const config = loadConfig(AccountTables.extend({ PAYOUTS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1), SITE_URL: z.url() }));

/** `POST /me/payouts/onboarding`: Stripe's hosted onboarding for the accepted talent's own account. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const body = event.body && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  const result = await startOnboarding(
    {
      ...accountStores(doc, config),
      stripe: await stripeFromEnv(),
      store: payoutStore(doc, config.PAYOUTS_TABLE),
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
      siteUrl: config.SITE_URL,
      now: () => new Date(),
    },
    caller,
    body,
  );
  return json(200, result);
});
