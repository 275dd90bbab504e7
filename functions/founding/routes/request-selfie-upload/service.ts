import { randomBytes } from 'node:crypto';
import type { SelfieUploadResponse } from '../../../../events/identity';
import { ConflictError } from '../../../shared/errors';
import { CLOSED, UPLOAD_URL_SECONDS, openByToken, type ApplicantIdentityDeps } from '../../identity/applicant';
import { IDENTITY_MESSAGES } from '../../identity/messages';
import { identityKeys } from '../../keys';

/** `POST /founding-identity/selfie-upload`: a presigned PUT for the live selfie, under the application's private prefix. */
export async function selfieUpload(deps: ApplicantIdentityDeps, request: { token: string; size: number }, ip: string): Promise<SelfieUploadResponse> {
  const app = await openByToken(deps, request.token, ip);
  if (CLOSED.has(app.status)) throw new ConflictError(IDENTITY_MESSAGES.closed);
  if (app.identity?.faceConsent === 'withdrawn') throw new ConflictError(IDENTITY_MESSAGES.faceConsentWithdrawn);
  if (app.identity?.faceConsent !== 'given') throw new ConflictError(IDENTITY_MESSAGES.noFaceConsent);
  const key = identityKeys.selfieUpload(app.id, `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`);
  const url = await deps.storage.createUrl(key, { expiresIn: UPLOAD_URL_SECONDS, contentType: 'image/jpeg', contentLength: request.size });
  return { url, key, headers: { 'content-type': 'image/jpeg', 'if-none-match': '*' }, expiresAt: new Date(deps.store.now().getTime() + UPLOAD_URL_SECONDS * 1000).toISOString() };
}
