import { SelfieUploadRequest } from '../../../../events/identity';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf } from '../../../shared/rate-limit';
import { IdentityRouteConfig, identityRouteDeps } from '../../identity/applicant';
import { selfieUpload } from './service';

const deps = identityRouteDeps(loadConfig(IdentityRouteConfig));

/** `POST /founding-identity/selfie-upload` (public, by identity token; docs/identity.md): a presigned PUT for the live selfie. */
export const handler = httpHandler(async (event) => json(200, await selfieUpload(deps, parseJsonBody(event, SelfieUploadRequest), clientIpOf(event))));
