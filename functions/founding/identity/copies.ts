// Whether a verified selfie is a copy rather than a new photo (docs/identity.md, "Verified
// identity"): a near-copy of a photo of the set, of an earlier selfie of the application, or of
// another application's photo or selfie. Perceptual hashes (plain or mirrored) within
// FACE_THRESHOLDS.maxDuplicateDistance bits, or face descriptors at least copySimilarity alike
// where we hold them (the set, the earlier selfie): a live selfie of the same person is alike, not
// that alike.
import type { CopyOf } from '../../../events/identity';
import { FACE_THRESHOLDS } from '../../../events/identity-values';
import { descriptorSimilarity, hammingDistance, type PhotoAnalysis, type SetPhoto } from '../faces';

/** A photo's two hashes as the hash items keep them: `hash:mirroredHash`. */
export const hashPairOf = (analysis: Pick<PhotoAnalysis, 'hash' | 'mirroredHash'>) => `${analysis.hash}:${analysis.mirroredHash}`;

/** Differing bits between the selfie and a photo, the photo plain or mirrored. */
function distanceTo(selfie: Pick<PhotoAnalysis, 'hash'>, pair: string): number {
  const [hash, mirrored] = pair.split(':') as [string, string | undefined];
  if (hash.length !== selfie.hash.length) return Infinity;
  return Math.min(hammingDistance(selfie.hash, hash), mirrored && mirrored.length === hash.length ? hammingDistance(selfie.hash, mirrored) : Infinity);
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** How alike the two faces are, when both have one. */
function similarityOf(a: PhotoAnalysis, b: PhotoAnalysis): number | undefined {
  return a.face && b.face && a.faceCount === 1 && b.faceCount === 1 ? descriptorSimilarity(a.face.descriptor, b.face.descriptor) : undefined;
}

interface CopyCandidates {
  /** The application's set, as checked. */
  set?: readonly SetPhoto[];
  /** The application's earlier selfie's analysis (the newest), and every earlier selfie's hashes. */
  earlierSelfie?: PhotoAnalysis;
  earlierSelfieHashes: readonly string[];
  /** Other applications' photo and selfie hashes. */
  others: ReadonlyArray<{ photos: readonly string[]; selfies: readonly string[] }>;
}

/** What the selfie copies, first found: a set photo, an earlier selfie, another application's image; undefined for a new photo. */
export function copyOf(selfie: PhotoAnalysis, candidates: CopyCandidates): CopyOf | undefined {
  const maxDistance = FACE_THRESHOLDS.maxDuplicateDistance;
  const minSimilarity = FACE_THRESHOLDS.copySimilarity;
  for (const photo of candidates.set ?? []) {
    const index = Number(photo.id);
    const distance = distanceTo(selfie, hashPairOf(photo.analysis));
    if (distance <= maxDistance) return { kind: 'set-photo', index, distance };
    const similarity = similarityOf(selfie, photo.analysis);
    if (similarity !== undefined && similarity >= minSimilarity) return { kind: 'set-photo', index, similarity: round2(similarity) };
  }
  if (candidates.earlierSelfie) {
    const similarity = similarityOf(selfie, candidates.earlierSelfie);
    if (similarity !== undefined && similarity >= minSimilarity) return { kind: 'earlier-selfie', similarity: round2(similarity) };
  }
  for (const pair of candidates.earlierSelfieHashes) {
    const distance = distanceTo(selfie, pair);
    if (distance <= maxDistance) return { kind: 'earlier-selfie', distance };
  }
  for (const other of candidates.others) {
    for (const pair of [...other.photos, ...other.selfies]) {
      const distance = distanceTo(selfie, pair);
      if (distance <= maxDistance) return { kind: 'other-application', distance };
    }
  }
  return undefined;
}
