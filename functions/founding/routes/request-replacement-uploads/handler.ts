import { ReplacementUploadRequest } from '../../../../events/identity';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf } from '../../../shared/rate-limit';
import { IdentityRouteConfig, identityRouteDeps } from '../../identity/applicant';
import { replacementUploads } from './service';

const deps = identityRouteDeps(loadConfig(IdentityRouteConfig));

/** `POST /founding-identity/replacement-uploads` (public, by identity token; docs/identity.md): presigned PUTs for replacement photos. */
export const handler = httpHandler(async (event) => json(200, await replacementUploads(deps, parseJsonBody(event, ReplacementUploadRequest), clientIpOf(event))));
