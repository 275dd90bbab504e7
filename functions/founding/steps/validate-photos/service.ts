import type { PhotoResult } from '../../../../events/founding';
import { MIN_APPLICATION_IMAGES } from '../../../../events/founding-values';
import { pendingPrefix } from '../../keys';
import type { FoundingStore } from '../../store';
import { log } from '../../../shared/log';
import type { Bucket } from '../../../shared/s3';
import { validateObjects } from '../../photos/validate';

export interface ValidatePhotosDeps {
  store: FoundingStore;
  storage: Bucket;
  concurrency?: number;
  tmpDir?: string;
}

export interface ValidatePhotosResult {
  applicationId: string;
  validCount: number;
  rejectedCount: number;
  enough: boolean;
}

const NOT_OWN = 'not an upload of this application';

/**
 * The workflow's first step: checks every uploaded photo and zip of the application, stores the
 * accepted photos re-encoded without metadata, records the per-photo results and the status
 * (still `validating` with at least MIN_APPLICATION_IMAGES valid photos: the proof of person and
 * then the review's wait set what follows; else `invalid`), and
 * deletes the originals. A retry after the results were recorded returns them unchanged.
 */
export async function validatePhotos(deps: ValidatePhotosDeps, applicationId: string): Promise<ValidatePhotosResult> {
  const app = await deps.store.getApplication(applicationId);
  const own = pendingPrefix(app.uploadFolder ?? '');
  const uploads = (app.imagePaths ?? []).filter((k) => k.startsWith(own) && !k.slice(own.length).includes('/'));

  if (app.photoResults) {
    await removeOriginals(deps, uploads);
    return summary(applicationId, app.validPhotoCount ?? 0, app.rejectedPhotoCount ?? 0);
  }

  const started = Date.now();
  const outcome = await validateObjects({ storage: deps.storage, concurrency: deps.concurrency, tmpDir: deps.tmpDir }, applicationId, uploads);
  // Keys outside the applicant's own prefix were refused at signup; never read them here.
  const foreign: PhotoResult[] = (app.imagePaths ?? []).filter((k) => !uploads.includes(k)).map((source) => ({ source, accepted: false, reason: NOT_OWN }));
  const results = [...outcome.results, ...foreign];
  const validCount = outcome.validCount;
  const rejectedCount = results.length - validCount;
  const enough = validCount >= MIN_APPLICATION_IMAGES;
  const recorded = await deps.store.recordValidation(applicationId, {
    photoResults: results,
    validPhotoCount: validCount,
    rejectedPhotoCount: rejectedCount,
    // Enough photos: still being checked (the proof of person) until the review waits for a decision.
    status: enough ? 'validating' : 'invalid',
    validatedAt: deps.store.now().toISOString(),
  });
  if (!recorded) {
    // A concurrent run recorded its results first: report those.
    const first = await deps.store.getApplication(applicationId);
    return summary(applicationId, first.validPhotoCount ?? 0, first.rejectedPhotoCount ?? 0);
  }
  await deps.store.addHistory(applicationId, 'validated', {
    note: `${validCount} photos accepted, ${rejectedCount} refused${enough ? '' : `: fewer than ${MIN_APPLICATION_IMAGES}`}`,
  });
  log.info('photos validated', { applicationId, validCount, rejectedCount, enough, ms: Date.now() - started });
  await removeOriginals(deps, uploads);
  return { applicationId, validCount, rejectedCount, enough };
}

function summary(applicationId: string, validCount: number, rejectedCount: number): ValidatePhotosResult {
  return { applicationId, validCount, rejectedCount, enough: validCount >= MIN_APPLICATION_IMAGES };
}

async function removeOriginals(deps: ValidatePhotosDeps, keys: string[]) {
  for (let i = 0; i < keys.length; i += 10) {
    await Promise.all(keys.slice(i, i + 10).map((k) => deps.storage.remove(k)));
  }
}

