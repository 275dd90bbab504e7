import { MAX_APPLICATION_IMAGES } from '../../../../events/founding-values';
import type { IdentityStatus, ReplacementSubmitRequest } from '../../../../events/identity';
import { ConflictError, ValidationError } from '../../../shared/errors';
import { openByToken, type ApplicantIdentityDeps } from '../../identity/applicant';
import { IDENTITY_MESSAGES } from '../../identity/messages';
import { setPhotosOf } from '../../identity/photos';
import { identityStatusOf } from '../../identity/status';
import { identityKeys } from '../../keys';

/**
 * `POST /founding-identity/replacements`: the photos to drop and the uploaded keys that replace
 * them. Recorded on the application; the check-faces trigger validates the new photos and checks
 * the set again. Only keys issued under this application's replacement prefix are taken.
 */
export async function submitReplacements(deps: ApplicantIdentityDeps, request: ReplacementSubmitRequest & { remove: number[] }, ip: string): Promise<IdentityStatus> {
  const app = await openByToken(deps, request.token, ip);
  if (app.identity?.state !== 'awaiting-photos') throw new ConflictError(IDENTITY_MESSAGES.notAwaitingPhotos);
  const prefix = identityKeys.replacementPrefix(app.id);
  if (request.keys.some((k) => !k.startsWith(prefix) || k.slice(prefix.length).includes('/'))) throw new ValidationError(IDENTITY_MESSAGES.notYourUpload, { keys: IDENTITY_MESSAGES.notYourUpload });
  const inSet = new Set(setPhotosOf(app.photoResults ?? []).map((p) => p.index!));
  const unknown = request.remove.find((i) => !inSet.has(i));
  if (unknown !== undefined) throw new ValidationError(IDENTITY_MESSAGES.unknownPhoto(unknown), { remove: IDENTITY_MESSAGES.unknownPhoto(unknown) });
  const remove = [...new Set(request.remove)];
  if (inSet.size - remove.length + request.keys.length > MAX_APPLICATION_IMAGES) throw new ValidationError(IDENTITY_MESSAGES.tooManyPhotos, { keys: IDENTITY_MESSAGES.tooManyPhotos });
  for (const key of request.keys) {
    if ((await deps.storage.size(key)) === undefined) throw new ValidationError(`A photo was not uploaded yet: upload it again (${key.slice(prefix.length)}).`, { keys: 'A photo was not uploaded yet.' });
  }
  const identity = { ...app.identity, state: 'checking' as const, pendingReplacements: { remove, keys: [...new Set(request.keys)], at: deps.store.now().toISOString() } };
  if (!(await deps.store.recordReplacementsSent(app.id, identity))) throw new ConflictError(IDENTITY_MESSAGES.notAwaitingPhotos);
  await deps.store.addHistory(app.id, 'replacement photos sent', { note: `${request.keys.length} new photos, ${remove.length} to remove` });
  await deps.requestCheck(app.id);
  return identityStatusOf({ ...app, identity });
}
