// Proof of person (docs/identity.md, issue "Proof of person"): the applicant's consent to face
// checks, the signed consent, the live selfie, replacing photos, and what the review console
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
export const SELFIE_STATES = ['none', 'waiting-for-photos', 'match', 'no-match', 'no-face', 'several-faces', 'no-set'] as const;
export type SelfieState = (typeof SELFIE_STATES)[number];

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

/** `POST /founding-identity/selfie-upload`: a presigned PUT for the selfie (JPEG, at most SELFIE_MAX_BYTES). */
export const SELFIE_MAX_BYTES = 5 * 1024 * 1024;
export const SelfieUploadRequest = z.strictObject({
  token: IdentityToken,
  contentType: z.literal('image/jpeg', { error: 'The selfie must be a JPEG image (image/jpeg).' }),
  size: z
    .number({ error: 'size must be a number of bytes' })
    .int()
    .min(1, { error: 'The selfie is empty.' })
    .max(SELFIE_MAX_BYTES, { error: `The selfie must be at most ${SELFIE_MAX_BYTES / 1024 / 1024} MB.` }),
});
export const SelfieUploadResponse = z.object({ url: z.url(), key: z.string(), headers: z.record(z.string(), z.string()), expiresAt: z.iso.datetime() });
export type SelfieUploadResponse = z.infer<typeof SelfieUploadResponse>;

/** `POST /founding-identity/selfie`: the uploaded selfie is analysed now and matched with the photos. */
export const SelfieSubmitRequest = z.strictObject({ token: IdentityToken, key: z.string({ error: 'key is required' }).max(300) });

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
  selfie: z
    .object({ state: z.enum(SELFIE_STATES), message: z.string().optional(), score: z.number().optional(), threshold: z.number().optional(), url: z.url().optional(), takenAt: z.iso.datetime().optional() })
    .optional(),
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

/** Whether accepting needs a written reason: the selfie did not match (or none was taken while faces were checked). */
export function acceptNeedsReason(identity: Pick<ReviewIdentity, 'faceConsent' | 'selfie'> | undefined): boolean {
  if (!identity || identity.faceConsent !== 'given') return false;
  return identity.selfie?.state !== 'match';
}

/** The refusal when a reviewer accepts a mismatch without a reason. */
export const IDENTITY_REASON_REQUIRED = 'The selfie does not match the photos: write why you accept this application anyway (identityReason).';

export const selfieText = (result: SelfieResult) => SELFIE_RESULT_TEXTS[result];
