// A hash of an image's pixels (decision 035): what a file dropped on the license check is compared
// by, kept on each license so it outlives the file. Decodes with sharp, so only the functions that
// bundle sharp (`nodeModules: ['sharp']`) import this module.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { LICENSE_CHECK_NOT_AN_IMAGE_MESSAGE } from '../../events/license-check';
import { ValidationError } from './errors';

/**
 * A hash of an image's pixels, not of its file: the same pixels in another file (re-encoded,
 * metadata stripped or changed, another PNG compression) hash the same; any other picture does
 * not. `sha256` is over the width, the height and the pixels as 8-bit RGBA rows, alpha added
 * (opaque) when the file has none, so a grey, palette, 16-bit or RGB copy of the same picture
 * matches too. Colour profiles are ignored: the samples are hashed as stored.
 */
export interface PixelHash {
  width: number;
  height: number;
  sha256: string;
}

/**
 * The most pixels we decode (a file that says it is larger is refused before decoding): delivered
 * images are a few megapixels, and a small compressed file can claim a huge canvas.
 */
export const MAX_DECODED_PIXELS = 40_000_000;

const notAnImage = () => new ValidationError(LICENSE_CHECK_NOT_AN_IMAGE_MESSAGE);

/** The image's size from its header alone (nothing decoded); ValidationError when it is no image sharp reads. */
export async function imageSize(file: Buffer): Promise<{ width: number; height: number }> {
  let size: { width?: number; height?: number };
  try {
    size = await sharp(file).metadata();
  } catch {
    throw notAnImage();
  }
  if (!size.width || !size.height) throw notAnImage();
  return { width: size.width, height: size.height };
}

/** The pixel hash of an image file; ValidationError when it is no image sharp reads or decodes whole. */
export async function pixelHashOf(file: Buffer): Promise<PixelHash> {
  let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    // The samples as stored: a colour profile added, changed or stripped is metadata, not other pixels.
    decoded = await sharp(file, { limitInputPixels: MAX_DECODED_PIXELS, failOn: 'error', ignoreIcc: true })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw notAnImage();
  }
  const { data, info } = decoded;
  if (info.channels !== 4) throw notAnImage();
  const sha256 = createHash('sha256').update(`${info.width}x${info.height}\n`).update(data).digest('base64url');
  return { width: info.width, height: info.height, sha256 };
}
