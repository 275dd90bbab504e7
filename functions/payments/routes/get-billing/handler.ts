import * as z from 'zod';
import { accountStore, currentAccount } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { paymentsStore } from '../../store';
import { getBilling } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), PAYMENTS_TABLE: z.string().min(1) }));

/** `GET /me/billing` (clients): plan, subscription and whether the billing portal can open. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const doc = documentClient();
  const accounts = accountStore(doc, config.ACCOUNTS_TABLE);
  return json(200, await getBilling({ account: (c) => currentAccount(accounts, c), store: paymentsStore(doc, config.PAYMENTS_TABLE) }, caller));
});
