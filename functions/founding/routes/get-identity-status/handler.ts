import { IdentityRequest } from '../../../../events/identity';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf } from '../../../shared/rate-limit';
import { IdentityRouteConfig, identityRouteDeps } from '../../identity/applicant';
import { identityStatus } from './service';

const deps = identityRouteDeps(loadConfig(IdentityRouteConfig));

/** `POST /founding-identity` (public, by identity token; docs/identity.md): where the applicant stands. */
export const handler = httpHandler(async (event) => json(200, await identityStatus(deps, parseJsonBody(event, IdentityRequest).token, clientIpOf(event))));
