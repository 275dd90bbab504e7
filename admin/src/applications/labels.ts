// The review console's words for the identity check (docs/identity.md, decision 056): finding
// badges, the findings summary, where the check stands, the ID verification's findings, the
// selfie's result, and the rule that accepting past a gate needs a written reason and a named
// second proof. Plain functions, so the unit tests read them without a browser.
import type { ApplicationDetail, DecisionRequest, PhotoResult } from '../../../events/founding';
import {
  ACCEPT_GATES,
  acceptGates,
  type AcceptGate,
  type AgeFinding,
  type CopyOf,
  type FaceFinding,
  type FailedCheck,
  type NameFinding,
  type ReviewIdentity,
  type ReviewVerification,
  type VerificationAttempt,
} from '../../../events/identity';
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
  copy: 'A copy, not a new selfie',
};

/** The selfie's result in a sentence: the stored message, else the result's text. */
export function selfieResultText(selfie: Pick<Selfie, 'state' | 'message'>): string {
  if (selfie.message) return selfie.message;
  if (selfie.state === 'none') return 'No selfie from the ID verification yet.';
  if (selfie.state === 'waiting-for-photos') return 'The selfie is in; it is matched once the photos are checked.';
  return SELFIE_RESULT_TEXTS[selfie.state];
}

/** "0.83, matches from 0.55"; nothing without a score. */
export function scoreText(selfie: Pick<Selfie, 'score' | 'threshold'>): string | undefined {
  if (selfie.score === undefined) return undefined;
  const score = selfie.score.toFixed(2);
  return selfie.threshold === undefined ? score : `${score}, matches from ${selfie.threshold.toFixed(2)}`;
}

type Verification = ReviewVerification;

/** Where the ID verification stands, in a few words ("ID verified"). */
const VERIFICATION_HEADLINES: Record<Verification['state'], string> = {
  'not-started': 'ID verification not started',
  started: 'ID verification started, not finished',
  processing: 'Stripe is checking the ID',
  verified: 'ID verified',
  failed: 'ID not verified: Stripe asked for another try',
  canceled: 'ID verification canceled',
  'under-18': 'ID verified: under 18',
};

/** The ID verification's state in words; none recorded reads as not started. */
export const verificationText = (verification: Pick<Verification, 'state'> | undefined) => VERIFICATION_HEADLINES[verification?.state ?? 'not-started'];

/** "Name matches: Noa Reyes (same name)" or "Name does not match: verified Noa Reyes, applied Noah Reyes — the first name differs". */
export function nameFindingText(name: NameFinding): string {
  return name.result === 'match'
    ? `Name matches: ${name.verified} (${name.note})`
    : `Name does not match: verified ${name.verified}, applied ${name.applied} — ${name.note}`;
}

const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "18 or older on 2 December 2026" or "Under 18 on 2 December 2026": the day of the check, never a date of birth. */
export function ageFindingText(age: AgeFinding): string {
  const day = longDate.format(new Date(`${age.checkedOn}T00:00:00Z`));
  return age.result === '18+' ? `18 or older on ${day}` : `Under 18 on ${day}`;
}

/**
 * What the selfie of the ID verification shows against the set, in a sentence: "The selfie
 * matches the set", "The selfie is a copy of photo 12 of the set" (the number the gallery
 * shows, from `numberOf`), of a photo in another application or of an earlier selfie, or that it
 * does not match.
 */
export function selfieFindingText(selfie: Pick<Selfie, 'state' | 'copyOf'>, numberOf: (index: number) => number | undefined = () => undefined): string {
  switch (selfie.state) {
    case 'match':
      return 'The selfie matches the set';
    case 'no-match':
      return 'The selfie does not match the set';
    case 'copy':
      return `The selfie is a ${copyText(selfie.copyOf, numberOf)}`;
    case 'none':
      return 'No selfie from the ID verification yet';
    case 'waiting-for-photos':
      return 'The selfie waits for the photo check';
    case 'no-face':
      return 'No face in the selfie';
    case 'several-faces':
      return 'Several faces in the selfie';
    case 'no-set':
      return 'No photo of the set to compare the selfie with';
  }
}

function copyText(copyOf: CopyOf | undefined, numberOf: (index: number) => number | undefined): string {
  switch (copyOf?.kind) {
    case 'set-photo': {
      if (copyOf.index === undefined) return 'copy of a photo of the set';
      return `copy of photo ${numberOf(copyOf.index) ?? copyOf.index + 1} of the set`;
    }
    case 'other-application':
      return 'copy of a photo in another application';
    case 'earlier-selfie':
      return 'copy of an earlier selfie';
    default:
      return 'copy of a photo, not a new selfie';
  }
}

/** How a copy was found: "3 bits apart" or "similarity 0.97"; nothing without a measure. */
export function copyMeasureText(copyOf: CopyOf | undefined): string | undefined {
  if (copyOf?.distance !== undefined) return `${copyOf.distance} of 256 bits apart`;
  if (copyOf?.similarity !== undefined) return `similarity ${copyOf.similarity.toFixed(2)}`;
  return undefined;
}

const ATTEMPT_STATUS: Record<VerificationAttempt['status'], string> = {
  requires_input: 'Not verified, Stripe asked for another try',
  processing: 'Processing',
  verified: 'Verified',
  canceled: 'Canceled',
};

/** One attempt: its status in words, Stripe's error code and reason when it did not go through. */
export function attemptText(attempt: Pick<VerificationAttempt, 'status' | 'error' | 'errorReason'>): string {
  const error = [attempt.error, attempt.errorReason].filter(Boolean).join(': ');
  return error ? `${ATTEMPT_STATUS[attempt.status]} (${error})` : ATTEMPT_STATUS[attempt.status];
}

const FAILED_CHECKS: Record<FailedCheck['check'], string> = {
  'selfie-no-match': 'The selfie did not match the set',
  'selfie-copy': 'The selfie was a copy',
  'name-mismatch': 'The verified name did not match',
  'id-not-verified': 'The ID was not verified',
};

/** A check that failed, kept through a withdrawal of face consent: "The selfie did not match the set (27 Nov 2026, 10:00)". */
export const failedCheckText = (failed: FailedCheck) => `${FAILED_CHECKS[failed.check]} (${formatDateTime(failed.at)})`;

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

/** The fields an acceptance past a gate sends. */
const GATE_FIELDS = ['identityReason', 'secondProof'] as const;

/** The server's refusal of a missing or invalid `identityReason` or `secondProof` (400 or 409 naming them), else nothing. */
export function identityReasonError(error: unknown): string | undefined {
  const e = error as HttpFailure | null | undefined;
  if (!e || (e.status !== 400 && e.status !== 409)) return undefined;
  const fields = e.body?.fields ?? {};
  const named = GATE_FIELDS.map((f) => fields[f]).filter((m): m is string => typeof m === 'string' && m !== '');
  if (named.length) return [...new Set(named)].join(' ');
  const text = e.body?.error ?? e.message;
  return typeof text === 'string' && GATE_FIELDS.some((f) => text.includes(f)) ? text : undefined;
}

/** Each gate an acceptance must pass (acceptGates) with its text (ACCEPT_GATES), in the contract's order. */
export function gateTexts(identity: ReviewIdentity | undefined): Array<{ gate: AcceptGate; text: string }> {
  return acceptGates(identity).map((gate) => ({ gate, text: ACCEPT_GATES[gate] }));
}

/**
 * The accept dialog's gate rule: when the proof of person is not complete (acceptGates), or the
 * server asked, accepting shows the gates with a reason field and a second proof field, and
 * waits for words in both.
 */
export function reasonRule(
  decision: 'accept' | 'reject',
  identity: ReviewIdentity | undefined,
  given: { identityReason: string; secondProof: string },
  askedByServer = false,
): { shown: boolean; missing: boolean } {
  const shown = decision === 'accept' && (acceptGates(identity).length > 0 || askedByServer);
  return { shown, missing: shown && (given.identityReason.trim() === '' || given.secondProof.trim() === '') };
}

/** The decision's body: the reason and the second proof go with an accept past a gate, and only then. */
export function decisionRequest(
  decision: 'accept' | 'reject',
  fields: { note: string; messageToApplicant: string; identityReason: string; secondProof: string },
  gated: boolean,
): DecisionRequest {
  return {
    decision,
    note: fields.note,
    messageToApplicant: fields.messageToApplicant,
    ...(decision === 'accept' && gated ? { identityReason: fields.identityReason.trim(), secondProof: fields.secondProof.trim() } : {}),
  };
}
