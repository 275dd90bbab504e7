// The licensed image files behind the license routes and erasure (decision 035): a license's pixel
// hash, computed from its file the first time it is needed and kept on the license; its thumbnail,
// made once and kept beside the file; and the erasure of a client's files, licenses and generations.
// Decoding (sharp) comes in as a dependency: this module is reached through the wing's index, and
// only the functions that bundle sharp may load it.
import { GENERATION_IMAGES_PREFIX } from '../../events/resource-names';
import type { Bucket } from '../shared/s3';
import { log } from '../shared/log';
import type { PixelHash } from '../shared/pixel-hash';
import type { ClientGenerations, LicenseRecord } from './store';

const isMissing = (err: unknown) => ['NoSuchKey', 'NotFound'].includes((err as { name?: string })?.name ?? '');

/** The file, or undefined when the bucket has no such object. */
async function readIfStored(images: Pick<Bucket, 'read'>, key: string): Promise<Buffer | undefined> {
  try {
    return await images.read(key);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

export interface PixelHashDeps {
  images: Pick<Bucket, 'read'>;
  /** Hashes an image file's pixels (functions/shared/pixel-hash.ts). */
  pixelHashOf(file: Buffer): Promise<PixelHash>;
  keepPixelHash(licenseId: string, hash: PixelHash): Promise<void>;
}

/**
 * The licensed image's pixel hash: the kept one, else computed from the stored file and kept (so
 * delivery need not compute it, and it outlives the file). Undefined when neither is there.
 */
export async function licensePixelHash(deps: PixelHashDeps, license: Pick<LicenseRecord, 'id' | 'key' | 'pixelHash'>): Promise<PixelHash | undefined> {
  if (license.pixelHash) return license.pixelHash;
  const file = await readIfStored(deps.images, license.key);
  if (!file) return undefined;
  const hash = await deps.pixelHashOf(file);
  await deps.keepPixelHash(license.id, hash);
  return hash;
}

/** Where a licensed image's thumbnail is kept: beside the image, so whatever removes the image's folder removes it too. */
const thumbnailKeyOf = (imageKey: string) => `${imageKey.replace(/\.png$/, '')}.thumb.webp`;

/**
 * The license page's thumbnail of a licensed image (WebP): the kept one, else made from the file
 * by `make` and kept beside it. Undefined when the file is not stored.
 */
export async function licenseThumbnail(
  images: Pick<Bucket, 'read' | 'write'>,
  license: Pick<LicenseRecord, 'key'>,
  make: (file: Buffer) => Promise<Buffer>,
): Promise<Buffer | undefined> {
  const key = thumbnailKeyOf(license.key);
  const kept = await readIfStored(images, key);
  if (kept) return kept;
  const file = await readIfStored(images, license.key);
  if (!file) return undefined;
  const thumbnail = await make(file);
  await images.write(key, thumbnail, 'image/webp');
  return thumbnail;
}

/** A generation still being worked on, updated within this long, blocks an erasure (an older one is stuck, not running). */
const RUNNING_FOR_AT_MOST_MS = 60 * 60 * 1000;
const RUNNING = ['queued', 'starting', 'processing'];

/** A generation of the address is running: erasing now would leave the files its delivery writes after. */
export class GenerationRunningError extends Error {
  constructor() {
    super('a generation of this address is running');
    this.name = 'GenerationRunning';
  }
}

/** Throws GenerationRunningError while one of the generations is being worked on. */
export function refuseWhileRunning(found: ClientGenerations, now: Date): void {
  const running = found.generations.some((g) => RUNNING.includes(g.status) && now.getTime() - Date.parse(g.updatedAt) < RUNNING_FOR_AT_MOST_MS);
  if (running) throw new GenerationRunningError();
}

export interface ClientErasureDeps extends PixelHashDeps {
  images: Pick<Bucket, 'read' | 'list' | 'remove'>;
  redactLicense(licenseId: string, at: string): Promise<void>;
  redactGeneration(generationId: string, at: string): Promise<void>;
}

/**
 * Erases a client from their generations (decision 035), in an order a repeated run can finish:
 * first each license's pixel hash is kept (so a file can still be checked against it), then the
 * licenses name ERASED_LICENSEE (from then on no thumbnail is made of them), then every file of
 * their accounts goes (images and thumbnails), and last the generations lose the email, name and
 * prompt (the email is how a repeated run finds the rest).
 */
export async function eraseClientGenerations(
  deps: ClientErasureDeps,
  found: ClientGenerations,
  erasedAt: Date,
): Promise<{ generations: number; licenses: number; images: number }> {
  const at = erasedAt.toISOString();
  for (const license of found.licenses) {
    if (license.erasedAt) continue;
    try {
      await licensePixelHash(deps, license);
    } catch (err) {
      // A file that cannot be decoded cannot be checked either: it goes all the same.
      log.warn('a licensed image could not be hashed before erasure', { licenseId: license.id, error: (err as Error)?.name });
    }
  }
  for (const license of found.licenses) await deps.redactLicense(license.id, at);
  let images = 0;
  for (const accountId of found.accountIds) {
    const keys = await deps.images.list(`${GENERATION_IMAGES_PREFIX}${accountId}/`);
    for (const key of keys) await deps.images.remove(key);
    images += keys.length;
  }
  for (const generation of found.generations) await deps.redactGeneration(generation.id, at);
  return { generations: found.generations.length, licenses: found.licenses.length, images };
}
