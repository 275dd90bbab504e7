import {
  FACE_FINDING_CODES,
  FACE_FINDING_TEXTS,
  FACE_THRESHOLDS,
  SELFIE_RESULT_TEXTS,
  type FaceFindingCode,
  type SelfieResult,
} from '../../../events/identity-values';
import type { PhotoAnalysis } from './analyze';
import { hammingDistance } from './measures';
import { descriptorSimilarity } from './model';

/** One photo of an application: its id (the caller's, e.g. the photo's key) and its analysis. */
export interface SetPhoto {
  id: string;
  analysis: PhotoAnalysis;
}

type FaceFinding =
  | { code: Exclude<FaceFindingCode, 'another-person' | 'duplicate'>; message: string }
  /** `similarity`: the median of the photo's similarities to the set's person (0..1). */
  | { code: 'another-person'; message: string; similarity: number }
  /** `of`: the id of the earlier photo it nearly repeats; `distance`: differing hash bits. */
  | { code: 'duplicate'; message: string; of: string; distance: number };

interface PhotoAssessment {
  id: string;
  /** No finding: the photo counts towards the application's usable photos. */
  usable: boolean;
  findings: FaceFinding[];
}

export interface SetAssessment {
  /** In the order the photos were given. */
  photos: PhotoAssessment[];
  /** Ids of the photos that define the set's person (see `personOfSet`). */
  person: string[];
  summary: {
    total: number;
    usable: number;
    /** Photos with each finding (a photo may have several). */
    findings: Record<FaceFindingCode, number>;
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const median = (values: number[]) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const T = FACE_THRESHOLDS;
const finding = (code: Exclude<FaceFindingCode, 'another-person' | 'duplicate'>): FaceFinding => ({
  code,
  message: FACE_FINDING_TEXTS[code],
});

/** Findings a photo has on its own, without the rest of the set. */
function ownFindings(analysis: PhotoAnalysis): FaceFinding[] {
  const found: FaceFinding[] = [];
  const { face } = analysis;
  if (analysis.faceCount === 0) found.push(finding('no-face'));
  if (analysis.faceCount > 1) found.push(finding('several-faces'));
  const tooSmall = face !== null && (face.pixels < T.minFacePixels || face.share < T.minFaceShare);
  if (tooSmall) found.push(finding('face-too-small'));
  // Sharpness is read at a fixed size: a face enlarged to it looks soft, and is already named small.
  if (face && !tooSmall && face.sharpness < T.minSharpness) found.push(finding('blurred'));
  // The face's light when there is one (a backlit face is dark in a bright photo), else the photo's.
  if ((face ? face.brightness : analysis.brightness) < T.minBrightness) found.push(finding('too-dark'));
  return found;
}

/** The earliest earlier photo this one nearly repeats, plain or mirrored. */
function duplicateOf(photos: readonly SetPhoto[], index: number): { of: string; distance: number } | null {
  const { hash } = photos[index].analysis;
  for (let earlier = 0; earlier < index; earlier++) {
    const other = photos[earlier].analysis;
    const distance = Math.min(hammingDistance(hash, other.hash), hammingDistance(hash, other.mirroredHash));
    if (distance <= T.maxDuplicateDistance) return { of: photos[earlier].id, distance };
  }
  return null;
}

/** Share of `members` that look like the same person as `descriptor`. */
function shareSimilar(descriptor: number[], members: readonly number[][]): number {
  return members.filter((member) => descriptorSimilarity(descriptor, member) >= T.samePerson).length / members.length;
}

/**
 * The set's person: the largest group of faces that look alike, found among `core` (descriptors
 * in the set's order). Two faces look alike from FACE_THRESHOLDS.samePerson; a face belongs when
 * it looks like at least FACE_THRESHOLDS.groupShare of the group's other faces, so one
 * borderline pair neither splits the person nor lets another person in.
 *
 * 1. The anchor is the face alike to the most others (ties: the higher sum of similarities, then
 *    the earlier photo); the group starts as the anchor and the faces alike to it.
 * 2. Members alike to less than groupShare of the others leave, the worst first, until none is.
 * 3. Faces outside alike to groupShare of the group join; step 2 runs once more.
 * Returns indexes into `core`, ascending.
 */
function largestAlikeGroup(core: readonly number[][]): number[] {
  const n = core.length;
  if (n === 0) return [];
  const similarity = core.map((a, i) => core.map((b, j) => (i === j ? 1 : descriptorSimilarity(a, b))));
  const alike = (i: number, j: number) => i !== j && similarity[i][j] >= T.samePerson;
  const indexes = [...Array(n).keys()];
  const degree = indexes.map((i) => indexes.filter((j) => alike(i, j)).length);
  const total = indexes.map((i) => similarity[i].reduce((sum, value) => sum + value, 0));
  const anchor = indexes.reduce((best, i) => (degree[i] > degree[best] || (degree[i] === degree[best] && total[i] > total[best]) ? i : best), 0);

  const share = (i: number, group: Set<number>) => {
    const others = [...group].filter((j) => j !== i);
    return others.length === 0 ? 1 : others.filter((j) => alike(i, j)).length / others.length;
  };
  const mean = (i: number, group: Set<number>) => {
    const others = [...group].filter((j) => j !== i);
    return others.length === 0 ? 1 : others.reduce((sum, j) => sum + similarity[i][j], 0) / others.length;
  };
  const peel = (group: Set<number>) => {
    for (;;) {
      const weakest = [...group]
        .filter((i) => i !== anchor && share(i, group) < T.groupShare)
        .sort((a, b) => share(a, group) - share(b, group) || mean(a, group) - mean(b, group) || b - a)[0];
      if (weakest === undefined) return;
      group.delete(weakest);
    }
  };

  const group = new Set(indexes.filter((i) => i === anchor || alike(anchor, i)));
  peel(group);
  const joining = indexes.filter((i) => !group.has(i) && share(i, group) >= T.groupShare);
  for (const i of joining) group.add(i);
  peel(group);
  return [...group].sort((a, b) => a - b);
}

/**
 * The photos that define the set's person: among photos with exactly one face and no finding of
 * their own that repeat no earlier photo (or, when fewer than two are left, every one-face photo
 * that repeats none), the largest group that looks alike (`largestAlikeGroup`). Indexes into
 * `photos`, ascending.
 */
function personOfSet(photos: readonly SetPhoto[]): number[] {
  const oneFace = [...photos.keys()].filter((i) => photos[i].analysis.faceCount === 1 && photos[i].analysis.face);
  const unique = oneFace.filter((i) => duplicateOf(photos, i) === null);
  const clean = unique.filter((i) => ownFindings(photos[i].analysis).length === 0);
  const core = clean.length >= 2 ? clean : unique;
  return largestAlikeGroup(core.map((i) => photos[i].analysis.face!.descriptor)).map((k) => core[k]);
}

/**
 * Judges an application's photos together: each photo's own findings (no face, several faces,
 * face too small, blurred, too dark), `another-person` for a one-face photo that does not look like
 * at least FACE_THRESHOLDS.groupShare of the set's person, and `duplicate` for a photo that nearly
 * repeats an earlier one. Pure and deterministic: the same photos in the same order give the
 * same answer.
 */
export function assessSet(photos: readonly SetPhoto[]): SetAssessment {
  const person = personOfSet(photos);
  const personDescriptors = person.map((i) => photos[i].analysis.face!.descriptor);
  const inPerson = new Set(person);

  const assessed = photos.map((photo, index): PhotoAssessment => {
    const findings = ownFindings(photo.analysis);
    const { face } = photo.analysis;
    if (photo.analysis.faceCount === 1 && face && !inPerson.has(index) && personDescriptors.length > 0) {
      if (shareSimilar(face.descriptor, personDescriptors) < T.groupShare) {
        const similarity = round2(median(personDescriptors.map((other) => descriptorSimilarity(face.descriptor, other))));
        findings.push({ code: 'another-person', message: FACE_FINDING_TEXTS['another-person'], similarity });
      }
    }
    const duplicate = duplicateOf(photos, index);
    if (duplicate) findings.push({ code: 'duplicate', message: FACE_FINDING_TEXTS.duplicate, ...duplicate });
    return { id: photo.id, usable: findings.length === 0, findings };
  });

  const counts = Object.fromEntries(FACE_FINDING_CODES.map((code) => [code, 0])) as Record<FaceFindingCode, number>;
  for (const photo of assessed) for (const { code } of photo.findings) counts[code]++;
  return {
    photos: assessed,
    person: person.map((i) => photos[i].id),
    summary: { total: photos.length, usable: assessed.filter((photo) => photo.usable).length, findings: counts },
  };
}

interface SelfieMatch {
  result: SelfieResult;
  /** The result for the applicant (events/identity-values.ts). */
  message: string;
  /** True only for result 'match'. */
  matches: boolean;
  /** Mean of the selfie's best `compared` similarities to the set's person (0..1); null without faces. */
  score: number | null;
  threshold: number;
  /** How many of the set's photos the score averages. */
  compared: number;
}

/**
 * Whether the selfie shows the set's person: its face against each face of the set's person
 * (`assessSet`'s `person`), scored by the mean of its best FACE_THRESHOLDS.selfieBestOf
 * similarities (a few close photos count; the rest of the set may show other angles and light).
 */
export function matchSelfie(selfie: PhotoAnalysis, photos: readonly SetPhoto[]): SelfieMatch {
  const threshold = T.selfieMatch;
  const answer = (result: SelfieResult, score: number | null = null, compared = 0): SelfieMatch => ({
    result,
    message: SELFIE_RESULT_TEXTS[result],
    matches: result === 'match',
    score,
    threshold,
    compared,
  });
  if (selfie.faceCount === 0 || !selfie.face) return answer('no-face');
  if (selfie.faceCount > 1) return answer('several-faces');
  const person = personOfSet(photos);
  if (person.length === 0) return answer('no-set');
  const selfieDescriptor = selfie.face.descriptor;
  const best = person
    .map((i) => descriptorSimilarity(selfieDescriptor, photos[i].analysis.face!.descriptor))
    .sort((a, b) => b - a)
    .slice(0, T.selfieBestOf);
  const score = round2(best.reduce((sum, value) => sum + value, 0) / best.length);
  return answer(score >= threshold ? 'match' : 'no-match', score, best.length);
}
