// Whether a reported image is a delivered one (decision 059): the same pixels, or a perceptual
// hash within MATCH_THRESHOLD bits of the delivered image's or of one of its parts'.
import type { Fingerprint } from './fingerprint';
import { HASH_BITS, hammingDistance } from './perceptual-hash';

/**
 * The most bits a reported image's perceptual hash may differ from a delivered image's (or one
 * of its parts') and still be taken for it. Measured by `npm run bench:report-matching`.
 */
export const MATCH_THRESHOLD = 10;

export interface Comparison {
  same: boolean;
  /** Bits between the hashes (0 for the same pixels). */
  distance: number;
  how: 'exact-pixels' | 'perceptual';
}

/** The closest of the delivered image's hashes (whole and parts) to the reported image's, in bits. */
export function perceptualDistance(reported: Fingerprint, delivered: Fingerprint): number {
  let best = HASH_BITS;
  for (const hash of [delivered.perceptual, ...delivered.parts]) best = Math.min(best, hammingDistance(reported.perceptual, hash));
  return best;
}

/** Compares a reported image's fingerprint with a delivered image's. */
export function compare(reported: Fingerprint, delivered: Fingerprint): Comparison {
  const p = reported.pixels;
  const d = delivered.pixels;
  if (p.sha256 === d.sha256 && p.width === d.width && p.height === d.height) return { same: true, distance: 0, how: 'exact-pixels' };
  const distance = perceptualDistance(reported, delivered);
  return { same: distance <= MATCH_THRESHOLD, distance, how: 'perceptual' };
}
