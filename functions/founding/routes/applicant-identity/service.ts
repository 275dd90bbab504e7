// The applicant's proof of person (docs/identity.md): where they stand, the face data consent
// and the signature, presigned uploads for the selfie and for replacement photos, and the
// replacements themselves. Each request carries the identity token, which opens its own
// application only; the face checks themselves run in the check-faces trigger.
import { randomBytes } from 'node:crypto';
import { MAX_APPLICATION_IMAGES } from '../../../../events/founding-values';
import {
  CONSENT_VERSION,
  FACE_CONSENT_VERSION,
  type IdentityConsentRequest,
  type IdentityStatus,
  type ReplacementSubmitRequest,
  type ReplacementUploadResponse,
  type SelfieUploadResponse,
} from '../../../../events/identity';
import { ConflictError, ValidationError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import type { RateLimiter } from '../../../shared/rate-limit';
import type { Bucket } from '../../../shared/s3';
import { setPhotosOf } from '../../identity/photos';
import { NEW_IDENTITY, identityStatusOf } from '../../identity/status';
import { applicationOfToken } from '../../identity/tokens';
import { withdrawFaceConsent } from '../../identity/withdraw';
import { identityKeys } from '../../keys';
import { IDENTITY_MESSAGES, identityNetworkRule } from '../../identity/messages';
import type { FoundingStore, StoredApplication } from '../../store';

export interface ApplicantIdentityDeps {
  store: FoundingStore;
  storage: Bucket;
  limit: RateLimiter;
  /** Asks the check-faces trigger to run (FoundingApplication.IdentityCheckRequested). */
  requestCheck: (applicationId: string) => Promise<void>;
}

/** Requests per application per hour, over all identity routes (the network limit is identityNetworkRule). */
const IDENTITY_REQUESTS_PER_APPLICATION_PER_HOUR = 120;
const UPLOAD_URL_SECONDS = 15 * 60;


const CLOSED = new Set(['accepted', 'rejected', 'invalid']);

async function open(deps: ApplicantIdentityDeps, token: string, ip: string): Promise<StoredApplication> {
  await deps.limit([identityNetworkRule(ip)]);
  const app = await applicationOfToken(deps.store, token);
  await deps.limit([{ name: 'founding-identity.application', subject: app.id, limit: IDENTITY_REQUESTS_PER_APPLICATION_PER_HOUR, windowSeconds: 3600, message: IDENTITY_MESSAGES.tooMany }]);
  return app;
}

const normalName = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
const fullNameOf = (app: StoredApplication) => [app.firstName, app.lastName].filter(Boolean).join(' ');

/** `POST /founding-identity`: where the applicant stands (with their photos on the replace page). */
export async function identityStatus(deps: ApplicantIdentityDeps, token: string, ip: string): Promise<IdentityStatus> {
  const app = await open(deps, token, ip);
  return identityStatusOf(app, { storage: deps.storage, photos: app.identity?.state === 'awaiting-photos' || (app.identity?.summary?.usable ?? Infinity) < (app.identity?.summary?.total ?? 0) });
}

/**
 * `POST /founding-identity/consent`: the face data consent (given or declined) and the signed
 * consent, recorded once and never changed. With face consent the photos are checked (the
 * check-faces trigger); without it nothing is analysed and a reviewer compares them by hand.
 */
export async function giveConsent(deps: ApplicantIdentityDeps, request: IdentityConsentRequest, ip: string): Promise<IdentityStatus> {
  const app = await open(deps, request.token, ip);
  if (CLOSED.has(app.status)) throw new ConflictError(IDENTITY_MESSAGES.closed);
  if (request.consentVersion !== CONSENT_VERSION) throw new ValidationError(IDENTITY_MESSAGES.oldConsent, { consentVersion: IDENTITY_MESSAGES.oldConsent });
  const fullName = fullNameOf(app);
  if (normalName(request.typedName) !== normalName(fullName)) throw new ValidationError(IDENTITY_MESSAGES.nameMismatch(fullName), { typedName: IDENTITY_MESSAGES.nameMismatch(fullName) });
  if (app.identity?.consent) throw new ConflictError(IDENTITY_MESSAGES.alreadySigned);
  const now = deps.store.now().toISOString();
  const identity = {
    ...(app.identity ?? NEW_IDENTITY),
    faceConsent: request.faceConsent ? ('given' as const) : ('declined' as const),
    state: request.faceConsent ? ('checking' as const) : ('manual' as const),
    consent: { version: CONSENT_VERSION, typedName: request.typedName.trim(), signedAt: now, faceConsent: request.faceConsent ? ('given' as const) : ('declined' as const), faceConsentVersion: FACE_CONSENT_VERSION },
  };
  if (!(await deps.store.recordConsent(app.id, identity))) throw new ConflictError(IDENTITY_MESSAGES.alreadySigned);
  await deps.store.addHistory(app.id, 'consent signed', { note: `Consent ${CONSENT_VERSION} signed; face checks ${request.faceConsent ? 'agreed' : 'declined: review by hand'}` });
  log.info('identity consent recorded', { applicationId: app.id, faceConsent: identity.faceConsent });
  // Either way the workflow goes on: the trigger checks the photos, or resumes the review by hand.
  await deps.requestCheck(app.id);
  return identityStatusOf({ ...app, identity });
}

/**
 * `POST /founding-identity/withdraw-consent`: takes back the face data consent (docs/identity.md,
 * "Withdrawal"). Whatever the application's status: a decided application's face data goes too.
 */
export async function withdrawConsent(deps: ApplicantIdentityDeps, token: string, ip: string): Promise<IdentityStatus> {
  const app = await open(deps, token, ip);
  return identityStatusOf(await withdrawFaceConsent(deps, app, 'identity page'));
}

/** `POST /founding-identity/selfie-upload`: a presigned PUT for the live selfie, under the application's private prefix. */
export async function selfieUpload(deps: ApplicantIdentityDeps, request: { token: string; size: number }, ip: string): Promise<SelfieUploadResponse> {
  const app = await open(deps, request.token, ip);
  if (CLOSED.has(app.status)) throw new ConflictError(IDENTITY_MESSAGES.closed);
  if (app.identity?.faceConsent === 'withdrawn') throw new ConflictError(IDENTITY_MESSAGES.faceConsentWithdrawn);
  if (app.identity?.faceConsent !== 'given') throw new ConflictError(IDENTITY_MESSAGES.noFaceConsent);
  const key = identityKeys.selfieUpload(app.id, `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`);
  const url = await deps.storage.createUrl(key, { expiresIn: UPLOAD_URL_SECONDS, contentType: 'image/jpeg', contentLength: request.size });
  return { url, key, headers: { 'content-type': 'image/jpeg', 'if-none-match': '*' }, expiresAt: new Date(deps.store.now().getTime() + UPLOAD_URL_SECONDS * 1000).toISOString() };
}

/** `POST /founding-identity/replacement-uploads`: presigned PUTs for new photos, while the application waits for them. */
export async function replacementUploads(deps: ApplicantIdentityDeps, request: { token: string; files: Array<{ contentType: 'image/jpeg' | 'image/png'; size: number }> }, ip: string): Promise<ReplacementUploadResponse> {
  const app = await open(deps, request.token, ip);
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

/**
 * `POST /founding-identity/replacements`: the photos to drop and the uploaded keys that replace
 * them. Recorded on the application; the check-faces trigger validates the new photos and checks
 * the set again. Only keys issued under this application's replacement prefix are taken.
 */
export async function submitReplacements(deps: ApplicantIdentityDeps, request: ReplacementSubmitRequest & { remove: number[] }, ip: string): Promise<IdentityStatus> {
  const app = await open(deps, request.token, ip);
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
