import * as z from 'zod';
import { accountStore } from '../../../accounts';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { NotFoundError } from '../../../shared/errors';
import { httpHandler, json } from '../../../shared/http';
import { paymentsStore } from '../../store';
import { stripeFromEnv } from '../../stripe';
import { ACCOUNT_NOT_FOUND_MESSAGE, userBilling } from './service';

const config = loadConfig(z.object({ PAYMENTS_TABLE: z.string().min(1), ACCOUNTS_TABLE: z.string().min(1) }));
const ACCOUNT_ID = /^[A-Za-z0-9-]{1,64}$/;

/** `GET /admin/users/{id}/billing`: a client's subscription, payments and refunds. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  if (!ACCOUNT_ID.test(id)) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
  const doc = documentClient();
  const billing = await userBilling(
    { accounts: accountStore(doc, config.ACCOUNTS_TABLE), payments: paymentsStore(doc, config.PAYMENTS_TABLE), stripe: await stripeFromEnv() },
    id,
  );
  return json(200, billing);
});
