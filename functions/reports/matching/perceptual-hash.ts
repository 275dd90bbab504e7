// The perceptual hash of a reported or delivered image (decision 059): a DCT hash (pHash) of a
// greyscale square read from the image or from a part of it, as hex. Plain loops over bytes, so
// the same pixels always give the same bits.

/** The side of the greyscale square a hash is computed from. */
const HASH_SOURCE_SIDE = 32;
/** The side of the block of lowest frequencies kept: HASH_BLOCK² bits. */
const HASH_BLOCK = 8;
/** Bits in a hash. */
export const HASH_BITS = HASH_BLOCK * HASH_BLOCK;

/** A greyscale image, one byte a pixel, row by row. */
export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A part of an image in fractions of its width and height (0 to 1). */
export interface Part {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const WHOLE: Part = { left: 0, top: 0, width: 1, height: 1 };

/** Summed-area tables of the images averaged down, kept while the image is. */
const tables = new WeakMap<Grey, Float64Array>();

/** The image's summed-area table: (width + 1) x (height + 1), entry (x, y) the sum of the pixels above and left of it. */
function summedArea(image: Grey): Float64Array {
  let table = tables.get(image);
  if (table) return table;
  const w = image.width + 1;
  table = new Float64Array(w * (image.height + 1));
  for (let y = 0; y < image.height; y++) {
    let row = 0;
    for (let x = 0; x < image.width; x++) {
      row += image.data[y * image.width + x];
      table[(y + 1) * w + x + 1] = table[y * w + x + 1] + row;
    }
  }
  tables.set(image, table);
  return table;
}

/**
 * The part of the image averaged down to side x side pixels: each output pixel the mean of the
 * source pixels its cell covers (weighted by how much of each pixel it covers). The sum over a
 * cell is read from the summed-area table, interpolated between its entries (exact: within a
 * pixel the sum grows linearly along each side).
 */
export function averageDown(image: Grey, part: Part, side: number): Float64Array {
  const table = summedArea(image);
  const w = image.width + 1;
  const clampX = (x: number) => Math.min(Math.max(x, 0), image.width);
  const clampY = (y: number) => Math.min(Math.max(y, 0), image.height);
  const xs = Array.from({ length: side + 1 }, (_, i) => clampX((part.left + (part.width * i) / side) * image.width));
  const ys = Array.from({ length: side + 1 }, (_, i) => clampY((part.top + (part.height * i) / side) * image.height));
  // The sum of the pixels above and left of each corner of the cells.
  const corners = new Float64Array((side + 1) * (side + 1));
  for (let j = 0; j <= side; j++) {
    const y = ys[j];
    const y0 = Math.min(Math.floor(y), image.height - 1);
    const fy = y - y0;
    for (let i = 0; i <= side; i++) {
      const x = xs[i];
      const x0 = Math.min(Math.floor(x), image.width - 1);
      const fx = x - x0;
      const a = table[y0 * w + x0];
      const b = table[y0 * w + x0 + 1];
      const c = table[(y0 + 1) * w + x0];
      const d = table[(y0 + 1) * w + x0 + 1];
      corners[j * (side + 1) + i] = a + fx * (b - a) + fy * (c - a) + fx * fy * (d - c - b + a);
    }
  }
  const out = new Float64Array(side * side);
  for (let j = 0; j < side; j++) {
    for (let i = 0; i < side; i++) {
      const area = (xs[i + 1] - xs[i]) * (ys[j + 1] - ys[j]);
      const k = j * (side + 1) + i;
      const sum = corners[k + side + 2] - corners[k + 1] - corners[k + side + 1] + corners[k];
      out[j * side + i] = area > 0 ? sum / area : 0;
    }
  }
  return out;
}

const cosines = (() => {
  const n = HASH_SOURCE_SIDE;
  const table = new Float64Array(HASH_BLOCK * n);
  for (let u = 0; u < HASH_BLOCK; u++) for (let x = 0; x < n; x++) table[u * n + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n));
  return table;
})();

/** The HASH_BLOCK x HASH_BLOCK lowest frequencies of the DCT-II of a HASH_SOURCE_SIDE square. */
function lowFrequencies(square: Float64Array): Float64Array {
  const n = HASH_SOURCE_SIDE;
  // Rows first: rowsDct[y][u] for the kept u only.
  const rows = new Float64Array(n * HASH_BLOCK);
  for (let y = 0; y < n; y++) {
    for (let u = 0; u < HASH_BLOCK; u++) {
      let s = 0;
      for (let x = 0; x < n; x++) s += square[y * n + x] * cosines[u * n + x];
      rows[y * HASH_BLOCK + u] = s;
    }
  }
  const out = new Float64Array(HASH_BLOCK * HASH_BLOCK);
  for (let v = 0; v < HASH_BLOCK; v++) {
    for (let u = 0; u < HASH_BLOCK; u++) {
      let s = 0;
      for (let y = 0; y < n; y++) s += rows[y * HASH_BLOCK + u] * cosines[v * n + y];
      out[v * HASH_BLOCK + u] = s;
    }
  }
  return out;
}

/**
 * The pHash of a part of the image: the lowest frequencies of the DCT of its greyscale square,
 * one bit each, set when the coefficient is above their median (the constant term, which only
 * says how bright the image is, left out of the median and its bit always 0). HASH_BITS / 4 hex digits.
 */
export function perceptualHash(image: Grey, part: Part = WHOLE): string {
  const coefficients = lowFrequencies(averageDown(image, part, HASH_SOURCE_SIDE));
  const ac = Array.from(coefficients.subarray(1)).sort((a, b) => a - b);
  const median = (ac[(ac.length - 1) >> 1] + ac[ac.length >> 1]) / 2;
  let hex = '';
  for (let i = 0; i < coefficients.length; i += 4) {
    let nibble = 0;
    for (let j = i; j < i + 4; j++) nibble = (nibble << 1) | (j > 0 && coefficients[j] > median ? 1 : 0);
    hex += nibble.toString(16);
  }
  return hex;
}

const BITS_IN_NIBBLE = Array.from({ length: 16 }, (_, n) => (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + ((n >> 3) & 1));

/** Bits that differ between two hashes of equal length (hex strings). */
export function hammingDistance(a: string, b: string): number {
  if (a.length !== b.length) throw new Error('hashes of different lengths');
  let bits = 0;
  for (let i = 0; i < a.length; i++) bits += BITS_IN_NIBBLE[parseInt(a[i], 16) ^ parseInt(b[i], 16)];
  return bits;
}
