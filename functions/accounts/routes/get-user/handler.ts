import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { accountStore } from '../../store';
import { accountIdOf } from '../../users';
import { getUser } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

/** `GET /admin/users/{id}`: one account with its ledger and audit trail. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const id = accountIdOf(event);
  return json(200, await getUser(accountStore(documentClient(), config.ACCOUNTS_TABLE), id));
});
