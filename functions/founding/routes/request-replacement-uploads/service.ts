import { randomBytes } from 'node:crypto';
import type { ReplacementUploadResponse } from '../../../../events/identity';
import { ConflictError } from '../../../shared/errors';
import { UPLOAD_URL_SECONDS, openByToken, type ApplicantIdentityDeps } from '../../identity/applicant';
import { IDENTITY_MESSAGES } from '../../identity/messages';
import { identityKeys } from '../../keys';

/** `POST /founding-identity/replacement-uploads`: presigned PUTs for new photos, while the application waits for them. */
export async function replacementUploads(deps: ApplicantIdentityDeps, request: { token: string; files: Array<{ contentType: 'image/jpeg' | 'image/png'; size: number }> }, ip: string): Promise<ReplacementUploadResponse> {
  const app = await openByToken(deps, request.token, ip);
  if (app.identity?.state !== 'awaiting-photos') throw new ConflictError(IDENTITY_MESSAGES.notAwaitingPhotos);
  const batch = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const uploads = await Promise.all(
    request.files.map(async (f, i) => {
      const ext = f.contentType === 'image/png' ? 'png' : 'jpg';
      const key = identityKeys.replacement(app.id, `${batch}-${i}`, ext);
      const url = await deps.storage.createUrl(key, { expiresIn: UPLOAD_URL_SECONDS, contentType: f.contentType, contentLength: f.size });
      return { url, key, headers: { 'content-type': f.contentType, 'if-none-match': '*' } };
    }),
  );
  return { uploads, expiresAt: new Date(deps.store.now().getTime() + UPLOAD_URL_SECONDS * 1000).toISOString() };
}
