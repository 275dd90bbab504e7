// The photo sets that integration and browser tests upload (test/support/face-photos.ts) are what
// they claim, judged by the product itself: the photo validation (functions/founding/photos) and
// the face checks (functions/founding/faces) on the photos as the validation stores them. The
// model loads once for the file.
import { PHOTO_LIMITS } from '../../../events/founding-values';
import { FACE_THRESHOLDS } from '../../../events/identity-values';
import { analyzePhoto, assessSet, loadFaceModel, matchSelfie, type PhotoAnalysis, type SetPhoto } from '../../../functions/founding/faces';
import { hammingDistance } from '../../../functions/founding/faces/measures';
import { checkPhoto } from '../../../functions/founding/photos/image';
import { badPhotos, personSet, selfieOf, strangerSelfie } from '../../support/face-photos';

type Bad = Awaited<ReturnType<typeof badPhotos>>;

let set: Buffer[];
let bad: Bad;
/** The analyses of the 40 photos as stored by the validation, in set order. */
let analyses: PhotoAnalysis[];

const isJpeg = (bytes: Buffer) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/** The photo as the validation stores it; fails the test when the validation refuses it. */
async function stored(bytes: Buffer): Promise<Buffer> {
  const check = await checkPhoto(bytes);
  if (!check.accepted) throw new Error(`the photo validation refused a test photo: ${check.reason}`);
  return check.photo;
}

const analyseStored = async (bytes: Buffer) => analyzePhoto(await stored(bytes));
const asSet = (list: PhotoAnalysis[], prefix = 'photo') => list.map((analysis, i): SetPhoto => ({ id: `${prefix}-${i}`, analysis }));
const codes = (photos: SetPhoto[]) => Object.fromEntries(assessSet(photos).photos.map((p) => [p.id, p.findings.map((f) => f.code)]));
/** Differing bits between two photos' hashes, the mirrored one included (as the duplicate check reads them). */
const distance = (a: PhotoAnalysis, b: PhotoAnalysis) => Math.min(hammingDistance(a.hash, b.hash), hammingDistance(a.hash, b.mirroredHash));

beforeAll(async () => {
  await loadFaceModel();
  set = await personSet(40);
  bad = await badPhotos();
  analyses = [];
  for (const photo of set) analyses.push(await analyseStored(photo));
}, 180_000);

describe('every photo', () => {
  it('is a JPEG the photo validation accepts, its shorter side at least PHOTO_LIMITS.minSide', async () => {
    const all = [...set, bad.noFace, bad.twoFaces, ...bad.otherPerson, bad.blurred, bad.dark, await selfieOf(), await strangerSelfie()];
    for (const photo of all) {
      expect(isJpeg(photo)).toBe(true);
      const check = await checkPhoto(photo);
      expect(check).toMatchObject({ accepted: true });
      if (check.accepted) expect(Math.min(check.width, check.height)).toBeGreaterThanOrEqual(PHOTO_LIMITS.minSide);
    }
  });
});

describe('personSet', () => {
  it('gives 32 usable photos of one person, with no finding at all', async () => {
    const photos = await personSet(32);
    expect(photos).toHaveLength(32);
    photos.forEach((photo, i) => expect(photo.equals(set[i])).toBe(true));
    const result = assessSet(asSet(analyses.slice(0, 32)));
    expect(result.summary).toMatchObject({ total: 32, usable: 32 });
    expect(Object.values(result.summary.findings).every((n) => n === 0)).toBe(true);
    expect(result.person).toEqual(photos.map((_, i) => `photo-${i}`));
  });

  it('gives up to 40 photos, and every smaller set (the start of the larger one) is all usable too', () => {
    for (let n = 1; n <= 40; n++) {
      const found = codes(asSet(analyses.slice(0, n)));
      expect({ n, found }).toEqual({ n, found: Object.fromEntries(Array.from({ length: n }, (_, i) => [`photo-${i}`, []])) });
    }
  });

  it('holds no near-duplicates: every two photos differ by more than maxDuplicateDistance bits', () => {
    let closest = Infinity;
    for (let i = 0; i < analyses.length; i++) for (let j = 0; j < i; j++) closest = Math.min(closest, distance(analyses[i], analyses[j]));
    expect(closest).toBeGreaterThan(FACE_THRESHOLDS.maxDuplicateDistance);
  });

  it('gives other bytes for another seed but the same pictures, which the validation stores alike', async () => {
    const seeded = await personSet(40, 7);
    expect(seeded).toHaveLength(40);
    for (const [i, photo] of seeded.entries()) {
      expect(photo.equals(set[i])).toBe(false);
      expect((await stored(photo)).equals(await stored(set[i]))).toBe(true);
    }
  });

  it('makes the same bytes in a fresh module (nothing depends on the run)', async () => {
    let again: Buffer[] = [];
    await jest.isolateModulesAsync(async () => {
      const fresh = await import('../../support/face-photos');
      again = await fresh.personSet(40);
    });
    expect(again.map((photo, i) => photo.equals(set[i]))).toEqual(set.map(() => true));
  });

  it('refuses a size it cannot make', async () => {
    await expect(personSet(41)).rejects.toThrow(/0 to 40/);
  });
});

describe('badPhotos', () => {
  it('each get their own finding and nothing else among 28 photos of the person', async () => {
    const named = { noFace: bad.noFace, twoFaces: bad.twoFaces, other1: bad.otherPerson[0], other2: bad.otherPerson[1], blurred: bad.blurred, dark: bad.dark };
    const badSet: SetPhoto[] = [];
    for (const [id, photo] of Object.entries(named)) badSet.push({ id, analysis: await analyseStored(photo) });
    const photos = [...asSet(analyses.slice(0, 28)), ...badSet];
    const result = assessSet(photos);
    expect(codes(photos)).toEqual({
      ...Object.fromEntries(Array.from({ length: 28 }, (_, i) => [`photo-${i}`, []])),
      noFace: ['no-face'],
      twoFaces: ['several-faces'],
      other1: ['another-person'],
      other2: ['another-person'],
      blurred: ['blurred'],
      dark: ['too-dark'],
    });
    expect(result.summary.usable).toBe(28);
    expect(result.person).toEqual(Array.from({ length: 28 }, (_, i) => `photo-${i}`));
  });
});

describe('selfies', () => {
  it("selfieOf gives new photos of the set's person that match a set of 30", async () => {
    const thirty = asSet(analyses.slice(0, 30));
    for (const seed of [0, 1, 2, 3]) {
      const selfie = await analyzePhoto(await selfieOf(seed));
      // New photos, not copies of one in the set.
      for (const photo of analyses) expect(distance(selfie, photo)).toBeGreaterThan(FACE_THRESHOLDS.maxDuplicateDistance);
      const match = matchSelfie(selfie, thirty);
      expect({ seed, result: match.result, matches: match.matches }).toEqual({ seed, result: 'match', matches: true });
      expect(match.score).toBeGreaterThanOrEqual(FACE_THRESHOLDS.selfieMatch);
    }
  });

  it('selfieOf gives other bytes of the same picture for a seed past the four photos', async () => {
    const [first, later] = [await selfieOf(0), await selfieOf(4)];
    expect(later.equals(first)).toBe(false);
    expect((await stored(later)).equals(await stored(first))).toBe(true);
  });

  it("strangerSelfie does not match the set's person", async () => {
    const match = matchSelfie(await analyzePhoto(await strangerSelfie()), asSet(analyses.slice(0, 30)));
    expect(match).toMatchObject({ result: 'no-match', matches: false });
    expect(match.score).toBeLessThan(FACE_THRESHOLDS.selfieMatch);
  });
});
