import sharp, { type Metadata } from 'sharp';
import { PHOTO_LIMITS } from '../../../events/founding-values';
import { REFUSAL } from './reasons';
import { sniff } from './sniff';

export type PhotoCheck =
  | { accepted: true; width: number; height: number; photo: Buffer; thumbnail: Buffer }
  | { accepted: false; reason: string; width?: number; height?: number };

/**
 * `limitInputPixels` makes sharp refuse a huge image from its header, before any pixel is
 * decoded; `failOn: 'truncated'` refuses a file whose data ends early instead of padding it grey.
 */
const INPUT = { limitInputPixels: PHOTO_LIMITS.maxPixels, failOn: 'truncated' } as const;

/**
 * Checks one photo by its bytes and re-encodes it: JPEG or PNG by magic bytes, decodable, not
 * over maxPixels, shorter side at least minSide. The stored JPEG is rotated upright from its
 * EXIF orientation and carries no metadata at all (no EXIF, GPS, XMP or ICC comments): sharp
 * drops metadata unless `withMetadata`/`keepExif` is asked for, and we never ask.
 */
export async function checkPhoto(bytes: Buffer): Promise<PhotoCheck> {
  const kind = sniff(bytes.subarray(0, 8));
  if (kind !== 'jpeg' && kind !== 'png') return { accepted: false, reason: REFUSAL.notImage };

  let meta: Metadata;
  try {
    // Header only: cheap, and enough to refuse by size before decoding.
    meta = await sharp(bytes, { ...INPUT, limitInputPixels: false }).metadata();
  } catch {
    return { accepted: false, reason: REFUSAL.undecodable };
  }
  if (meta.format !== (kind === 'jpeg' ? 'jpeg' : 'png') || !meta.width || !meta.height) {
    return { accepted: false, reason: REFUSAL.undecodable };
  }
  const pixels = meta.width * meta.height;
  if (pixels > PHOTO_LIMITS.maxPixels) {
    return { accepted: false, reason: REFUSAL.tooManyPixels(pixels), width: meta.width, height: meta.height };
  }
  // Orientations 5-8 are stored sideways: report the size as people will see the photo.
  const sideways = (meta.orientation ?? 1) >= 5;
  const width = sideways ? meta.height : meta.width;
  const height = sideways ? meta.width : meta.height;
  if (Math.min(width, height) < PHOTO_LIMITS.minSide) {
    return { accepted: false, reason: REFUSAL.tooSmall(width, height), width, height };
  }

  let photo: Buffer;
  try {
    photo = await sharp(bytes, INPUT)
      .rotate()
      .resize({ width: PHOTO_LIMITS.storedMaxSide, height: PHOTO_LIMITS.storedMaxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' }) // PNG transparency has no JPEG equivalent
      // Huffman optimisation costs a fifth of the encode for a few percent of size: skipped.
      .jpeg({ quality: PHOTO_LIMITS.storedQuality, optimiseCoding: false })
      .toBuffer();
  } catch {
    return { accepted: false, reason: REFUSAL.undecodable, width, height };
  }
  // From the re-encoded photo: already upright, smaller, and JPEG shrink-on-load makes it cheap.
  const thumbnail = await sharp(photo)
    .resize({ width: PHOTO_LIMITS.thumbnailSide, height: PHOTO_LIMITS.thumbnailSide, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { accepted: true, width, height, photo, thumbnail };
}
