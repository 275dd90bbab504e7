import { requireRole } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { clientIpOf } from '../../../shared/rate-limit';
import { IdentityRouteConfig, identityRouteDeps } from '../../identity/applicant';
import { myFaceData } from './service';

const deps = identityRouteDeps(loadConfig(IdentityRouteConfig));

/** `GET /me/face-data` (talent): the face data consent of the application the account came from (docs/identity.md, "Withdrawal"). */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  return json(200, await myFaceData(deps, caller, clientIpOf(event)));
});
