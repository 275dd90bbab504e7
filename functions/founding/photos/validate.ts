import { randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { PhotoResult } from '../../../events/founding';
import { MAX_APPLICATION_BYTES, MAX_APPLICATION_IMAGES, MAX_EXAMINED_FILES, MAX_PHOTO_BYTES, MAX_ZIP_BYTES } from '../../../events/founding-values';
import { photoKey, thumbnailKey } from '../keys';
import { checkPhoto } from './image';
import { taskPool } from './limit';
import { REFUSAL } from './reasons';
import { sniff } from './sniff';
import type { Bucket } from '../../shared/s3';
import { readZip, type ZipItem } from './zip';

// Lambda reuses containers: libvips' operation cache would only hold on to memory between photos.
sharp.cache(false);

export interface ValidateObjectsDeps {
  storage: Bucket;
  /** Photos decoded and encoded at once (default 4). */
  concurrency?: number;
  /** Where big zips are spooled (default os.tmpdir()). */
  tmpDir?: string;
  /** The stored index of the first photo (replacement photos follow the application's others). */
  firstIndex?: number;
}

export interface ValidationOutcome {
  /** Uploads in order, then the entries of zips (in central-directory order). */
  results: PhotoResult[];
  validCount: number;
  rejectedCount: number;
}

/**
 * Checks the uploaded objects `keys` of application `applicationId` and stores each accepted
 * photo re-encoded (no metadata) at `applications/{id}/photos/{index}.jpg` plus its thumbnail.
 * The index is the photo's position among everything examined, so a retry writes the same keys.
 * Objects are told apart by their bytes: a JPEG or PNG is a photo, a zip is opened, anything
 * else is refused. It stops as signup counts (decision 013): after MAX_APPLICATION_IMAGES accepted
 * photos, MAX_EXAMINED_FILES files (photos and zip entries alike) or MAX_APPLICATION_BYTES read,
 * whatever is left is reported as not examined, so a run ends well inside the step's time-out.
 * Throws only when storage fails (the step is then retried).
 */
export async function validateObjects(deps: ValidateObjectsDeps, applicationId: string, keys: readonly string[]): Promise<ValidationOutcome> {
  const pool = taskPool(deps.concurrency ?? 4);
  /** Slots by position; the position of an accepted photo is its stored index. */
  const results: Array<PhotoResult | undefined> = [];
  const reserve = () => results.push(undefined) - 1;
  const refuse = (source: string, reason: string) => {
    results[reserve()] = { source, accepted: false, reason };
  };
  // What has been taken on so far; checked before each file, so at most `concurrency` photos in
  // flight can pass MAX_APPLICATION_IMAGES (the surplus is dropped below).
  let examined = 0;
  let accepted = 0;
  let bytesRead = 0;
  const full = () => examined >= MAX_EXAMINED_FILES || accepted >= MAX_APPLICATION_IMAGES || bytesRead > MAX_APPLICATION_BYTES;
  const examine = async (index: number, source: string, bytes: Buffer) => {
    const stored = (deps.firstIndex ?? 0) + index;
    const check = await checkPhoto(bytes);
    if (!check.accepted) {
      results[index] = { source, accepted: false, reason: check.reason, width: check.width, height: check.height };
      return;
    }
    await Promise.all([
      deps.storage.write(photoKey(applicationId, stored), check.photo, 'image/jpeg'),
      deps.storage.write(thumbnailKey(applicationId, stored), check.thumbnail, 'image/jpeg'),
    ]);
    results[index] = { source, accepted: true, width: check.width, height: check.height, index: stored };
    accepted += 1;
  };

  // Pass 1: every upload, `concurrency` at a time (download, check, store). Zips are only
  // recognised here (by their bytes) and opened in pass 2, one at a time.
  const zips: Array<{ key: string; size: number; index: number }> = [];
  for (const key of keys) {
    const index = reserve();
    if (full()) {
      results[index] = { source: key, accepted: false, reason: REFUSAL.notExamined };
      continue;
    }
    examined += 1;
    await pool.start(async () => {
      const size = await deps.storage.size(key);
      bytesRead += size ?? 0;
      if (size === undefined) {
        results[index] = { source: key, accepted: false, reason: REFUSAL.missing };
      } else if (size > MAX_ZIP_BYTES) {
        results[index] = { source: key, accepted: false, reason: REFUSAL.tooManyBytes(size, MAX_ZIP_BYTES) };
      } else if (size > MAX_PHOTO_BYTES) {
        examined -= 1; // a zip counts by its entries, in pass 2
        zips.push({ key, size, index }); // only a zip may be this big; pass 2 finds out
      } else {
        const bytes = await deps.storage.read(key);
        if (sniff(bytes.subarray(0, 4)) === 'zip') {
          examined -= 1;
          zips.push({ key, size, index });
        }
        else await examine(index, key, bytes);
      }
    });
  }
  await pool.drain();

  // Pass 2: zips in upload order; their entries are checked `concurrency` at a time while the
  // next entries are read.
  zips.sort((a, b) => keys.indexOf(a.key) - keys.indexOf(b.key));
  for (const { key, size, index: zipIndex } of zips) {
    const onItem = async (item: ZipItem): Promise<void | 'stop'> => {
      const source = `${key}#${item.path}`;
      // The zip itself was counted in pass 1; each of its entries counts as a file of its own.
      if (full()) return 'stop';
      examined += 1;
      if ('reason' in item) return refuse(source, item.reason);
      const index = reserve();
      await pool.start(() => examine(index, source, item.bytes));
    };
    if (full()) {
      results[zipIndex] = { source: key, accepted: false, reason: REFUSAL.notExamined };
      continue;
    }
    let error: string | undefined;
    let stopped: boolean | undefined;
    if (size <= MAX_PHOTO_BYTES) {
      ({ error, stopped } = await readZip(await deps.storage.read(key), onItem));
    } else {
      // Spooled to disk, never held in memory: up to MAX_ZIP_BYTES.
      const file = join(deps.tmpDir ?? tmpdir(), `upload-${randomUUID()}`);
      try {
        await deps.storage.download(key, file);
        if ((await fileHead(file)) === 'zip') ({ error, stopped } = await readZip(file, onItem));
        else error = REFUSAL.tooManyBytes(size, MAX_PHOTO_BYTES);
      } finally {
        await rm(file, { force: true });
      }
    }
    // A zip refused whole (unreadable, too many entries), or a big upload that is no zip, is
    // reported as itself, in its place among the uploads.
    if (error) results[zipIndex] = { source: key, accepted: false, reason: error };
    // The limits were reached inside the zip: the rest of it was not examined.
    else if (stopped) results[zipIndex] = { source: key, accepted: false, reason: REFUSAL.notExamined };
  }
  await pool.drain();

  // A zip can hold more photos than an application may have: keep the first ones only.
  const listed = results.filter((r): r is PhotoResult => r !== undefined);
  let kept = 0;
  for (const r of listed) {
    if (!r.accepted || ++kept <= MAX_APPLICATION_IMAGES) continue;
    await Promise.all([deps.storage.remove(photoKey(applicationId, r.index!)), deps.storage.remove(thumbnailKey(applicationId, r.index!))]);
    Object.assign(r, { accepted: false, reason: REFUSAL.overLimit });
    delete r.index;
  }
  const validCount = listed.filter((r) => r.accepted).length;
  return { results: listed, validCount, rejectedCount: listed.length - validCount };
}

async function fileHead(file: string) {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(8);
    await handle.read(head, 0, 8, 0);
    return sniff(head);
  } finally {
    await handle.close();
  }
}
