import { MAX_APPLICATION_BYTES, MAX_APPLICATION_IMAGES, MAX_EXAMINED_FILES, PHOTO_LIMITS, ZIP_LIMITS } from '../../../events/founding-values';

const mb = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024))} MB`;
const megapixels = (pixels: number) => `${Math.round(pixels / 1_000_000)} megapixels`;

/**
 * Why a photo or zip entry was not kept: one short sentence a reviewer understands. These land in
 * the application's photoResults and the admin console shows them as they are.
 */
export const REFUSAL = {
  notImage: 'not a JPEG or PNG image',
  undecodable: 'could not be decoded (file is damaged or truncated)',
  tooSmall: (width: number, height: number) =>
    `too small: ${width}x${height}, needs at least ${PHOTO_LIMITS.minSide} px on the shorter side`,
  tooManyPixels: (pixels: number) =>
    `too large: ${megapixels(pixels)}, the limit is ${Math.round(PHOTO_LIMITS.maxPixels / 1_000_000)}`,
  tooManyBytes: (bytes: number, limit: number) => `file too big: ${mb(bytes)}, the limit is ${mb(limit)}`,
  missing: 'file is missing (the upload did not complete)',
  unreadable: 'could not be read from storage',
  overLimit: `more than ${MAX_APPLICATION_IMAGES} valid photos: only the first ${MAX_APPLICATION_IMAGES} are kept`,
  notExamined: `not examined: the application already had ${MAX_APPLICATION_IMAGES} valid photos, ${MAX_EXAMINED_FILES} files or ${MAX_APPLICATION_BYTES / (1024 * 1024)} MB examined`,
  // Zips
  zipUnreadable: 'zip could not be opened (file is damaged or not a zip)',
  zipTooManyEntries: (n: number) => `zip has ${n} entries, the limit is ${ZIP_LIMITS.maxEntries}`,
  zipPathEscapes: 'zip entry path escapes the archive',
  zipNested: 'zip inside a zip is not opened',
  zipEncrypted: 'zip entry is encrypted',
  zipRatio: (ratio: number) =>
    `zip entry compresses ${Math.round(ratio)}:1, more than ${ZIP_LIMITS.maxRatio}:1 (a zip bomb is refused)`,
  zipTotal: `zip contents exceed ${mb(ZIP_LIMITS.maxTotalBytes)} in total`,
  zipEntryDamaged: 'zip entry could not be extracted (the zip is damaged)',
} as const;
