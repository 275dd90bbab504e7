import { requireRole } from '../../../shared/auth';
import { httpHandler, json } from '../../../shared/http';
import { cancelRemoval } from '../../controls';
import { likenessRouteDeps, limitLikenessChange } from '../../route-deps';

const deps = likenessRouteDeps();

/** `DELETE /me/likeness/removal` (accepted talent): cancels a removal while its notice runs. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  await limitLikenessChange(caller);
  return json(200, await cancelRemoval(deps, caller));
});
