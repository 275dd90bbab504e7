// Whether a reported image is a delivered one (decision 059): the same pixels; or a perceptual
// hash within CANDIDATE_BITS of the delivered image's (or one of its parts') and, lined up with
// the delivered image, colours that differ by at most MATCH_THRESHOLD.
import { alignedSimilarity } from './alignment';
import type { Fingerprint } from './fingerprint';
import { HASH_BITS, hammingDistance } from './perceptual-hash';

/**
 * The most bits a reported image's perceptual hash may differ from the closest of a delivered
 * image's (whole or part) for the pair to be lined up and verified; further apart, it is another image.
 */
export const CANDIDATE_BITS = 16;

/**
 * The largest distance (1 minus the lined-up colour correlation) at which a reported image is
 * taken for a delivered one. Measured by `npm run bench:report-matching`.
 */
export const MATCH_THRESHOLD = 0.025;

export interface Comparison {
  same: boolean;
  /**
   * 0 for the same pixels; else 1 minus the correlation of the lined-up colours (0 a perfect
   * copy), or 1 when the hashes are more than CANDIDATE_BITS apart (not lined up at all).
   */
  distance: number;
  how: 'exact-pixels' | 'perceptual';
  /** Bits between the reported image's perceptual hash and the closest of the delivered image's. */
  bits: number;
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
  if (p.sha256 === d.sha256 && p.width === d.width && p.height === d.height) return { same: true, distance: 0, how: 'exact-pixels', bits: 0 };
  const bits = perceptualDistance(reported, delivered);
  if (bits > CANDIDATE_BITS) return { same: false, distance: 1, how: 'perceptual', bits };
  const distance = Math.max(0, Math.round((1 - alignedSimilarity(reported.thumbnail, delivered.thumbnail)) * 10_000) / 10_000);
  return { same: distance <= MATCH_THRESHOLD, distance, how: 'perceptual', bits };
}
