import { RemovalRequest } from '../../../../events/likeness';
import { requireRole } from '../../../shared/auth';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { requestRemoval } from '../../controls';
import { likenessRouteDeps, limitLikenessChange } from '../../route-deps';

const deps = likenessRouteDeps();

/** `POST /me/likeness/removal` (accepted talent): removal after the notice; emails the talent. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const request = event.body ? parseJsonBody(event, RemovalRequest) : {};
  await limitLikenessChange(caller);
  return json(200, await requestRemoval(deps, caller, request));
});
