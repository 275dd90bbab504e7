// The verified selfie's copy check (functions/founding/identity/copies.ts; docs/identity.md,
// "Verified identity"): a near-copy of a set photo (plain or mirrored hash, or a descriptor alike
// past copySimilarity), of an earlier selfie, or of another application's photo or selfie.
import { FACE_THRESHOLDS } from '../../../events/identity-values';
import type { PhotoAnalysis, SetPhoto } from '../../../functions/founding/faces';
import { copyOf, hashPairOf } from '../../../functions/founding/identity/copies';

/** A 256-bit hash (64 hex digits) with its first `bits` bits flipped from `base`. */
function flipped(base: string, bits: number): string {
  const digits = base.split('').map((d) => parseInt(d, 16));
  for (let i = 0; i < bits; i++) digits[Math.floor(i / 4)] ^= 1 << (i % 4);
  return digits.map((d) => d.toString(16)).join('');
}

const H1 = '0123456789abcdef'.repeat(4);
const H2 = 'fedcba9876543210'.repeat(4);
const H3 = 'a5a5a5a5a5a5a5a5'.repeat(4);

function analysis(hash: string, mirroredHash = flipped(hash, 128), descriptor?: number[]): PhotoAnalysis {
  return {
    width: 600,
    height: 600,
    faceCount: descriptor ? 1 : 0,
    face: descriptor ? ({ confidence: 1, box: { x: 0, y: 0, width: 1, height: 1 }, pixels: 400, share: 0.5, descriptor, sharpness: 300, brightness: 120 } as PhotoAnalysis['face']) : null,
    brightness: 120,
    hash,
    mirroredHash,
  };
}

const set: SetPhoto[] = [
  { id: '0', analysis: analysis(H2) },
  { id: '1', analysis: analysis(H3) },
];

describe('copyOf', () => {
  it('finds a set photo by its hash, within the duplicate distance', () => {
    const selfie = analysis(flipped(H3, FACE_THRESHOLDS.maxDuplicateDistance));
    expect(copyOf(selfie, { set, earlierSelfieHashes: [], others: [] })).toEqual({ kind: 'set-photo', index: 1, distance: FACE_THRESHOLDS.maxDuplicateDistance });
    expect(copyOf(analysis(flipped(H3, FACE_THRESHOLDS.maxDuplicateDistance + 8)), { set, earlierSelfieHashes: [], others: [] })).toBeUndefined();
  });

  it('finds a mirrored set photo', () => {
    const mirrored = flipped(H1, 100);
    const withMirror: SetPhoto[] = [{ id: '4', analysis: analysis(H1, mirrored) }];
    expect(copyOf(analysis(mirrored), { set: withMirror, earlierSelfieHashes: [], others: [] })).toMatchObject({ kind: 'set-photo', index: 4, distance: 0 });
  });

  it('finds a set photo whose face is the same beyond copySimilarity, though re-framed', () => {
    const face = Array.from({ length: 1024 }, (_, i) => Math.sin(i));
    const withFace: SetPhoto[] = [{ id: '2', analysis: analysis(H2, flipped(H2, 128), face) }];
    expect(copyOf(analysis(H1, flipped(H1, 128), face), { set: withFace, earlierSelfieHashes: [], others: [] })).toEqual({ kind: 'set-photo', index: 2, similarity: 1 });
    const other = Array.from({ length: 1024 }, (_, i) => Math.cos(i * 7));
    expect(copyOf(analysis(H1, flipped(H1, 128), other), { set: withFace, earlierSelfieHashes: [], others: [] })).toBeUndefined();
  });

  it('finds an earlier selfie of the application, then another application’s photo or selfie', () => {
    expect(copyOf(analysis(flipped(H1, 3)), { set, earlierSelfieHashes: [hashPairOf(analysis(H1))], others: [] })).toEqual({ kind: 'earlier-selfie', distance: 3 });
    const others = [{ photos: [hashPairOf(analysis(H2))], selfies: [] }, { photos: [], selfies: [hashPairOf(analysis(H1))] }];
    expect(copyOf(analysis(flipped(H1, 5)), { earlierSelfieHashes: [], others })).toEqual({ kind: 'other-application', distance: 5 });
  });

  it('finds nothing in a new photo', () => {
    expect(copyOf(analysis(H1), { set, earlierSelfieHashes: [], others: [{ photos: [hashPairOf(analysis(H2))], selfies: [] }] })).toBeUndefined();
  });
});
