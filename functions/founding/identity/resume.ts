// Resuming the workflow's AwaitIdentity step (docs/identity.md): the face checks do it, and so
// does the Identity webhook when it refuses an applicant under 18. Apart from the face checks, so
// a function that only resumes does not load the face model.
import type { FoundingStore } from '../store';

/**
 * Resumes the workflow's AwaitIdentity wait with `output`, when it waits (the step stores its
 * token; a step that stores it later finds the outcome and resumes itself). A token already used
 * by the other side is no error.
 */
export async function resumeIdentityWait(
  deps: { store: Pick<FoundingStore, 'getApplication' | 'clearIdentityTaskToken'>; resume: (taskToken: string, output: object) => Promise<void> },
  applicationId: string,
  output: object,
): Promise<void> {
  const token = (await deps.store.getApplication(applicationId)).identityTaskToken;
  if (!token) return;
  await deps.resume(token, output);
  // False when the step waits with another token now: nothing to forget.
  await deps.store.clearIdentityTaskToken(applicationId, token);
}
