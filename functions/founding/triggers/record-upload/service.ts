import { PENDING_UPLOAD_SECONDS } from '../../../../events/founding-values';
import { rangeReaderOf, readZipDirectory, UnreadableZipError } from '../../photos/zip-directory';
import { log } from '../../../shared/log';
import type { Bucket } from '../../../shared/s3';
import type { FoundingStore, UploadedObject } from '../../store';
import { folderOfPendingKey } from '../../keys';
import { decodeS3EventKey } from './key';

export interface RecordUploadDeps {
  store: FoundingStore;
  /** The photos bucket: its name (events of other buckets are ignored) and range reads of a zip's directory. */
  photos: Pick<Bucket, 'name' | 'readRange'>;
}

/** The part of EventBridge's S3 `Object Created` event we read. */
export interface ObjectCreatedDetail {
  bucket: { name: string };
  object: { key: string; size?: number; etag?: string };
}

/**
 * Records an uploaded object against its upload session's draft, once: the put is conditional on
 * the key, so an event delivered twice counts once. A zip also records how many photos its
 * directory lists, or why it cannot be used.
 */
export async function recordUpload(deps: RecordUploadDeps, detail: ObjectCreatedDetail): Promise<'recorded' | 'repeat' | 'ignored'> {
  // S3 URL-encodes the key in its events (a space is `+`, `@` is `%40`).
  const key = decodeS3EventKey(detail.object.key);
  if (key === undefined) return 'ignored';
  const folder = folderOfPendingKey(key);
  if (detail.bucket.name !== deps.photos.name || !folder) return 'ignored';
  const size = detail.object.size ?? 0;
  const kind = /\.zip$/i.test(key) ? 'zip' : 'photo';
  const now = deps.store.now();
  const upload: UploadedObject = {
    size,
    etag: detail.object.etag,
    kind,
    uploadedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + PENDING_UPLOAD_SECONDS,
  };
  if (kind === 'zip') {
    try {
      const directory = await readZipDirectory(size, rangeReaderOf(deps.photos, key));
      upload.imageCount = directory.imageCount;
      upload.fileCount = directory.fileCount;
      upload.zipProblems = directory.problems;
    } catch (err) {
      if (!(err instanceof UnreadableZipError)) throw err;
      upload.zipProblems = [err.message];
    }
  }
  if (!(await deps.store.recordUploadedObject(folder, key, upload))) return 'repeat';
  log.info('upload recorded', { kind, size, ...(upload.imageCount !== undefined ? { imageCount: upload.imageCount } : {}) });
  return 'recorded';
}
