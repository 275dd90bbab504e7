import { requireRole } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { clientIpOf } from '../../../shared/rate-limit';
import { IdentityRouteConfig, identityRouteDeps } from '../../identity/applicant';
import { withdrawMyFaceData } from './service';

const deps = identityRouteDeps(loadConfig(IdentityRouteConfig));

/** `POST /me/face-data/withdraw` (talent): withdraws the face data consent of the application the account came from (docs/identity.md, "Withdrawal"). */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  return json(200, await withdrawMyFaceData(deps, caller, clientIpOf(event)));
});
