import * as z from 'zod';
import { AccountTables, accountStores } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { generationStore } from '../../../generation';
import { sentFileOf } from '../../files';
import { reportStore } from '../../store';
import { checkLikenessFile } from './service';

const config = loadConfig(AccountTables.extend({ REPORTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) }));

/** `POST /me/likeness-check` (talent): "Is this me?" for an image file sent as the body. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const stores = accountStores(doc, config);
  const deps = {
    index: reportStore(doc, config.REPORTS_TABLE),
    licenses: generationStore(doc, config.GENERATIONS_TABLE),
    limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    talent: { accounts: stores.accounts, standing: stores.standing },
  };
  return json(200, await checkLikenessFile(deps, caller, sentFileOf(event)));
});
