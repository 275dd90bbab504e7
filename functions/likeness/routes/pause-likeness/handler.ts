import { requireRole } from '../../../shared/auth';
import { httpHandler, json } from '../../../shared/http';
import { setLikenessPaused } from '../../controls';
import { likenessRouteDeps, limitLikenessChange } from '../../route-deps';

const deps = likenessRouteDeps();

/**
 * `POST /me/likeness/pause` and `POST /me/likeness/resume` (accepted talent): idempotent; answers
 * the likeness's status. Licenses already issued are untouched.
 */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  await limitLikenessChange(caller);
  const paused = !(event.routeKey ?? event.rawPath ?? '').endsWith('/resume');
  return json(200, await setLikenessPaused(deps, caller, paused));
});
