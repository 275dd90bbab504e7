// Consumer of `FoundingApplication.IdentityCheckRequested` (docs/identity.md): runs the face
// checks of an application that consented, or resumes the workflow of one that declined or
// withdrew the consent (its photos are reviewed by hand, nothing is analysed). With a session id,
// it checks that VerificationSession's verified selfie instead ("Verified identity").
import { log } from '../../../shared/log';
import { runFaceChecks, type FaceCheckDeps } from '../../identity/check';
import { resumeIdentityWait } from '../../identity/resume';
import { checkVerifiedSelfie, type VerifiedSelfieDeps } from '../../identity/verified-selfie';

export type CheckFacesDeps = FaceCheckDeps & VerifiedSelfieDeps;

export async function checkFaces(deps: CheckFacesDeps, applicationId: string, sessionId?: string): Promise<{ state: string; usable?: number }> {
  const app = await deps.store.getApplication(applicationId);
  const identity = app.identity;
  if (identity?.faceConsent === 'declined' || identity?.faceConsent === 'withdrawn') {
    await resumeIdentityWait(deps, applicationId, { identity: 'manual' });
    log.info(`face checks ${identity.faceConsent}: reviewed by hand`, { applicationId });
    return { state: 'manual' };
  }
  if (sessionId) return checkVerifiedSelfie(deps, applicationId, sessionId);
  return runFaceChecks(deps, applicationId);
}
