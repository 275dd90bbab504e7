// Withdrawing the face data consent (docs/identity.md, "Withdrawal"; GDPR Art. 7(3) and 9, BIPA):
// as easy as giving it, from the identity page (the identity token) or the talent portal. The
// signed consent record stays as it was given; the withdrawal is a field of its own
// (`faceConsentWithdrawnAt`), the selfie and the sealed face analyses are deleted, nothing is
// analysed again, and the review goes on by hand, as when the consent was declined.
import { ConflictError } from '../../shared/errors';
import { log } from '../../shared/log';
import type { Bucket } from '../../shared/s3';
import { identityKeys } from '../keys';
import type { FoundingStore, StoredApplication, StoredIdentity } from '../store';
import { IDENTITY_MESSAGES } from './messages';

export interface WithdrawDeps {
  store: Pick<FoundingStore, 'getApplication' | 'withdrawFaceConsent' | 'addHistory' | 'now'>;
  storage: Pick<Bucket, 'list' | 'remove'>;
  /**
   * Asks the check-faces trigger to run (FoundingApplication.IdentityCheckRequested): with the
   * consent withdrawn it resumes a review waiting for the proof of person, by hand.
   */
  requestCheck: (applicationId: string) => Promise<void>;
}

/** Where a withdrawal came from, for the history. */
export type WithdrawnThrough = 'identity page' | 'talent portal';

/**
 * Deletes the application's face data: everything under `applications/{id}/identity/` (the
 * selfies as taken, the sealed analyses of the set and of the selfie) except replacement photos
 * the applicant sent as photos of the set. Answers how many objects were deleted.
 */
export async function deleteFaceData(storage: Pick<Bucket, 'list' | 'remove'>, applicationId: string): Promise<number> {
  const replacements = identityKeys.replacementPrefix(applicationId);
  const keys = (await storage.list(identityKeys.prefix(applicationId))).filter((k) => !k.startsWith(replacements));
  for (let i = 0; i < keys.length; i += 10) await Promise.all(keys.slice(i, i + 10).map((k) => storage.remove(k)));
  return keys.length;
}

/**
 * Withdraws the face data consent of `app`. Recorded first (so no analysis starts after it),
 * then the face data is deleted and the review workflow asked to go on by hand. A second call
 * answers the same application and records nothing: it deletes whatever a failed first call may
 * have left and asks the workflow again (resuming a review that is not waiting changes nothing). Refused (409) when no face data consent was given.
 */
export async function withdrawFaceConsent(deps: WithdrawDeps, app: StoredApplication, through: WithdrawnThrough): Promise<StoredApplication> {
  const identity = app.identity;
  if (identity?.faceConsent === 'withdrawn') {
    // What a first call that failed part way may have left: the files, and the review still waiting.
    await deleteFaceData(deps.storage, app.id);
    await deps.requestCheck(app.id);
    return app;
  }
  if (identity?.faceConsent !== 'given') throw new ConflictError(IDENTITY_MESSAGES.nothingToWithdraw);

  // The selfie's key and result go with it; the findings, counts and the signed record stay.
  const { selfie: _selfie, replaceBy: _replaceBy, ...kept } = identity;
  const next: StoredIdentity = { ...kept, faceConsent: 'withdrawn', faceConsentWithdrawnAt: deps.store.now().toISOString(), state: 'manual' };
  if (!(await deps.store.withdrawFaceConsent(app.id, next))) {
    // Withdrawn meanwhile (a second click): answer what stands.
    const now = await deps.store.getApplication(app.id);
    if (now.identity?.faceConsent === 'withdrawn') return withdrawFaceConsent(deps, now, through);
    throw new ConflictError(IDENTITY_MESSAGES.nothingToWithdraw);
  }
  const deleted = await deleteFaceData(deps.storage, app.id);
  await deps.store.addHistory(app.id, 'face consent withdrawn', { note: `Withdrawn on the ${through}: selfie and face analyses deleted (${deleted} files); review by hand` });
  log.info('face data consent withdrawn', { applicationId: app.id, through, deleted });
  await deps.requestCheck(app.id);
  return { ...app, identity: next };
}
