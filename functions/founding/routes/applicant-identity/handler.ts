import * as z from 'zod';
import { FOUNDING_IDENTITY_CHECK_REQUESTED } from '../../../../events/founding';
import { IdentityConsentRequest, IdentityRequest, ReplacementSubmitRequest, ReplacementUploadRequest, SelfieUploadRequest, WithdrawConsentRequest } from '../../../../events/identity';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { s3Bucket } from '../../../shared/s3';
import { foundingStore } from '../../store';
import { giveConsent, identityStatus, replacementUploads, selfieUpload, submitReplacements, withdrawConsent, type ApplicantIdentityDeps } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
  }),
);

/**
 * The applicant's proof of person (docs/identity.md), one function for the light routes:
 * `POST /founding-identity` (status), `/founding-identity/consent`, `/founding-identity/selfie-upload`,
 * `/founding-identity/replacement-uploads`, `/founding-identity/replacements` and
 * `/founding-identity/withdraw-consent`.
 */
export const handler = httpHandler(async (event) => {
  const doc = documentClient();
  const deps: ApplicantIdentityDeps = {
    store: foundingStore(doc, config.APPLICATIONS_TABLE),
    storage: s3Bucket(config.PHOTOS_BUCKET),
    limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    requestCheck: (applicationId) => publish(config.EVENT_BUS_NAME, FOUNDING_IDENTITY_CHECK_REQUESTED, { version: 1, applicationId }),
  };
  const ip = clientIpOf(event);
  const path = event.rawPath ?? '';
  if (path.endsWith('/founding-identity/consent')) return json(200, await giveConsent(deps, parseJsonBody(event, IdentityConsentRequest), ip));
  if (path.endsWith('/founding-identity/selfie-upload')) return json(200, await selfieUpload(deps, parseJsonBody(event, SelfieUploadRequest), ip));
  if (path.endsWith('/founding-identity/replacement-uploads')) return json(200, await replacementUploads(deps, parseJsonBody(event, ReplacementUploadRequest), ip));
  if (path.endsWith('/founding-identity/replacements')) return json(200, await submitReplacements(deps, parseJsonBody(event, ReplacementSubmitRequest), ip));
  if (path.endsWith('/founding-identity/withdraw-consent')) return json(200, await withdrawConsent(deps, parseJsonBody(event, WithdrawConsentRequest).token, ip));
  return json(200, await identityStatus(deps, parseJsonBody(event, IdentityRequest).token, ip));
});
