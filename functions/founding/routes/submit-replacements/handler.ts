import { ReplacementSubmitRequest } from '../../../../events/identity';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf } from '../../../shared/rate-limit';
import { IdentityRouteConfig, identityRouteDeps } from '../../identity/applicant';
import { submitReplacements } from './service';

const deps = identityRouteDeps(loadConfig(IdentityRouteConfig));

/** `POST /founding-identity/replacements` (public, by identity token; docs/identity.md): the photos to drop and the uploads that replace them. */
export const handler = httpHandler(async (event) => json(200, await submitReplacements(deps, parseJsonBody(event, ReplacementSubmitRequest), clientIpOf(event))));
