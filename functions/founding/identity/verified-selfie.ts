// The verified selfie (docs/identity.md, "Verified identity"): Stripe Identity proves it is live
// and the document's person; our face check (decision 045) proves it is the person of the photo
// set and not a copy of a photo. Run by the check-faces trigger, which has the face model, when
// the webhook finds a session verified with a selfie. The bytes are read from Stripe by the server
// and kept under the application's identity prefix; the analysis is sealed like the set's.
import type { FailedCheck } from '../../../events/identity';
import { log } from '../../shared/log';
import { matchSelfie, type PhotoAnalysis } from '../faces';
import { identityKeys } from '../keys';
import type { StoredIdentity } from '../store';
import { FINAL, readSelfieAnalysis, readSetAnalyses, writeSelfieAnalysis, type FaceCheckDeps } from './check';
import { copyOf, hashPairOf } from './copies';
import { sha256Hex } from './crypto';
import { deleteFaceData } from './withdraw';

export interface VerifiedSelfieDeps extends Pick<FaceCheckDeps, 'store' | 'storage' | 'key' | 'analyze'> {
  /** The session's selfie from Stripe (its last report's selfie file) and when the report was made; undefined without one. */
  verifiedSelfie: (sessionId: string) => Promise<{ bytes: Buffer; takenAt: string } | undefined>;
}

/** Checks the selfie of a verified session once: analysed, matched with the set, looked for copies, recorded. */
export async function checkVerifiedSelfie(deps: VerifiedSelfieDeps, applicationId: string, sessionId: string): Promise<{ state: string }> {
  const app = await deps.store.getApplication(applicationId);
  if (FINAL.has(app.status) || app.decision) return { state: 'decided' };
  if (app.identity?.faceConsent !== 'given') return { state: 'manual' };
  if (!app.verification?.attempts.some((a) => a.sessionId === sessionId)) {
    log.warn('selfie check for a session the application did not open: ignored', { applicationId, sessionId });
    return { state: 'ignored' };
  }
  if (app.identity.selfie?.sessionId === sessionId && app.identity.selfie.state !== 'none') return { state: app.identity.selfie.state };

  const fetched = await deps.verifiedSelfie(sessionId);
  if (!fetched) {
    // Verified with a selfie, yet Stripe gave none: the reviewer sees no selfie (a gate), and the log says why.
    log.error('verified session without a selfie file', new Error(`session ${sessionId} has no selfie`), { applicationId, sessionId });
    return { state: 'none' };
  }
  const key = identityKeys.verifiedSelfie(applicationId, sessionId);
  await deps.storage.write(key, fetched.bytes, 'image/jpeg');
  let analysis: PhotoAnalysis;
  try {
    analysis = await deps.analyze(fetched.bytes);
  } catch (err) {
    log.error('verified selfie could not be analysed', err, { applicationId, sessionId });
    analysis = { width: 0, height: 0, faceCount: 0, face: null, brightness: 0, hash: '', mirroredHash: '' } as unknown as PhotoAnalysis;
  }
  const [set, earlierSelfie, own, others] = await Promise.all([
    readSetAnalyses(deps, applicationId),
    readSelfieAnalysis(deps, applicationId),
    deps.store.imageHashesOf(applicationId),
    deps.store.listImageHashes(applicationId),
  ]);
  const copy = analysis.hash ? copyOf(analysis, { set, earlierSelfie, earlierSelfieHashes: own.selfies, others }) : undefined;
  const match = set ? matchSelfie(analysis, set) : undefined;
  const state: NonNullable<StoredIdentity['selfie']>['state'] = copy
    ? 'copy'
    : match
      ? match.result
      : analysis.faceCount === 0
        ? 'no-face'
        : analysis.faceCount > 1
          ? 'several-faces'
          : 'waiting-for-photos';
  const selfie: NonNullable<StoredIdentity['selfie']> = {
    state,
    key,
    sessionId,
    takenAt: fetched.takenAt,
    ...(match ? { threshold: match.threshold, ...(match.score !== null ? { score: match.score } : {}) } : {}),
    ...(copy ? { copyOf: copy } : {}),
  };
  // Only a selfie with one face is kept for matching (sealed, bound to the application).
  if (analysis.faceCount === 1) await writeSelfieAnalysis(deps, applicationId, analysis);
  if (analysis.hash) await deps.store.recordImageHashes(applicationId, { selfie: hashPairOf(analysis) });
  const failedAt = deps.store.now().toISOString();
  const failed: FailedCheck | undefined = state === 'copy' ? { check: 'selfie-copy', at: failedAt } : state === 'no-match' ? { check: 'selfie-no-match', at: failedAt } : undefined;
  if (!(await deps.store.recordVerifiedSelfie(applicationId, selfie, { failed, selfieHash: analysis.faceCount === 1 ? sha256Hex(fetched.bytes) : undefined }))) {
    // Withdrawn while it was analysed (or a newer selfie recorded): what this run wrote goes with the face data.
    if ((await deps.store.getApplication(applicationId)).identity?.faceConsent !== 'given') await deleteFaceData(deps.storage, applicationId);
    log.info('verified selfie not recorded: consent withdrawn or a newer selfie', { applicationId, sessionId });
    return { state: 'not-recorded' };
  }
  const copyText = copy ? ` of ${copy.kind}${copy.index !== undefined ? ` ${copy.index + 1}` : ''}` : '';
  await deps.store.addHistory(applicationId, 'verified selfie checked', {
    note: `Selfie of session ${sessionId}: ${state}${copyText}${selfie.score !== undefined ? ` (${selfie.score} of ${selfie.threshold})` : ''}`,
  });
  log.info('verified selfie checked', { applicationId, sessionId, state });
  return { state };
}
