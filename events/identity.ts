// Proof of person (docs/identity.md, issue "Proof of person"): the applicant's consent to face
// checks, the signed consent, the verified ID, replacing photos, and what the review console
// reads of it. The applicant reaches these routes with the identity token the confirmation
// answer carries (and the replace link's token): a token opens its own application only.
import * as z from 'zod';
import { FACE_FINDING_CODES, type SelfieResult, SELFIE_RESULT_TEXTS } from './identity-values';

/** An applicant's token: 43 base64url characters (32 random bytes), stored hashed, valid IDENTITY_TOKEN_DAYS. */
export const IdentityToken = z
  .string({ error: (i) => (i.input === undefined ? 'token is required' : 'token must be a string') })
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'token is not a link of ours: please open the link from the email again' });

/** How long the identity token (confirmation page, QR code) and the replace link are valid. */
export const IDENTITY_TOKEN_DAYS = 7;

/** The consent text the applicant signs by typing their name: its version is recorded with the signature. */
export const CONSENT_VERSION = '2026-11-27';
export const CONSENT_TEXT =
  'I am the person in the photos I uploaded. I agree that Humanly may use my photos to review my application and, if I am accepted, to train an AI model of my likeness that clients license to create images, under the terms I accepted when I applied. I can pause or remove my likeness at any time.';

/** The separate, explicit consent to processing face data (biometric data), asked first. */
export const FACE_CONSENT_VERSION = '2026-11-27';
export const FACE_CONSENT_TEXT =
  'I agree that Humanly analyses the faces in my photos and in a live selfie (face descriptors: biometric data) only to check that every photo shows me, and deletes that data with my photos. Without this, a reviewer compares my photos by hand.';

/**
 * The face data consent as it stands now: `withdrawn` once the person took back a consent they
 * had given (the signed record keeps what was given; `faceConsentWithdrawnAt` says when).
 */
export const FACE_CONSENT_STATES = ['pending', 'given', 'declined', 'withdrawn'] as const;
export type FaceConsentState = (typeof FACE_CONSENT_STATES)[number];

/** Where the selfie stands: none yet, analysed and waiting for the photo set, or its result. */
export const SELFIE_STATES = ['none', 'waiting-for-photos', 'match', 'no-match', 'no-face', 'several-faces', 'no-set', 'copy'] as const;
export type SelfieState = (typeof SELFIE_STATES)[number];

/**
 * Where the applicant's ID verification stands: `not-started`; `started` (a VerificationSession is
 * open, the applicant has not finished); `processing` (Stripe is checking); `verified`;
 * `failed` (Stripe asked for input again: document unreadable, selfie unlike the document, and so
 * on, the applicant may try again while sessions are left); `canceled` (we or the applicant ended
 * it); `under-18` (verified, and the date of birth shows the person under 18 on the day of the
 * check: the application is refused).
 */
export const VERIFICATION_STATES = ['not-started', 'started', 'processing', 'verified', 'failed', 'canceled', 'under-18'] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];

/** Where the identity check stands, for the applicant and the console. */
export const IDENTITY_STATES = [
  /** Waiting for the applicant's answer on the confirmation page. */
  'awaiting-consent',
  /** Face data consent declined, withdrawn (or never answered): reviewed by hand. */
  'manual',
  /** Photos being analysed. */
  'checking',
  /** Fewer than 30 usable photos: the applicant was asked to replace some (link valid 7 days). */
  'awaiting-photos',
  /** Checked: the review has the findings. */
  'checked',
] as const;
export type IdentityState = (typeof IDENTITY_STATES)[number];

/** One thing wrong with a photo, as stored with it and shown to the applicant and the reviewer. */
export const FaceFinding = z.object({
  code: z.enum(FACE_FINDING_CODES),
  message: z.string(),
  /** For `duplicate`: the index of the photo it nearly repeats. */
  of: z.number().int().nonnegative().optional(),
});
export type FaceFinding = z.infer<typeof FaceFinding>;

/** `POST /founding-identity` (the applicant reads where they stand): `{ token }`. */
export const IdentityRequest = z.strictObject({ token: IdentityToken });

/** `POST /founding-identity/consent`: the face data consent (first), then the signature. */
export const IdentityConsentRequest = z.strictObject({
  token: IdentityToken,
  /** The separate consent to processing face data: true to have photos and a selfie checked, false to be reviewed by hand. */
  faceConsent: z.boolean({ error: 'faceConsent must be true or false' }),
  /** The applicant's full name, typed under the consent text: must be the name they applied with. */
  typedName: z.string({ error: 'typedName is required' }).trim().min(1, { error: 'Type your full name to sign.' }).max(200, { error: 'typedName must be at most 200 characters' }),
  /** The version of the consent text shown (CONSENT_VERSION): an older page is refused. */
  consentVersion: z.string({ error: 'consentVersion is required' }).max(40),
});
export type IdentityConsentRequest = z.infer<typeof IdentityConsentRequest>;

/**
 * `POST /founding-identity/withdraw-consent`: takes back the face data consent (docs/identity.md,
 * "Withdrawal"): the selfie and the sealed face analyses are deleted, nothing is analysed again,
 * and the review goes on by hand. Answers the same the second time.
 */
export const WithdrawConsentRequest = z.strictObject({ token: IdentityToken });

/** `POST /founding-identity/replacement-uploads`: presigned PUTs for replacement photos (JPEG or PNG). */
export const ReplacementUploadRequest = z.strictObject({
  token: IdentityToken,
  files: z
    .array(
      z.strictObject({
        contentType: z.enum(['image/jpeg', 'image/png'], { error: 'A replacement photo must be a JPEG or PNG image.' }),
        size: z.number().int().min(1).max(25 * 1024 * 1024, { error: 'A photo must be at most 25 MB.' }),
      }),
    )
    .min(1, { error: 'Choose at least one photo.' })
    .max(80, { error: 'At most 80 photos at once.' }),
});
export const ReplacementUploadResponse = z.object({ uploads: z.array(z.object({ url: z.url(), key: z.string(), headers: z.record(z.string(), z.string()) })), expiresAt: z.iso.datetime() });
export type ReplacementUploadResponse = z.infer<typeof ReplacementUploadResponse>;

/** `POST /founding-identity/replacements`: the photos to drop (by index) and the uploaded keys that replace them; the check runs again. */
export const ReplacementSubmitRequest = z.strictObject({
  token: IdentityToken,
  remove: z.array(z.number().int().nonnegative()).max(80).default([]),
  keys: z.array(z.string().max(300)).min(1, { error: 'Upload at least one new photo.' }).max(80),
});
export type ReplacementSubmitRequest = z.input<typeof ReplacementSubmitRequest>;

/** A photo as the applicant sees it on the replace page: its thumbnail, and what is wrong when it is not usable. */
export const ApplicantPhoto = z.object({
  index: z.number().int().nonnegative(),
  thumbnailUrl: z.url(),
  usable: z.boolean(),
  findings: z.array(FaceFinding),
});

/** What every identity route answers: where the applicant stands and what to do next. */
export const IdentityStatus = z.object({
  applicationId: z.string(),
  firstName: z.string(),
  state: z.enum(IDENTITY_STATES),
  faceConsent: z.enum(FACE_CONSENT_STATES),
  /** The consent text to sign and its version; `signedAt` once signed. */
  consent: z.object({ version: z.string(), text: z.string(), faceVersion: z.string(), faceText: z.string(), signedAt: z.iso.datetime().optional() }),
  /** When the face data consent was withdrawn (faceConsent `withdrawn`). */
  faceConsentWithdrawnAt: z.iso.datetime().optional(),
  selfie: z.object({ state: z.enum(SELFIE_STATES), message: z.string().optional() }),
  /** The ID verification: where it stands, what to do, and how many more sessions may be opened. */
  verification: z.object({ state: z.enum(VERIFICATION_STATES), message: z.string().optional(), sessionsLeft: z.number().int().nonnegative() }),
  /** Counts once the photos were checked: usable of total, and how many more are needed. */
  photos: z.object({ total: z.number().int(), usable: z.number().int(), needed: z.number().int() }).optional(),
  /** On the replace page: every photo, the ones to replace first. */
  photoList: z.array(ApplicantPhoto).optional(),
  /** Until when the replace link works. */
  replaceBy: z.iso.datetime().optional(),
});
export type IdentityStatus = z.infer<typeof IdentityStatus>;

/** The signed consent, immutable once written (in the talent's data export and the console). */
export const ConsentRecord = z.object({
  version: z.string(),
  typedName: z.string(),
  signedAt: z.iso.datetime(),
  faceConsent: z.enum(['given', 'declined']),
  faceConsentVersion: z.string(),
  /** SHA-256 (hex) of the photo set as checked (the stored photos' bytes in index order), once checked. */
  photoSetHash: z.string().optional(),
  /** SHA-256 (hex) of the selfie's bytes, once taken. */
  selfieHash: z.string().optional(),
});
export type ConsentRecord = z.infer<typeof ConsentRecord>;

// ---- The verified identity: Stripe Identity (docs/identity.md, "Verified identity") ----

/** How many VerificationSessions one application may open in all (each verification is paid). */
export const MAX_VERIFICATION_SESSIONS = 5;

/** `POST /founding-identity/verification`: opens (or reopens) the application's VerificationSession. */
export const VerificationRequest = z.strictObject({ token: IdentityToken });
/** Where to send the applicant: Stripe's hosted verification page for this session. */
export const VerificationResponse = z.object({ url: z.url() });
export type VerificationResponse = z.infer<typeof VerificationResponse>;

/** Stripe's VerificationSession statuses, as kept on each attempt. */
export const STRIPE_VERIFICATION_STATUSES = ['requires_input', 'processing', 'verified', 'canceled'] as const;

/** One VerificationSession we created for the application, and the last state Stripe gave it. Every attempt is kept. */
export const VerificationAttempt = z.object({
  sessionId: z.string(),
  createdAt: z.iso.datetime(),
  status: z.enum(STRIPE_VERIFICATION_STATUSES),
  /** Stripe's `last_error.code` when it asked for input again (`document_unverified_other`, `selfie_face_mismatch`, `under_supported_age`, ...). */
  error: z.string().optional(),
  /** Stripe's `last_error.reason`, for the reviewer. */
  errorReason: z.string().optional(),
  updatedAt: z.iso.datetime(),
});
export type VerificationAttempt = z.infer<typeof VerificationAttempt>;

/** The verified name against the name applied with (rule in docs/identity.md, "Verified identity"). */
export const NameFinding = z.object({
  result: z.enum(['match', 'mismatch']),
  /** The name on the document, as Stripe verified it ("First Middle Last"). */
  verified: z.string(),
  /** The name applied with. */
  applied: z.string(),
  /** What the rule found: "same name", "same name with a middle name", "first and last name in another order", "the last name differs", ... */
  note: z.string(),
});
export type NameFinding = z.infer<typeof NameFinding>;

/** The date of birth's one finding: 18 or older (or not) on the day of the check. The date itself is not kept (decision 056). */
export const AgeFinding = z.object({ result: z.enum(['18+', 'under-18']), checkedOn: z.iso.date() });
export type AgeFinding = z.infer<typeof AgeFinding>;

/** What `copy` names: the photo of the set, another application's photo or selfie, or an earlier selfie it repeats. */
export const CopyOf = z.object({
  kind: z.enum(['set-photo', 'other-application', 'earlier-selfie']),
  /** For `set-photo`: the photo's index. */
  index: z.number().int().nonnegative().optional(),
  /** How it was found: differing bits of the 256-bit hashes, or the descriptors' similarity. */
  distance: z.number().int().nonnegative().optional(),
  similarity: z.number().optional(),
});
export type CopyOf = z.infer<typeof CopyOf>;

/** The ID verification as stored on the application and read by the console (no document image, no document number, no date of birth). */
export const ReviewVerification = z.object({
  state: z.enum(VERIFICATION_STATES),
  /** `document-and-selfie` with face consent given; `document` when the applicant declined or withdrew face checks. */
  type: z.enum(['document', 'document-and-selfie']).optional(),
  verifiedAt: z.iso.datetime().optional(),
  name: NameFinding.optional(),
  age: AgeFinding.optional(),
  attempts: z.array(VerificationAttempt),
  /** When Stripe's copy of the session (images, document number, date of birth) was redacted through its API. */
  redactedAt: z.iso.datetime().optional(),
});
export type ReviewVerification = z.infer<typeof ReviewVerification>;

/** A check that failed, kept after face consent is withdrawn: the fact, never the biometric data. */
export const FailedCheck = z.object({
  check: z.enum(['selfie-no-match', 'selfie-copy', 'name-mismatch', 'id-not-verified']),
  at: z.iso.datetime(),
});
export type FailedCheck = z.infer<typeof FailedCheck>;

/** The identity check as the review console reads it (`ApplicationDetail.identity`). */
export const ReviewIdentity = z.object({
  state: z.enum(IDENTITY_STATES),
  faceConsent: z.enum(FACE_CONSENT_STATES),
  consent: ConsentRecord.optional(),
  /** When the person withdrew the face data consent given in `consent`: the review is by hand. */
  faceConsentWithdrawnAt: z.iso.datetime().optional(),
  /** "27 usable · 2 no face · 1 another person". */
  summary: z
    .object({ total: z.number().int(), usable: z.number().int(), counts: z.partialRecord(z.enum(FACE_FINDING_CODES), z.number().int()) })
    .optional(),
  /** The verified selfie (Stripe Identity's, read by the server) matched with the set by our face check. */
  selfie: z
    .object({
      state: z.enum(SELFIE_STATES),
      message: z.string().optional(),
      score: z.number().optional(),
      threshold: z.number().optional(),
      url: z.url().optional(),
      takenAt: z.iso.datetime().optional(),
      /** For `copy`: what it repeats. */
      copyOf: CopyOf.optional(),
    })
    .optional(),
  /** The ID verification with Stripe Identity. */
  verification: ReviewVerification.optional(),
  /** Checks that failed, kept through a withdrawal of face consent. */
  failedChecks: z.array(FailedCheck).optional(),
  /** Rounds of replacements asked for, and until when the current link works. */
  replacementRounds: z.number().int().optional(),
  replaceBy: z.iso.datetime().optional(),
});
export type ReviewIdentity = z.infer<typeof ReviewIdentity>;

/**
 * `GET /me/face-data` and `POST /me/face-data/withdraw` (talent portal): the face data consent of
 * the application the talent's account came from; `givenAt` when it was given (signed), and
 * `withdrawnAt` once withdrawn.
 */
export const FaceDataStatus = z.object({
  faceConsent: z.enum(FACE_CONSENT_STATES),
  givenAt: z.iso.datetime().optional(),
  withdrawnAt: z.iso.datetime().optional(),
});
export type FaceDataStatus = z.infer<typeof FaceDataStatus>;

/** Why accepting needs a written reason and a named second proof (docs/identity.md, "Gates"). */
export const ACCEPT_GATES = {
  'id-not-verified': 'The ID is not verified.',
  'under-18': 'The verified date of birth shows the person under 18.',
  'name-mismatch': 'The verified name does not match the name applied with.',
  'selfie-mismatch': 'The verified selfie does not match the photos.',
  'selfie-copy': 'The verified selfie is a copy of a photo, not a new one.',
  'face-checks-declined': 'The applicant declined face checks: nothing compared the selfie with the photos.',
  'face-checks-withdrawn': 'The applicant withdrew face checks: nothing compares the selfie with the photos now.',
  'check-failed-before': 'A check failed before the applicant withdrew face checks.',
} as const;
export type AcceptGate = keyof typeof ACCEPT_GATES;

/** The gates an acceptance must pass with a reason and a second proof; none: accept freely. */
export function acceptGates(identity: Pick<ReviewIdentity, 'faceConsent' | 'selfie' | 'verification' | 'failedChecks'> | undefined): AcceptGate[] {
  const gates: AcceptGate[] = [];
  const v = identity?.verification;
  if (v?.state === 'under-18') gates.push('under-18');
  else if (v?.state !== 'verified') gates.push('id-not-verified');
  if (v?.name?.result === 'mismatch') gates.push('name-mismatch');
  const consent = identity?.faceConsent ?? 'pending';
  if (consent === 'declined' || consent === 'pending') gates.push('face-checks-declined');
  else if (consent === 'withdrawn') gates.push('face-checks-withdrawn');
  else if (identity?.selfie?.state === 'copy') gates.push('selfie-copy');
  else if (identity?.selfie?.state !== 'match') gates.push('selfie-mismatch');
  if ((identity?.failedChecks?.length ?? 0) > 0) gates.push('check-failed-before');
  return gates;
}

/** Whether accepting needs `identityReason` and `secondProof`. */
export const acceptNeedsReason = (identity: Parameters<typeof acceptGates>[0]): boolean => acceptGates(identity).length > 0;

/** The refusal when a reviewer accepts past a gate without a reason and a second proof. */
export const IDENTITY_REASON_REQUIRED =
  'The proof of person is not complete: write why you accept this application anyway (identityReason) and name the second proof you have (secondProof), for example "video call on 2 December with ...".';

/** What the applicant under 18 is told when the application is refused. */
export const UNDER_18_MESSAGE =
  'Thank you for applying. Your ID shows that you are under 18, and Humanly can only work with adults, so we cannot take your application. We have deleted your photos. You are welcome to apply again once you are 18.';

export const selfieText = (result: SelfieResult) => SELFIE_RESULT_TEXTS[result];
