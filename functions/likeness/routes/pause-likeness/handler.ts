import * as z from 'zod';
import { AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { setLikenessPaused } from '../../controls';
import { likenessChangeDeps } from '../../route-deps';

const deps = likenessChangeDeps(loadConfig(AccountTables.extend({ RATE_LIMITS_TABLE: z.string().min(1) })));

/**
 * `POST /me/likeness/pause` and `POST /me/likeness/resume` (accepted talent): idempotent; answers
 * the likeness's status. Licenses already issued are untouched.
 */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const paused = !(event.routeKey ?? event.rawPath ?? '').endsWith('/resume');
  return json(200, await setLikenessPaused(deps, caller, paused));
});
