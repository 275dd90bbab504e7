// The deletion of an application's photos (docs/founding-pipeline.md, docs/identity.md "What is
// stored"): the workflow's DeletePhotos step (a rejected application after the retention wait, an
// invalid one at once) and the removal of an accepted talent's likeness
// (triggers/delete-removed-likeness-photos) both call it.
import { applicationPrefix, pendingPrefix } from './keys';
import type { FoundingStore } from './store';
import { log } from '../shared/log';
import type { Bucket } from '../shared/s3';

/**
 * Deletes everything stored under `applications/{id}/` (photos, thumbnails, and the proof of
 * person's selfie and sealed face analyses under `identity/`) and any original upload of the
 * application still pending, and its perceptual hashes; records `photosDeletedAt` and a history
 * line once. Safe to repeat.
 */
export async function deletePhotos(
  deps: { store: Pick<FoundingStore, 'getApplication' | 'recordPhotosDeleted' | 'addHistory' | 'deleteImageHashes'>; storage: Pick<Bucket, 'list' | 'remove'> },
  applicationId: string,
): Promise<{ deleted: number }> {
  const app = await deps.store.getApplication(applicationId);
  const own = pendingPrefix(app.uploadFolder ?? '');
  const keys = [...(await deps.storage.list(applicationPrefix(applicationId))), ...(app.imagePaths ?? []).filter((k) => k.startsWith(own))];
  for (let i = 0; i < keys.length; i += 10) {
    await Promise.all(keys.slice(i, i + 10).map((k) => deps.storage.remove(k)));
  }
  // The photos' and selfies' perceptual hashes (the copy check's) go with them.
  await deps.store.deleteImageHashes(applicationId);
  if (!app.photosDeletedAt) {
    await deps.store.recordPhotosDeleted(applicationId);
    await deps.store.addHistory(applicationId, 'photos deleted');
  }
  log.info('application photos deleted', { applicationId, objects: keys.length });
  return { deleted: keys.length };
}
