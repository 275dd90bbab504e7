import * as z from 'zod';
import { UpdateMeRequest } from '../../../../events/accounts';
import { requireAccount } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { accountStore } from '../../store';
import { updateMe } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) }));

/** `PATCH /me` (any client or talent): changes the full name; answers the profile. */
export const handler = httpHandler(async (event) => {
  const caller = requireAccount(event);
  const changes = parseJsonBody(event, UpdateMeRequest);
  const doc = documentClient();
  return json(200, await updateMe({ accounts: accountStore(doc, config.ACCOUNTS_TABLE), limit: rateLimiter(doc, config.RATE_LIMITS_TABLE) }, caller, changes));
});
