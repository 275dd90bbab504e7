// How a set is judged, on made-up analyses: faces are points on a plane (the first two numbers of
// the descriptor), so which faces look alike is plain geometry. Human's similarity reaches
// FACE_THRESHOLDS.samePerson (0.5) exactly up to a distance of 10 between two points.
import { createHash } from 'node:crypto';
import { FACE_THRESHOLDS } from '../../../events/identity-values';
import { assessSet, matchSelfie, type PhotoAnalysis, type SetPhoto } from '../../../functions/founding/faces';
import { descriptorSimilarity } from '../../../functions/founding/faces/model';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

function face(x: number, y: number, overrides: Partial<NonNullable<PhotoAnalysis['face']>> = {}): PhotoAnalysis['face'] {
  const descriptor = new Array<number>(1024).fill(0);
  descriptor[0] = x;
  descriptor[1] = y;
  return {
    confidence: 1,
    box: { x: 0.25, y: 0.2, width: 0.5, height: 0.5 },
    pixels: 500,
    share: 0.5,
    descriptor,
    sharpness: 300,
    brightness: 120,
    ...overrides,
  };
}

/** A photo with one face at (x, y); its hash is its id's unless `copyOf` names another photo. */
function photo(id: string, at: [number, number] | null, options: { copyOf?: string; faceCount?: number; sharpness?: number } = {}): SetPhoto {
  const source = options.copyOf ?? id;
  return {
    id,
    analysis: {
      width: 1000,
      height: 1000,
      faceCount: options.faceCount ?? (at ? 1 : 0),
      face: at ? face(at[0], at[1], options.sharpness === undefined ? {} : { sharpness: options.sharpness }) : null,
      brightness: 120,
      hash: hash(source),
      mirroredHash: hash(`${source} mirrored`),
    },
  };
}

const codes = (photos: SetPhoto[]) => Object.fromEntries(assessSet(photos).photos.map((p) => [p.id, p.findings.map((f) => f.code)]));

/** Person A near the origin, person B far away. */
const A = (id: string, x = 0, y = 0) => photo(id, [x, y]);
const B = (id: string, x = 0, y = 0) => photo(id, [40 + x, y]);

describe('assessSet', () => {
  it('takes the person most photos show, wherever the others come in the order', () => {
    const photos = [B('b1'), A('a1'), B('b2', 1), A('a2', 1), A('a3', 0, 1), B('b3', 0, 1), A('a4', -1), A('a5', 0, -1)];
    const forward = codes(photos);
    const backward = codes([...photos].reverse());
    for (const found of [forward, backward]) {
      expect(found).toEqual({ a1: [], a2: [], a3: [], a4: [], a5: [], b1: ['another-person'], b2: ['another-person'], b3: ['another-person'] });
    }
    expect(assessSet(photos).person).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('keeps a face that looks like most of the set even when one pair falls short', () => {
    // 'edge' is 9.5 from a1 and 10.5 from a4: alike to four of the five others.
    const photos = [A('a1'), A('a2', 1), A('a3', 0, 1), A('a4', -1), A('a5', 0, -1), A('edge', 9.5)];
    expect(assessSet(photos).person).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'edge']);
    expect(assessSet(photos).summary.usable).toBe(6);
  });

  it('names a face alike to fewer than half of the person, even one alike to the closest of them', () => {
    // 'between' is within 10 of a2 only.
    const photos = [A('a1'), A('a2', 3), A('a3', -3), A('a4', 0, 3), A('a5', 0, -3), A('between', 12)];
    const found = assessSet(photos).photos.find((p) => p.id === 'between')!;
    expect(found.findings).toEqual([expect.objectContaining({ code: 'another-person' })]);
  });

  it('does not let copies of another person outvote the applicant', () => {
    const photos = [B('b'), photo('b-copy-1', [40, 0], { copyOf: 'b' }), photo('b-copy-2', [40, 0], { copyOf: 'b' }), A('a1'), A('a2', 1)];
    expect(codes(photos)).toEqual({
      b: ['another-person'],
      'b-copy-1': ['another-person', 'duplicate'],
      'b-copy-2': ['another-person', 'duplicate'],
      a1: [],
      a2: [],
    });
    const copy = assessSet(photos).photos[1].findings[1];
    expect(copy).toMatchObject({ code: 'duplicate', of: 'b', distance: 0 });
  });

  it('judges the person from flawed photos when fewer than two are without flaw', () => {
    const soft = { sharpness: FACE_THRESHOLDS.minSharpness - 1 };
    const photos = [photo('a1', [0, 0], soft), photo('a2', [1, 0], soft), photo('a3', [0, 1], soft), photo('b', [40, 0], soft)];
    expect(codes(photos)).toEqual({ a1: ['blurred'], a2: ['blurred'], a3: ['blurred'], b: ['blurred', 'another-person'] });
  });

  it('leaves the person to the earlier photo when two people have as many photos each', () => {
    expect(codes([B('b1'), A('a1'), B('b2', 1), A('a2', 1)])).toEqual({ b1: [], b2: [], a1: ['another-person'], a2: ['another-person'] });
  });

  it('counts findings per photo and the usable photos', () => {
    const result = assessSet([A('a1'), A('a2', 1), photo('none', null), photo('group', [0, 2], { faceCount: 3 }), B('b')]);
    expect(result.summary).toEqual({
      total: 5,
      usable: 2,
      findings: { 'no-face': 1, 'several-faces': 1, 'face-too-small': 0, blurred: 0, 'too-dark': 0, 'another-person': 1, duplicate: 0 },
    });
  });

  it('answers an empty set', () => {
    expect(assessSet([])).toEqual({ photos: [], person: [], summary: expect.objectContaining({ total: 0, usable: 0 }) });
  });
});

describe('matchSelfie', () => {
  const set = [A('a1'), A('a2', 1), A('a3', 0, 1), A('a4', -1), A('a5', 0, -1), A('a6', 1, 1), B('b')];
  const K = FACE_THRESHOLDS.selfieBestOf;
  const mean = (values: number[]) => Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;

  it("scores the selfie by the mean of its best selfieBestOf similarities to the set's person, not to everyone", () => {
    // The person: K photos close to the origin and two farther out (alike to the rest); B apart.
    const close = Array.from({ length: K }, (_, i) => A(`a${i}`, (i % 4) - 1.5, Math.floor(i / 4) - 1));
    const person = [...close, A('far1', 6), A('far2', 6, 1)];
    const input = [...person, B('b')];
    expect(assessSet(input).person).toEqual(person.map((p) => p.id));

    const selfie = photo('selfie', [-4, 0]).analysis;
    const similarities = person.map((p) => descriptorSimilarity(selfie.face!.descriptor, p.analysis.face!.descriptor)).sort((a, b) => b - a);
    const result = matchSelfie(selfie, input);
    expect(result).toMatchObject({ compared: K, score: mean(similarities.slice(0, K)) });
    // The two far photos would have lowered it.
    expect(result.score!).toBeGreaterThan(mean(similarities));

    expect(matchSelfie(photo('selfie', [0.5, 0.5]).analysis, input)).toMatchObject({ result: 'match', matches: true, compared: K });
    expect(matchSelfie(photo('selfie', [40, 0]).analysis, input)).toMatchObject({ result: 'no-match', matches: false, score: 0 });
  });

  it('averages every photo of a person with fewer than selfieBestOf', () => {
    const result = matchSelfie(photo('selfie', [0.5, 0.5]).analysis, set);
    expect(result).toMatchObject({ result: 'match', matches: true, compared: 6 });
  });

  it("does not match a face just beyond the person's reach", () => {
    // 12 from the origin: alike to none of the person.
    expect(matchSelfie(photo('selfie', [12, 0]).analysis, set)).toMatchObject({ result: 'no-match' });
  });
});
