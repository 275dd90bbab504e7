import { WithdrawConsentRequest } from '../../../../events/identity';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf } from '../../../shared/rate-limit';
import { IdentityRouteConfig, identityRouteDeps } from '../../identity/applicant';
import { withdrawConsent } from './service';

const deps = identityRouteDeps(loadConfig(IdentityRouteConfig));

/** `POST /founding-identity/withdraw-consent` (public, by identity token; docs/identity.md): takes back the face data consent. */
export const handler = httpHandler(async (event) => json(200, await withdrawConsent(deps, parseJsonBody(event, WithdrawConsentRequest).token, clientIpOf(event))));
