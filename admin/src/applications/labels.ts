// The review console's words for the identity check (docs/identity.md): finding badges, the
// findings summary, where the check stands, the selfie's result, and the rule that an accepted
// mismatch needs a written reason. Plain functions, so the unit tests read them without a browser.
import type { ApplicationDetail, DecisionRequest, PhotoResult } from '../../../events/founding';
import { acceptNeedsReason, type FaceFinding, type ReviewIdentity } from '../../../events/identity';
import { FACE_FINDING_CODES, SELFIE_RESULT_TEXTS, type FaceFindingCode } from '../../../events/identity-values';
import { formatDateTime } from '../common/format';

/** A finding's short label, as its badge shows it. */
const FINDING_LABELS: Record<FaceFindingCode, string> = {
  'no-face': 'No face',
  'several-faces': 'Several faces',
  'face-too-small': 'Face too small',
  blurred: 'Blurred',
  'too-dark': 'Too dark',
  'another-person': 'Another person',
  duplicate: 'Duplicate',
};

/**
 * A finding's badge. A duplicate names the photo it repeats by the number the gallery shows
 * ("Duplicate of #4"); `numberOf` turns the stored index of `of` into that number.
 */
export function findingLabel(finding: Pick<FaceFinding, 'code' | 'of'>, numberOf: (index: number) => number | undefined): string {
  const label = FINDING_LABELS[finding.code] ?? finding.code;
  if (finding.code !== 'duplicate' || finding.of === undefined) return label;
  const n = numberOf(finding.of);
  return n === undefined ? label : `${label} of #${n}`;
}

type Summary = NonNullable<ReviewIdentity['summary']>;

/** "27 usable · 2 no face · 1 another person": the non-zero findings in FACE_FINDING_CODES order. */
export function summaryText(summary: Summary): string {
  const parts = [`${summary.usable} usable`];
  for (const code of FACE_FINDING_CODES) {
    const n = summary.counts[code] ?? 0;
    if (n > 0) parts.push(`${n} ${code === 'duplicate' && n > 1 ? 'duplicates' : FINDING_LABELS[code].toLowerCase()}`);
  }
  return parts.join(' · ');
}

/** Where the identity check stands, in words. */
export function identityStateText(identity: Pick<ReviewIdentity, 'state' | 'faceConsent' | 'replaceBy' | 'faceConsentWithdrawnAt'>): string {
  // Withdrawn: by hand whatever the state was when it happened (an older record may not say manual).
  if (identity.faceConsent === 'withdrawn') {
    return `Reviewed by hand: face consent withdrawn${identity.faceConsentWithdrawnAt ? ` on ${formatDateTime(identity.faceConsentWithdrawnAt)}` : ''}`;
  }
  switch (identity.state) {
    case 'awaiting-consent':
      return 'Waiting for the applicant’s consent';
    case 'manual':
      return identity.faceConsent === 'declined' ? 'Reviewed by hand: face checks declined' : 'Reviewed by hand: face checks not agreed to';
    case 'checking':
      return 'Checking the photos';
    case 'awaiting-photos':
      return identity.replaceBy ? `Waiting for replacement photos until ${formatDateTime(identity.replaceBy)}` : 'Waiting for replacement photos';
    case 'checked':
      return 'Checked';
  }
}

type Selfie = NonNullable<ReviewIdentity['selfie']>;

/** The selfie's result in a few words, for its badge. */
export const SELFIE_HEADLINES: Record<Selfie['state'], string> = {
  none: 'No selfie yet',
  'waiting-for-photos': 'Waiting for the photo check',
  match: 'Matches',
  'no-match': 'Does not match',
  'no-face': 'No face in the selfie',
  'several-faces': 'Several faces in the selfie',
  'no-set': 'No photo to compare with',
};

/** The selfie's result in a sentence: the stored message, else the result's text. */
export function selfieResultText(selfie: Pick<Selfie, 'state' | 'message'>): string {
  if (selfie.message) return selfie.message;
  if (selfie.state === 'none') return 'The applicant has not taken the selfie yet.';
  if (selfie.state === 'waiting-for-photos') return 'The selfie is taken; it is matched once the photos are checked.';
  return SELFIE_RESULT_TEXTS[selfie.state];
}

/** "0.83, matches from 0.55"; nothing without a score. */
export function scoreText(selfie: Pick<Selfie, 'score' | 'threshold'>): string | undefined {
  if (selfie.score === undefined) return undefined;
  const score = selfie.score.toFixed(2);
  return selfie.threshold === undefined ? score : `${score}, matches from ${selfie.threshold.toFixed(2)}`;
}

/** A hash shortened for the page ("3f9a1c2b…d04e"); the full one is on hover and copy. */
export const shortHash = (hash: string) => (hash.length > 16 ? `${hash.slice(0, 10)}…${hash.slice(-4)}` : hash);

/** A gallery photo with its number (1-based, in the gallery's order) and its face check. */
export interface GalleryPhoto {
  photo: ApplicationDetail['photos'][number];
  number: number;
  /** Undefined when the face checks did not run (consent declined, an application from before). */
  usable?: boolean;
  findings: FaceFinding[];
  replaced: boolean;
}

/** Joins the photos with their results (by stored index) and numbers them as the gallery shows them. */
export function galleryPhotos(photos: ApplicationDetail['photos'], results: PhotoResult[] | undefined): GalleryPhoto[] {
  const byIndex = new Map((results ?? []).filter((r) => r.index !== undefined).map((r) => [r.index!, r]));
  return photos.map((photo, i) => {
    const result = byIndex.get(photo.index);
    return { photo, number: i + 1, usable: result?.usable, findings: result?.findings ?? [], replaced: !!result?.replacedAt };
  });
}

/** Photos the gallery's "Not usable" filter shows: checked, with a finding, still in the set. */
export const notUsable = (p: GalleryPhoto) => !p.replaced && p.usable === false;

/** Two or three of the set's usable photos to compare the selfie with, spread across the set. */
export function comparisonPhotos(photos: GalleryPhoto[], count = 3): GalleryPhoto[] {
  const usable = photos.filter((p) => !p.replaced && p.usable === true);
  if (usable.length <= count) return usable;
  return Array.from({ length: count }, (_, i) => usable[Math.floor((i * usable.length) / count)]!);
}

type HttpFailure = { status?: number; message?: string; body?: { error?: string; fields?: Record<string, string> } };

/** The server's refusal of a missing or invalid `identityReason` (400 or 409 naming it), else nothing. */
export function identityReasonError(error: unknown): string | undefined {
  const e = error as HttpFailure | null | undefined;
  if (!e || (e.status !== 400 && e.status !== 409)) return undefined;
  const field = e.body?.fields?.identityReason;
  if (typeof field === 'string' && field) return field;
  const text = e.body?.error ?? e.message;
  return typeof text === 'string' && text.includes('identityReason') ? text : undefined;
}

/**
 * The accept dialog's reason rule: when the selfie does not match (acceptNeedsReason), or the
 * server asked for a reason, accepting shows a reason field and waits for words in it.
 */
export function reasonRule(
  decision: 'accept' | 'reject',
  identity: ReviewIdentity | undefined,
  reason: string,
  askedByServer = false,
): { shown: boolean; missing: boolean } {
  const shown = decision === 'accept' && (acceptNeedsReason(identity) || askedByServer);
  return { shown, missing: shown && reason.trim() === '' };
}

/** The decision's body: the reason goes with an accept that needs one, and only then. */
export function decisionRequest(
  decision: 'accept' | 'reject',
  fields: { note: string; messageToApplicant: string; identityReason: string },
  reasonShown: boolean,
): DecisionRequest {
  return {
    decision,
    note: fields.note,
    messageToApplicant: fields.messageToApplicant,
    ...(decision === 'accept' && reasonShown ? { identityReason: fields.identityReason.trim() } : {}),
  };
}
