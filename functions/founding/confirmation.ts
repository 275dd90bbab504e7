// The confirmation link an applicant is emailed, and the announcement of a confirmed application:
// shared by the signup (which announces again a stored application whose announcement failed)
// and the confirmation route.
import { createHash, randomBytes } from 'node:crypto';
import { FOUNDING_APPLICATION_SUBMITTED, type FoundingApplicationSubmittedV1 } from '../../events/founding';
import { log } from '../shared/log';
import type { FoundingStore, StoredApplication } from './store';

/** A confirmation link's token: 256 random bits, base64url (43 characters). Only its hash is stored. */
export const newConfirmToken = () => randomBytes(32).toString('base64url');
export const confirmTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

interface AnnounceDeps {
  store: FoundingStore;
  publish: (detailType: string, detail: object) => Promise<void>;
}

/** Publishes `FoundingApplication.Submitted`; on failure marks the application so a retry announces it. */
export async function announce(deps: AnnounceDeps, applicationId: string, program: StoredApplication['program'], submittedAt: string) {
  const detail: FoundingApplicationSubmittedV1 = { version: 1, applicationId, program, submittedAt };
  try {
    await deps.publish(FOUNDING_APPLICATION_SUBMITTED, detail);
    await deps.store.markAnnounced(applicationId);
  } catch (err) {
    // Stored but not announced: the applicant's retry (the same link, or the same submission) announces it again.
    log.error('could not announce founding application', err, { applicationId });
    await deps.store.markAnnouncementFailed(applicationId).catch((e) =>
      log.error('could not mark the announcement as failed', e, { applicationId }),
    );
    throw err;
  }
}
