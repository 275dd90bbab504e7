// What a reported or delivered image is recognised by (decision 059): the exact-pixel hash
// (functions/shared/pixel-hash.ts), perceptual hashes of the whole image and of parts of it, and
// a small colour thumbnail that a close pair is verified by.
// Decodes with sharp, so only the functions that bundle sharp import this module.
import sharp from 'sharp';
import { LICENSE_CHECK_NOT_AN_IMAGE_MESSAGE } from '../../../events/license-check';
import { UnsupportedMediaTypeError, ValidationError } from '../../shared/errors';
import { MAX_DECODED_PIXELS, pixelHashOf, type PixelHash } from '../../shared/pixel-hash';
import { THUMBNAIL_SIDE } from './alignment';
import { PARTS } from './parts';
import { averageDown, type Grey, perceptualHash, WHOLE } from './perceptual-hash';

/** The file is no image sharp reads and decodes whole (a 415: send a PNG, JPEG or WebP file). */
export class NotAnImageError extends UnsupportedMediaTypeError {
  constructor() {
    super(LICENSE_CHECK_NOT_AN_IMAGE_MESSAGE);
  }
}

/**
 * An image's fingerprint, plain JSON (kept as it is in DynamoDB, about 10 KB). `perceptual` is
 * the pHash of the whole image; `parts` the pHashes of PARTS, in that order: a reported copy
 * cropped by a tenth is close to the part of the delivered image it kept. `thumbnail` is the image
 * as THUMBNAIL_SIDE x THUMBNAIL_SIDE RGB pixels (base64, row by row), what a close pair is
 * verified by once aligned (alignment.ts).
 */
export interface Fingerprint {
  pixels: PixelHash;
  perceptual: string;
  parts: string[];
  thumbnail: string;
}

/** The square every hash and the thumbnail read from (the image stretched to it). */
const WORK_SIDE = 128;

/** The image upright, on white where it is transparent, stretched to WORK_SIDE square: its luma and its three colour planes. */
async function planesOf(file: Buffer): Promise<{ luma: Grey; colours: Grey[] }> {
  let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    decoded = await sharp(file, { limitInputPixels: MAX_DECODED_PIXELS, failOn: 'error' })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize(WORK_SIDE, WORK_SIDE, { fit: 'fill' })
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new NotAnImageError();
  }
  const { data, info } = decoded;
  const n = info.width * info.height;
  const plane = () => ({ data: new Uint8Array(n), width: info.width, height: info.height });
  const luma = plane();
  const colours = [plane(), plane(), plane()];
  for (let i = 0; i < n; i++) {
    const at = i * info.channels;
    // A one-channel (grey) decode is its own red, green and blue.
    const [r, g, b] = info.channels >= 3 ? [data[at], data[at + 1], data[at + 2]] : [data[at], data[at], data[at]];
    colours[0].data[i] = r;
    colours[1].data[i] = g;
    colours[2].data[i] = b;
    luma.data[i] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
  }
  return { luma, colours };
}

/** The RGB thumbnail of the colour planes, base64. */
function thumbnailOf(colours: Grey[]): string {
  const side = THUMBNAIL_SIDE;
  const out = Buffer.alloc(side * side * 3);
  colours.forEach((plane, c) => averageDown(plane, WHOLE, side).forEach((value, i) => (out[i * 3 + c] = Math.round(value))));
  return out.toString('base64');
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
  const { luma, colours } = await planesOf(file);
  return { pixels, perceptual: perceptualHash(luma), parts: PARTS.map((part) => perceptualHash(luma, part)), thumbnail: thumbnailOf(colours) };
}
