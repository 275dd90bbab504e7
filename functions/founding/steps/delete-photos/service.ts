import { DELETION_TAG } from '../../../../events/founding-values';
import { applicationPrefix } from '../../keys';
import type { FoundingStore } from '../../store';
import { log } from '../../../shared/log';
import type { Bucket } from '../../../shared/s3';

/**
 * Workflow step MarkPhotosForDeletion (a rejected application, before the retention wait): tags
 * the stored photos and thumbnails `retention=delete`, so the bucket's lifecycle rule expires them
 * even if the wait never ends in DeletePhotos (decision 017). Safe to repeat.
 */
export async function markPhotosForDeletion(deps: { store: FoundingStore; storage: Bucket }, applicationId: string): Promise<{ marked: number }> {
  const app = await deps.store.getApplication(applicationId);
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
