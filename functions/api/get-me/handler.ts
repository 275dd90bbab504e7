import * as z from 'zod';
import { requireAccount } from '../../shared/auth';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { httpHandler, json } from '../../shared/http';
import { accountStore } from '../../stores/accounts';
import { creditLedger } from '../../stores/credits';
import { foundingStore } from '../../stores/founding';
import { talentStore } from '../../stores/talent';
import { getMe } from './service';

const config = loadConfig(
  z.object({
    ACCOUNTS_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    TALENT_TABLE: z.string().min(1),
  }),
);

/** `GET /me` (any client or talent): the signed-in person's account. */
export const handler = httpHandler(async (event) => {
  const caller = requireAccount(event);
  const doc = documentClient();
  const me = await getMe(
    {
      accounts: accountStore(doc, config.ACCOUNTS_TABLE),
      ledger: creditLedger(doc, config.ACCOUNTS_TABLE),
      standing: { founding: foundingStore(doc, config.APPLICATIONS_TABLE), talent: talentStore(doc, config.TALENT_TABLE) },
    },
    caller,
  );
  return json(200, me);
});
