import * as z from 'zod';
import { AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { likenessChangeDeps } from '../../route-deps';
import { resumeLikeness } from './service';

const deps = likenessChangeDeps(loadConfig(AccountTables.extend({ RATE_LIMITS_TABLE: z.string().min(1) })));

/** `POST /me/likeness/resume` (accepted talent): answers the likeness's status. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  return json(200, await resumeLikeness(deps, caller));
});
