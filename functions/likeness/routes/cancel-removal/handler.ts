import * as z from 'zod';
import { AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { cancelRemoval } from './service';
import { likenessChangeDeps } from '../../route-deps';

const deps = likenessChangeDeps(loadConfig(AccountTables.extend({ RATE_LIMITS_TABLE: z.string().min(1) })));

/** `DELETE /me/likeness/removal` (accepted talent): cancels a removal while its notice runs. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  return json(200, await cancelRemoval(deps, caller));
});
