// What a reported or delivered image is recognised by (decision 059): the exact-pixel hash
// (functions/shared/pixel-hash.ts) and perceptual hashes of the whole image and of parts of it.
// Decodes with sharp, so only the functions that bundle sharp import this module.
import sharp from 'sharp';
import { LICENSE_CHECK_NOT_AN_IMAGE_MESSAGE } from '../../../events/license-check';
import { UnsupportedMediaTypeError, ValidationError } from '../../shared/errors';
import { MAX_DECODED_PIXELS, pixelHashOf, type PixelHash } from '../../shared/pixel-hash';
import { type Grey, type Part, perceptualHash } from './perceptual-hash';

/** The file is no image sharp reads and decodes whole (a 415: send a PNG, JPEG or WebP file). */
export class NotAnImageError extends UnsupportedMediaTypeError {
  constructor() {
    super(LICENSE_CHECK_NOT_AN_IMAGE_MESSAGE);
  }
}

/**
 * An image's fingerprint, plain JSON (kept as it is in DynamoDB). `perceptual` is the pHash of
 * the whole image; `parts` the pHashes of PARTS, in that order: a reported copy cropped by a tenth
 * is compared with the part of the delivered image it kept.
 */
export interface Fingerprint {
  pixels: PixelHash;
  perceptual: string;
  parts: string[];
}

/**
 * The parts of an image hashed beside the whole (fractions of its width and height): the nine
 * nine-tenths squares (cropped from each side, a corner or around the centre) and the four
 * nine-tenths strips (one side cut, left, right, top or bottom).
 */
export const PARTS: readonly Part[] = [
  ...[0, 0.05, 0.1].flatMap((top) => [0, 0.05, 0.1].map((left) => ({ left, top, width: 0.9, height: 0.9 }))),
  { left: 0, top: 0, width: 0.9, height: 1 },
  { left: 0.1, top: 0, width: 0.9, height: 1 },
  { left: 0, top: 0, width: 1, height: 0.9 },
  { left: 0, top: 0.1, width: 1, height: 0.9 },
];

/** The greyscale square every hash reads its parts from (the image stretched to it). */
const WORK_SIDE = 128;

async function greyOf(file: Buffer): Promise<Grey> {
  try {
    const { data, info } = await sharp(file, { limitInputPixels: MAX_DECODED_PIXELS, failOn: 'error' })
      .rotate()
      .flatten({ background: '#ffffff' })
      .greyscale()
      .resize(WORK_SIDE, WORK_SIDE, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const grey = new Uint8Array(info.width * info.height);
    for (let i = 0; i < grey.length; i++) grey[i] = data[i * info.channels];
    return { data: grey, width: info.width, height: info.height };
  } catch {
    throw new NotAnImageError();
  }
}

/** The fingerprint of an image file; NotAnImageError when it is no image sharp reads. */
export async function fingerprintImage(file: Buffer): Promise<Fingerprint> {
  let pixels: PixelHash;
  try {
    pixels = await pixelHashOf(file);
  } catch (err) {
    if (err instanceof ValidationError) throw new NotAnImageError();
    throw err;
  }
  const grey = await greyOf(file);
  return { pixels, perceptual: perceptualHash(grey), parts: PARTS.map((part) => perceptualHash(grey, part)) };
}
