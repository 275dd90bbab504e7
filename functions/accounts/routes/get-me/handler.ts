import { AccountTables, accountStores } from '../../caller-stores';
import { requireAccount } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { creditLedger } from '../../credits';
import { getMe } from './service';

const config = loadConfig(AccountTables);

/** `GET /me` (any client or talent): the signed-in person's account. */
export const handler = httpHandler(async (event) => {
  const caller = requireAccount(event);
  const doc = documentClient();
  const me = await getMe(
    { ...accountStores(doc, config), ledger: creditLedger(doc, config.ACCOUNTS_TABLE) },
    caller,
  );
  return json(200, me);
});
