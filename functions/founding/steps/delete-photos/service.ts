import { DELETION_TAG } from '../../../../events/founding-values';
import { redactVerification } from '../../identity/redaction';
import { applicationPrefix } from '../../keys';
import type { FoundingStore } from '../../store';
import { log } from '../../../shared/log';
import type { Bucket } from '../../../shared/s3';

/**
 * Workflow step MarkPhotosForDeletion (a rejected application, before the retention wait): redacts
 * the application's ID verification at Stripe (docs/identity.md, "Verified identity"), and tags
 * the stored photos and thumbnails `retention=delete`, so the bucket's lifecycle rule expires them
 * even if the wait never ends in DeletePhotos (decision 017). Safe to repeat.
 */
export async function markPhotosForDeletion(deps: { store: FoundingStore; storage: Bucket; stripe: Parameters<typeof redactVerification>[0]['stripe'] }, applicationId: string): Promise<{ marked: number }> {
  const app = await deps.store.getApplication(applicationId);
  // Refused: Stripe's copy of the ID verification is redacted now (decision 056); a session Stripe
  // is still checking fails the step, and the workflow's retries come back to it.
  await redactVerification(deps, app);
  const keys = await deps.storage.list(applicationPrefix(applicationId));
  for (let i = 0; i < keys.length; i += 10) {
    await Promise.all(keys.slice(i, i + 10).map((k) => deps.storage.tag(k, { [DELETION_TAG.key]: DELETION_TAG.value })));
  }
  if (!app.photosMarkedAt) {
    await deps.store.recordPhotosMarked(applicationId);
    await deps.store.addHistory(applicationId, 'photos marked for deletion', { note: `${keys.length} objects` });
  }
  log.info('application photos marked for deletion', { applicationId, objects: keys.length });
  return { marked: keys.length };
}

/** Workflow steps DeletePhotos and DeleteInvalidPhotos (functions/founding/photo-deletion.ts). */
export { deletePhotos } from '../../photo-deletion';
