// Where a delivered image's fingerprint is indexed and where a reported image looks for it
// (decision 059), so a report reads a few index entries instead of every delivered image: the
// exact-pixel hash, and the perceptual hashes cut in BANDS bands. Two hashes within
// BANDS - 1 bits share a band whole (pigeonhole); a reported image also looks under each band
// with one bit flipped, so any hash within 2 * BANDS - 1 bits of a delivered one is found.
import type { Fingerprint } from './fingerprint';
import { HASH_BITS } from './perceptual-hash';

/** The bands a perceptual hash is cut in for the index (HASH_BITS / BANDS bits each). */
const BANDS = 4;
const BAND_DIGITS = HASH_BITS / 4 / BANDS;

const pixelKey = (fp: Fingerprint) => `px#${fp.pixels.width}x${fp.pixels.height}#${fp.pixels.sha256}`;
const bandKey = (band: number, hex: string) => `ph${band}#${hex}`;
const bandsOf = (hash: string) => Array.from({ length: BANDS }, (_, b) => hash.slice(b * BAND_DIGITS, (b + 1) * BAND_DIGITS));

/** The band with each of its bits flipped in turn. */
function flipsOf(band: string): string[] {
  const value = parseInt(band, 16);
  const bits = band.length * 4;
  return Array.from({ length: bits }, (_, bit) => (value ^ (1 << bit)).toString(16).padStart(band.length, '0'));
}

/** The keys a delivered image is indexed under: its pixels, and each band of its hashes (whole and parts). */
export function indexKeys(fp: Fingerprint): string[] {
  const keys = new Set([pixelKey(fp)]);
  for (const hash of [fp.perceptual, ...fp.parts]) bandsOf(hash).forEach((band, b) => keys.add(bandKey(b, band)));
  return [...keys];
}

/** The keys a reported image looks under: its pixels, and each band of its whole hash, as it is and with one bit flipped. */
export function candidateKeys(fp: Fingerprint): string[] {
  const keys = new Set([pixelKey(fp)]);
  bandsOf(fp.perceptual).forEach((band, b) => {
    keys.add(bandKey(b, band));
    for (const flipped of flipsOf(band)) keys.add(bandKey(b, flipped));
  });
  return [...keys];
}
