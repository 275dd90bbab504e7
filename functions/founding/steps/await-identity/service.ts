// Workflow step AwaitIdentity (docs/identity.md): the review waits for the proof of person. The
// step stores its task token on the application; the check-faces trigger resumes it once the
// photos are checked with enough usable ones, or at once when the applicant declined face
// checks (a review by hand). When that has already happened, the step resumes itself; when the
// applicant consented before the photos were validated, it asks for the check now.
import { log } from '../../../shared/log';
import type { FoundingStore } from '../../store';

export interface AwaitIdentityDeps {
  store: FoundingStore;
  resume: (taskToken: string, output: object) => Promise<unknown>;
  requestCheck: (applicationId: string) => Promise<void>;
}

export async function awaitIdentity(deps: AwaitIdentityDeps, applicationId: string, taskToken: string): Promise<{ waiting: boolean }> {
  await deps.store.storeIdentityTaskToken(applicationId, taskToken);
  // Read after the token is stored: whatever happened before it, this step sees it now, and
  // whatever happens after it finds the token.
  const app = await deps.store.getApplication(applicationId);
  const identity = app.identity ?? { state: 'awaiting-consent' as const, faceConsent: 'pending' as const };
  // Refused meanwhile (an ID showing the person under 18): the review step finds the decision.
  if (app.decision) {
    await deps.resume(taskToken, { identity: 'decided' });
    return { waiting: false };
  }
  if (identity.state === 'checked' || identity.state === 'manual') {
    await deps.resume(taskToken, { identity: identity.state });
    return { waiting: false };
  }
  // Consent given before the photos were validated: the check could not run then.
  if (identity.faceConsent === 'given' && identity.state === 'checking') await deps.requestCheck(applicationId);
  log.info('waiting for the proof of person', { applicationId, state: identity.state });
  return { waiting: true };
}
