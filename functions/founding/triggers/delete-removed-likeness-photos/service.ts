// The founding wing's part of a likeness removal (docs/identity.md "What is stored"): once the
// likeness schedule carried out a talent's removal, the application the talent came from loses
// its photos, thumbnails and proof-of-person objects (the selfie and the sealed face analyses),
// everything under its prefix; the application itself records `photosDeletedAt`.
import type { LikenessRemovedV1 } from '../../../../events/likeness-events';
import { log } from '../../../shared/log';
import { deletePhotos } from '../../photo-deletion';
import { ApplicationNotFoundError } from '../../store';

type PhotoDeletionDeps = Parameters<typeof deletePhotos>[0];

/**
 * Consumer of `Likeness.Removed`. A seeded talent came from no application: nothing to delete
 * (logged). An application already erased has nothing left either. Safe to repeat: the deletion
 * lists what is left and records its time once.
 */
export async function deleteRemovedLikenessPhotos(deps: PhotoDeletionDeps, event: LikenessRemovedV1): Promise<{ deleted: number }> {
  if (!event.applicationId) {
    log.info('removed likeness came from no application: no photos to delete', { talentId: event.talentId });
    return { deleted: 0 };
  }
  try {
    return await deletePhotos(deps, event.applicationId);
  } catch (err) {
    if (!(err instanceof ApplicationNotFoundError)) throw err;
    log.warn('the removed likeness\'s application no longer exists: no photos to delete', { talentId: event.talentId, applicationId: event.applicationId });
    return { deleted: 0 };
  }
}
