// `POST /founding-identity/selfie` (docs/identity.md): the live selfie the applicant just
// uploaded is analysed now, sealed, and matched with the photo set once the set has been
// checked; the answer says what to do (a match, or take it again).
import type { IdentityStatus } from '../../../../events/identity';
import { ConflictError, ValidationError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import type { RateLimiter } from '../../../shared/rate-limit';
import type { Bucket } from '../../../shared/s3';
import { matchSelfie, type PhotoAnalysis } from '../../faces';
import { readSetAnalyses, writeSelfieAnalysis } from '../../identity/check';
import { sha256Hex } from '../../identity/crypto';
import { identityStatusOf } from '../../identity/status';
import { applicationOfToken } from '../../identity/tokens';
import { deleteFaceData } from '../../identity/withdraw';
import { identityKeys } from '../../keys';
import type { FoundingStore, StoredIdentity } from '../../store';
import { IDENTITY_MESSAGES, identityNetworkRule } from '../../identity/messages';

export interface SubmitSelfieDeps {
  store: FoundingStore;
  storage: Bucket;
  limit: RateLimiter;
  key: () => Promise<Buffer>;
  analyze: (bytes: Buffer) => Promise<PhotoAnalysis>;
}

/** Selfies analysed per application per hour (each is a face analysis). */
const SELFIES_PER_APPLICATION_PER_HOUR = 20;
const SELFIES_MESSAGE = `You have taken ${SELFIES_PER_APPLICATION_PER_HOUR} selfies in the last hour. Wait a little, then try again.`;
const NOT_A_SELFIE = 'This is not the selfie you just uploaded: take it again.';
const UNREADABLE = 'Your selfie could not be read as an image: take it again.';

export async function submitSelfie(deps: SubmitSelfieDeps, request: { token: string; key: string }, ip: string): Promise<IdentityStatus> {
  await deps.limit([identityNetworkRule(ip)]);
  const app = await applicationOfToken(deps.store, request.token);
  await deps.limit([{ name: 'founding-identity.selfie', subject: app.id, limit: SELFIES_PER_APPLICATION_PER_HOUR, windowSeconds: 3600, message: SELFIES_MESSAGE }]);
  if (['accepted', 'rejected', 'invalid'].includes(app.status)) throw new ConflictError(IDENTITY_MESSAGES.closed);
  if (app.identity?.faceConsent === 'withdrawn') {
    // A selfie PUT through a link issued before the withdrawal is not kept either.
    await deleteFaceData(deps.storage, app.id);
    throw new ConflictError(IDENTITY_MESSAGES.faceConsentWithdrawn);
  }
  if (app.identity?.faceConsent !== 'given') throw new ConflictError(IDENTITY_MESSAGES.noFaceConsent);
  const prefix = identityKeys.prefix(app.id);
  if (!request.key.startsWith(`${prefix}selfie-`) || request.key.slice(prefix.length).includes('/')) throw new ValidationError(NOT_A_SELFIE, { key: NOT_A_SELFIE });
  if ((await deps.storage.size(request.key)) === undefined) throw new ValidationError(NOT_A_SELFIE, { key: NOT_A_SELFIE });

  const bytes = await deps.storage.read(request.key);
  let analysis: PhotoAnalysis;
  try {
    analysis = await deps.analyze(bytes);
  } catch {
    throw new ValidationError(UNREADABLE, { key: UNREADABLE });
  }
  const takenAt = deps.store.now().toISOString();
  const set = await readSetAnalyses(deps, app.id);
  const match = set ? matchSelfie(analysis, set) : undefined;
  let selfie: NonNullable<StoredIdentity['selfie']>;
  if (match) selfie = { state: match.result, key: request.key, takenAt, threshold: match.threshold, ...(match.score !== null ? { score: match.score } : {}) };
  else if (analysis.faceCount === 0) selfie = { state: 'no-face', key: request.key, takenAt };
  else if (analysis.faceCount > 1) selfie = { state: 'several-faces', key: request.key, takenAt };
  else selfie = { state: 'waiting-for-photos', key: request.key, takenAt };
  // Only a selfie with one face is kept for matching; the record keeps the first such selfie's hash.
  const oneFace = analysis.faceCount === 1;
  if (oneFace) await writeSelfieAnalysis(deps, app.id, analysis);
  const identity: StoredIdentity = {
    ...app.identity,
    selfie,
    ...(oneFace && app.identity.consent && !app.identity.consent.selfieHash ? { consent: { ...app.identity.consent, selfieHash: sha256Hex(bytes) } } : {}),
  };
  // Only while the consent stands: withdrawn during the analysis, what it wrote goes too.
  if (!(await deps.store.recordSelfie(app.id, identity))) {
    await deleteFaceData(deps.storage, app.id);
    throw new ConflictError(IDENTITY_MESSAGES.faceConsentWithdrawn);
  }
  await deps.store.addHistory(app.id, 'selfie taken', { note: `Selfie: ${selfie.state}${selfie.score !== undefined ? ` (${selfie.score} of ${selfie.threshold})` : ''}` });
  log.info('selfie analysed', { applicationId: app.id, state: selfie.state });
  return identityStatusOf({ ...app, identity });
}
