// Face checks on real faces: the sample screenshots inside @vladmandic/human, cropped and edited in
// memory (test/unit/faces/fixtures.ts). The model loads once for the file.
import { FACE_THRESHOLDS, SELFIE_RESULT_TEXTS } from '../../../events/identity-values';
import {
  analyzePhoto,
  assessSet,
  loadFaceModel,
  matchSelfie,
  type PhotoAnalysis,
  type SetAssessment,
  type SetPhoto,
} from '../../../functions/founding/faces';
import { avatarPhoto, edit, gridPhoto, photoOf, plainPhoto, sideBySide } from './fixtures';

/** Photos by name; `analysis` analyses each once. */
const photos = new Map<string, Buffer>();
const analyses = new Map<string, PhotoAnalysis>();

async function analysis(name: string): Promise<PhotoAnalysis> {
  let found = analyses.get(name);
  if (!found) {
    const bytes = photos.get(name);
    if (!bytes) throw new Error(`no test photo ${name}`);
    found = await analyzePhoto(bytes);
    analyses.set(name, found);
  }
  return found;
}

async function set(...names: string[]): Promise<SetPhoto[]> {
  const out: SetPhoto[] = [];
  for (const name of names) out.push({ id: name, analysis: await analysis(name) });
  return out;
}

const codes = (assessment: SetAssessment) =>
  Object.fromEntries(assessment.photos.map((photo) => [photo.id, photo.findings.map((f) => f.code)]));

/**
 * One man in seven different photos (his face-detect demo portrait, the face-match demo's selected
 * face and five faces it found most like his) and two edits of one of them: the set's person.
 */
const MAN = ['man', 'man-selected', 'man-1', 'man-2', 'man-4', 'man-5', 'man-6', 'man-crop', 'man-tilted'];

beforeAll(async () => {
  await loadFaceModel();
  const man = await photoOf('detect0');
  const faceId = await photoOf('faceId');
  const made: Record<string, Buffer | Promise<Buffer>> = {
    man,
    'man-selected': photoOf('selected'),
    'man-crop': edit.crop(man, 0.8),
    'man-tilted': edit.rotate(man, 8),
    'man-held-out': gridPhoto(0, 3),
    'man-copy': edit.reencode(man),
    'man-brighter': edit.brighter(man),
    'man-mirrored': edit.mirror(man),
    'man-blurred': edit.blur(await gridPhoto(0, 3), 8),
    'man-dark': edit.darken(await gridPhoto(0, 8), 0.25),
    'man-small': edit.small(await gridPhoto(0, 7), 0.12),
    'woman-a': photoOf('detect1'),
    // Another photo of woman-a (similarity 0.84): two alike photos of someone else.
    'woman-a-again': gridPhoto(4, 5),
    'woman-b': photoOf('detect3'),
    'woman-c': photoOf('detect4'),
    'two-women': sideBySide(await photoOf('detect3'), await photoOf('detect4')),
    plain: plainPhoto(),
    avatar: avatarPhoto(),
    'face-id': faceId,
    'face-id-crop': edit.crop(faceId, 0.8),
    'face-id-tilted': edit.rotate(faceId, -10),
    'face-id-brighter': edit.brighter(faceId),
  };
  for (const column of [1, 2, 4, 5, 6]) made[`man-${column}`] = gridPhoto(0, column);
  for (const [name, bytes] of Object.entries(made)) photos.set(name, await bytes);
}, 120_000);

describe('loadFaceModel', () => {
  it('loads once per process on the WASM backend, from the package, and reports the cold start', async () => {
    const first = await loadFaceModel();
    expect(first.backend).toBe('wasm');
    expect(first.loadMs).toBeGreaterThan(0);
    expect(await loadFaceModel({ modelsDir: '/nowhere' })).toBe(first);
  });
});

describe('analyzePhoto', () => {
  it('finds one face with its box, descriptor, sharpness and light, and keeps no pixels', async () => {
    const result = await analysis('man');
    expect(result).toMatchObject({ width: 600, height: 600, faceCount: 1 });
    const face = result.face!;
    expect(face.descriptor).toHaveLength(1024);
    expect(face.descriptor.every((value) => Number.isFinite(value))).toBe(true);
    for (const value of [face.box.x, face.box.y, face.box.x + face.box.width, face.box.y + face.box.height]) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
    expect(face.pixels).toBeGreaterThan(FACE_THRESHOLDS.minFacePixels);
    expect(face.sharpness).toBeGreaterThan(FACE_THRESHOLDS.minSharpness);
    expect(face.brightness).toBeGreaterThan(FACE_THRESHOLDS.minBrightness);
    expect(result.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.mirroredHash).toMatch(/^[0-9a-f]{64}$/);
    // Numbers and two short strings: the descriptor is the only large field.
    expect(JSON.stringify({ ...result, face: { ...face, descriptor: [] } }).length).toBeLessThan(500);
  });

  it('gives the same answer for the same photo', async () => {
    const again = await analyzePhoto(photos.get('man')!);
    expect(again).toEqual(await analysis('man'));
  });

  it('counts no face in a plain picture or a 3D avatar, and two faces side by side', async () => {
    expect(await analysis('plain')).toMatchObject({ faceCount: 0, face: null });
    expect(await analysis('avatar')).toMatchObject({ faceCount: 0, face: null });
    expect((await analysis('two-women')).faceCount).toBe(2);
  });

  it('reads a blurred face as less sharp and a darkened one as darker than the photo they came from', async () => {
    const original = (await analysis('man-held-out')).face!;
    expect((await analysis('man-blurred')).face!.sharpness).toBeLessThan(original.sharpness / 3);
    photos.set('man-8', await gridPhoto(0, 8));
    expect((await analysis('man-dark')).face!.brightness).toBeLessThan((await analysis('man-8')).face!.brightness / 3);
  });

  it('analyses photos given at once as it does one by one', async () => {
    const names = ['man', 'woman-a', 'two-women', 'plain'];
    const together = await Promise.all(names.map((name) => analyzePhoto(photos.get(name)!)));
    for (const [i, name] of names.entries()) expect(together[i]).toEqual(await analysis(name));
  });

  it('refuses bytes that are not an image', async () => {
    await expect(analyzePhoto(Buffer.from('not an image at all'))).rejects.toThrow('Input buffer contains unsupported image format');
  });
});

describe('assessSet', () => {
  it('passes a set of one person: different photos and edits of one, all usable', async () => {
    const result = assessSet(await set(...MAN));
    expect(codes(result)).toEqual(Object.fromEntries(MAN.map((id) => [id, []])));
    expect(result.person).toEqual(MAN);
    expect(result.summary).toMatchObject({ total: MAN.length, usable: MAN.length });
  });

  it('passes edits of one photo that are not copies of it: another framing, a tilt', async () => {
    const result = assessSet(await set('face-id', 'face-id-crop', 'face-id-tilted'));
    expect(result.summary.usable).toBe(3);
  });

  it("names another person's photos, even two alike", async () => {
    const result = assessSet(await set('man', 'woman-a', ...MAN.slice(1, 5), 'woman-a-again', ...MAN.slice(5), 'woman-b'));
    const found = codes(result);
    expect(found['woman-a']).toEqual(['another-person']);
    expect(found['woman-a-again']).toEqual(['another-person']);
    expect(found['woman-b']).toEqual(['another-person']);
    expect(MAN.map((id) => found[id])).toEqual(MAN.map(() => []));
    expect(result.person).toEqual(MAN);
    const named = result.photos.find((photo) => photo.id === 'woman-a')!.findings[0];
    expect(named).toMatchObject({ code: 'another-person' });
    expect(named.code === 'another-person' && named.similarity).toBeLessThan(FACE_THRESHOLDS.samePerson);
    expect(result.summary).toMatchObject({ total: MAN.length + 3, usable: MAN.length });
    expect(result.summary.findings['another-person']).toBe(3);
  });

  it('names a photo with no face and one with two faces', async () => {
    const result = assessSet(await set(...MAN, 'plain', 'two-women', 'avatar'));
    const found = codes(result);
    expect(found.plain).toEqual(['no-face']);
    expect(found.avatar).toEqual(['no-face']);
    expect(found['two-women']).toEqual(['several-faces']);
    expect(result.summary.findings).toMatchObject({ 'no-face': 2, 'several-faces': 1, 'another-person': 0 });
    expect(result.summary.usable).toBe(MAN.length);
  });

  it('names a copy, a brighter copy and a mirrored copy as duplicates of the earlier photo', async () => {
    const result = assessSet(await set(...MAN, 'man-copy', 'man-brighter', 'man-mirrored'));
    for (const id of ['man-copy', 'man-brighter', 'man-mirrored']) {
      const photo = result.photos.find((p) => p.id === id)!;
      expect(photo.usable).toBe(false);
      expect(photo.findings).toEqual([expect.objectContaining({ code: 'duplicate', of: 'man' })]);
    }
    // The original is the one kept.
    expect(result.photos.find((p) => p.id === 'man')!.usable).toBe(true);
    expect(result.summary.findings.duplicate).toBe(3);
  });

  it('names a blurred, a dark and a distant face, and still sees the set\'s person in them', async () => {
    const result = assessSet(await set(...MAN, 'man-blurred', 'man-dark', 'man-small'));
    const found = codes(result);
    expect(found['man-blurred']).toEqual(['blurred']);
    expect(found['man-dark']).toEqual(['too-dark']);
    expect(found['man-small']).toEqual(['face-too-small']);
    expect(result.summary.usable).toBe(MAN.length);
  });

  it('gives messages an applicant can act on, and the same answer every time', async () => {
    const input = await set(...MAN, 'woman-a', 'plain', 'man-copy');
    const result = assessSet(input);
    const messages = result.photos.flatMap((photo) => photo.findings.map((f) => f.message));
    expect(messages).toHaveLength(3);
    for (const message of messages) expect(message).toMatch(/^[^:]+: upload|^[^:]+: replace/i);
    expect(assessSet(input)).toEqual(result);
  });
});

describe('matchSelfie', () => {
  it("matches a selfie of the set's person and not another person's", async () => {
    const input = await set(...MAN, 'woman-a');
    const same = matchSelfie(await analysis('man-held-out'), input);
    // The set's person is the man's photos: the score averages the best selfieBestOf of them, or all.
    const compared = Math.min(FACE_THRESHOLDS.selfieBestOf, MAN.length);
    expect(same).toMatchObject({ result: 'match', matches: true, threshold: FACE_THRESHOLDS.selfieMatch, compared });
    expect(same.score).toBeGreaterThanOrEqual(FACE_THRESHOLDS.selfieMatch);

    for (const other of ['woman-b', 'woman-c']) {
      const different = matchSelfie(await analysis(other), input);
      expect(different).toMatchObject({ result: 'no-match', matches: false });
      expect(different.score).toBeLessThan(FACE_THRESHOLDS.selfieMatch);
    }
  });

  it('matches an edited photo of the person against a set of edits', async () => {
    const result = matchSelfie(await analysis('face-id-brighter'), await set('face-id-crop', 'face-id-tilted'));
    expect(result).toMatchObject({ result: 'match', compared: 2 });
  });

  it('answers plainly for a selfie without a face, with two faces, or a set without one', async () => {
    const input = await set(...MAN);
    expect(matchSelfie(await analysis('plain'), input)).toMatchObject({
      result: 'no-face',
      message: SELFIE_RESULT_TEXTS['no-face'],
      matches: false,
      score: null,
    });
    expect(matchSelfie(await analysis('two-women'), input)).toMatchObject({ result: 'several-faces', matches: false, score: null });
    expect(matchSelfie(await analysis('man-held-out'), await set('plain', 'two-women'))).toMatchObject({ result: 'no-set', matches: false });
  });
});
