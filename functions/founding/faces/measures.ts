// Pixel measures on 8-bit greyscale images, row by row, one byte a pixel: plain loops, so the same
// pixels always give the same numbers.

/** Mean luminance, 0 (black) to 255 (white). */
export function meanLuminance(grey: Uint8Array): number {
  let sum = 0;
  for (const value of grey) sum += value;
  return grey.length === 0 ? 0 : sum / grey.length;
}

/**
 * Variance of the Laplacian (4-neighbour kernel) over the inner pixels: edges in focus give large
 * responses, a blurred image small ones. Depends on the image's scale, so callers resize first.
 */
export function laplacianVariance(grey: Uint8Array, width: number, height: number): number {
  let sum = 0;
  let sumSquares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const response = grey[i - width] + grey[i + width] + grey[i - 1] + grey[i + 1] - 4 * grey[i];
      sum += response;
      sumSquares += response * response;
      count++;
    }
  }
  if (count === 0) return 0;
  const mean = sum / count;
  return sumSquares / count - mean * mean;
}

/** The difference hash reads a greyscale thumbnail of this size: 16 bits a row, 16 rows. */
export const HASH_WIDTH = 17;
export const HASH_HEIGHT = 16;

/**
 * Difference hash (dHash) of a HASH_WIDTH x HASH_HEIGHT thumbnail: one bit per horizontal
 * neighbour pair, set when the left pixel is brighter; 256 bits as 64 hex digits. `mirrored`
 * reads each row from the right, giving the hash of the photo flipped left to right. Re-encoding,
 * resizing, a change of brightness or a light blur barely move it; another photo moves about a
 * third of its bits or more.
 */
export function differenceHash(grey: Uint8Array, mirrored = false): string {
  if (grey.length !== HASH_WIDTH * HASH_HEIGHT) throw new Error(`differenceHash needs ${HASH_WIDTH}x${HASH_HEIGHT} pixels`);
  let hex = '';
  for (let y = 0; y < HASH_HEIGHT; y++) {
    let nibble = 0;
    for (let x = 0; x < HASH_WIDTH - 1; x++) {
      const i = y * HASH_WIDTH + (mirrored ? HASH_WIDTH - 1 - x : x);
      const next = mirrored ? i - 1 : i + 1;
      nibble = (nibble << 1) | (grey[i] > grey[next] ? 1 : 0);
      if (x % 4 === 3) {
        hex += nibble.toString(16);
        nibble = 0;
      }
    }
  }
  return hex;
}

/** Bits that differ between two hashes of equal length (hex strings). */
export function hammingDistance(a: string, b: string): number {
  if (a.length !== b.length) throw new Error('hashes of different lengths');
  let bits = 0;
  for (let i = 0; i < a.length; i++) {
    let x = parseInt(a[i], 16) ^ parseInt(b[i], 16);
    while (x) {
      bits += x & 1;
      x >>= 1;
    }
  }
  return bits;
}
