import * as z from 'zod';
import { AdminUserQuery } from '../../../../events/accounts';
import { queryOf } from '../../../shared/admin-list';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { accountStore } from '../../store';
import { listUsers } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

/** `GET /admin/users?q=&role=&plan=&planRequest=pending` (admins): accounts for the console, a page at a time. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const query = AdminUserQuery.safeParse(queryOf(event));
  if (!query.success) throw validationErrorFrom(query.error);
  return json(200, await listUsers(accountStore(documentClient(), config.ACCOUNTS_TABLE), query.data));
});
