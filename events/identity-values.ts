// Face checks on founding photos and the consent selfie (docs/identity.md, decision 045): the
// thresholds and the texts an applicant reads. Plain values, so the browser and the console can
// import them too.

/** What a face check can find wrong with one photo. */
export const FACE_FINDING_CODES = [
  'no-face',
  'several-faces',
  'face-too-small',
  'blurred',
  'too-dark',
  'another-person',
  'duplicate',
] as const;
export type FaceFindingCode = (typeof FACE_FINDING_CODES)[number];

/**
 * Thresholds, calibrated on the sample photos inside @vladmandic/human (docs/identity.md,
 * "Thresholds"). Similarities are Human's `match.similarity`: 0 unlike, 1 identical.
 */
export const FACE_THRESHOLDS = {
  /** A detection counts as a face from this confidence (0..1). */
  minFaceConfidence: 0.6,
  /** Photos are analysed at most this many pixels on the longer side. */
  analysisMaxSide: 1024,
  /** The face box's shorter side, in pixels of the photo as uploaded. */
  minFacePixels: 96,
  /** The face box's height as a share of the photo's shorter side (a full-length photo passes). */
  minFaceShare: 0.08,
  /** Variance of the Laplacian of the face, greyscale, resized to `sharpnessSide` square. */
  minSharpness: 100,
  sharpnessSide: 128,
  /** Mean luminance of the face (of the photo when no face), 0..255. */
  minBrightness: 40,
  /** Two faces are the same person from this similarity. */
  samePerson: 0.5,
  /** A photo belongs to the set's person when similar to at least this share of the group. */
  groupShare: 0.5,
  /**
   * The selfie matches when the mean of its best `selfieBestOf` similarities to the set's person
   * (all of them when the person has fewer photos) reaches this. Measured by
   * `npm run bench:face-thresholds` (decision 057): no other person's face reaches 0.65 this way
   * against sets of up to 17 of one man's photos, his own reach 0.59 and up.
   */
  selfieMatch: 0.68,
  /**
   * Ten, not five or one: the best one or five of a large set let an impostor's luckiest
   * likenesses decide (decision 057); ten is still a small share of a set of 30 to 80.
   */
  selfieBestOf: 10,
  /** Two photos are near-duplicates up to this many differing bits of their 256-bit hashes. */
  maxDuplicateDistance: 24,
  /**
   * The verified selfie is a copy of a photo (of the set, an earlier selfie) from this descriptor
   * similarity. Measured by `npm run bench:face-thresholds` (decision 057): re-encoded, resized,
   * blurred, cropped, turned or re-shot copies of a photo score 0.97 to 1.00 against it, and two
   * different photos of one man at most 0.93. A copy relit strongly or mirrored can score lower
   * (0.82 to 0.93): the hash check (`maxDuplicateDistance`, plain and mirrored) is the one for those.
   */
  copySimilarity: 0.97,
} as const;

/** Why a photo is not usable, for the applicant: what is wrong and what to do. */
export const FACE_FINDING_TEXTS: Record<FaceFindingCode, string> = {
  'no-face': 'No face found: upload a photo where your face is clearly visible.',
  'several-faces': 'More than one face: upload a photo of you alone, with nobody else in the frame.',
  'face-too-small': 'Face too small: upload a photo taken closer, or with more pixels, so your face fills more of the frame.',
  blurred: 'Face not sharp: upload a photo in focus on your eyes, without motion blur.',
  'too-dark': 'Face too dark: upload a photo taken in more light, with your face not in shadow.',
  'another-person': 'Not the same person as your other photos: upload only photos of yourself.',
  duplicate: 'Nearly the same as another of your photos: replace it with a different photo (another angle, light or expression).',
};

/** The selfie's result, for the applicant. */
export const SELFIE_RESULT_TEXTS = {
  match: 'Your selfie matches your photos.',
  'no-match': 'Your selfie does not look like the person in your photos: take it again, facing the camera in good light.',
  'no-face': 'No face found in your selfie: take it again, facing the camera in good light.',
  'several-faces': 'More than one face in your selfie: take it again, alone in the frame.',
  'no-set': 'Your photos have no face to compare your selfie with: a reviewer will compare them by hand.',
  copy: 'Your selfie is a copy of a photo, not one taken now: verify again and take the selfie live with the camera.',
} as const;
export type SelfieResult = keyof typeof SELFIE_RESULT_TEXTS;
