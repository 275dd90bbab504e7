import * as z from 'zod';
import { LedgerQuery } from '../../../../events/accounts';
import { queryOf } from '../../../shared/admin-list';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { accountStore } from '../../store';
import { creditLedger } from '../../credits';
import { myLedger } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

/** `GET /me/ledger?limit=&cursor=` (clients): the credit ledger, newest first, one page. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const query = LedgerQuery.safeParse(queryOf(event));
  if (!query.success) throw validationErrorFrom(query.error);
  const doc = documentClient();
  return json(200, await myLedger({ accounts: accountStore(doc, config.ACCOUNTS_TABLE), ledger: creditLedger(doc, config.ACCOUNTS_TABLE) }, caller, query.data));
});
