import * as z from 'zod';
import { AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { likenessChangeDeps } from '../../route-deps';
import { pauseLikeness } from './service';

const deps = likenessChangeDeps(loadConfig(AccountTables.extend({ RATE_LIMITS_TABLE: z.string().min(1) })));

/** `POST /me/likeness/pause` (accepted talent): answers the likeness's status. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  return json(200, await pauseLikeness(deps, caller));
});
