import { IdentityConsentRequest } from '../../../../events/identity';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf } from '../../../shared/rate-limit';
import { IdentityRouteConfig, identityRouteDeps } from '../../identity/applicant';
import { giveConsent } from './service';

const deps = identityRouteDeps(loadConfig(IdentityRouteConfig));

/** `POST /founding-identity/consent` (public, by identity token; docs/identity.md): the face data consent and the signed consent. */
export const handler = httpHandler(async (event) => json(200, await giveConsent(deps, parseJsonBody(event, IdentityConsentRequest), clientIpOf(event))));
