import type { FaceFinding, ReviewIdentity } from './identity';
import * as z from 'zod';

import {
  APPLICATION_PROGRAMS,
  APPLICATION_STATUSES,
  type RetryableStep,
  EXCLUDABLE_INDUSTRIES,
  FOUNDING_MESSAGES,
  MAX_APPLICATION_IMAGES,
  MAX_FILES_PER_UPLOAD_REQUEST,
  MIN_APPLICANT_AGE,
} from './founding-values';

export * from './founding-values';

const text = (name: string, max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${name} is required` : `${name} must be a string`) })
    .trim()
    .max(max, { error: `${name} must be at most ${max} characters` });
const requiredText = (name: string, max: number) => text(name, max).min(1, { error: `${name} is required` });
const optionalText = (name: string, max: number) => text(name, max).optional().default('');

const PORTFOLIO_URL_MESSAGE = 'portfolioUrl must be a web address starting with http:// or https://';
/** An absolute http(s) URL with a host: nothing a reviewer's click could run (javascript:, data:, file:). */
function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Trimmed and lowercased, as the upload keys and the one-application-per-address rule use it. */
const applicantEmail = z
  .string({ error: (i) => (i.input === undefined ? 'email is required' : 'email must be a string') })
  .trim()
  .toLowerCase()
  .max(254, { error: 'email must be at most 254 characters' })
  .pipe(z.email({ error: FOUNDING_MESSAGES.invalidEmail }));

/** 128 random bits, base64url: ties uploads and the submission that uses them to one browser. */
const UploadSession = z.string().regex(/^[A-Za-z0-9_-]{22}$/, { error: 'uploadSession is not valid' });

/** `POST /founding-uploads`: the browser asks for presigned PUT URLs for the files it picked. */
export const FoundingUploadRequest = z
  .object({
    email: applicantEmail,
    /** Leave out on the first request; send the answer's value with every later one. */
    uploadSession: UploadSession.optional(),
    files: z
      .array(
        z
          .object({
            name: requiredText('file name', 255),
            /** The file's MIME type as the browser reports it; signed into the URL. */
            type: requiredText('file type', 100),
            size: z.number({ error: 'file size must be a number' }).int().positive({ error: 'file size must be positive' }),
          })
          .strict(),
        { error: 'files must be a list' },
      )
      .min(1, { error: 'files must name at least one file' })
      .max(MAX_FILES_PER_UPLOAD_REQUEST, { error: `files may name at most ${MAX_FILES_PER_UPLOAD_REQUEST} files` }),
  })
  .strict();
export type FoundingUploadRequest = z.infer<typeof FoundingUploadRequest>;

export const PresignedUpload = z.object({
  /** The file name the browser sent, to match the answer to its file. */
  name: z.string(),
  /** `pending/{upload folder}/{timestamp-random}.{ext}` (the folder is a hash of the upload session) */
  key: z.string(),
  url: z.url(),
  method: z.literal('PUT'),
  /** Headers the PUT must carry exactly (content-type, if-none-match); they are signed. */
  headers: z.record(z.string(), z.string()),
});
export type PresignedUpload = z.infer<typeof PresignedUpload>;

export const FoundingUploadResponse = z.object({
  uploadSession: UploadSession,
  expiresIn: z.number().int().positive(),
  uploads: z.array(PresignedUpload),
});
export type FoundingUploadResponse = z.infer<typeof FoundingUploadResponse>;

/**
 * `POST /founding-talent-signup` (also `/functions/v1/founding-talent-signup`): the original
 * founding signup payload plus `terms`, the `uploadSession` the uploads were issued to, and
 * `program` (`standard` from /talent-application). See docs/product.md#founding-submit.
 */
export const FoundingSignupRequest = z
  .object({
    firstName: requiredText('firstName', 100),
    lastName: optionalText('lastName', 100),
    email: applicantEmail,
    phone: optionalText('phone', 40),
    location: requiredText('location', 200),
    experience: requiredText('experience', 5000),
    interests: optionalText('interests', 5000),
    portfolioUrl: optionalText('portfolioUrl', 2000)
      // The form suggests `yoursite.com`: an address without a scheme is taken as https.
      .transform((url) => (url && !/^[a-z][a-z0-9+.-]*:/i.test(url) ? `https://${url}` : url))
      .refine((url) => url === '' || isWebAddress(url), { error: PORTFOLIO_URL_MESSAGE }),
    age: z
      .number({ error: 'age must be a number' })
      .int({ error: 'age must be a whole number' })
      .max(130, { error: 'age must be a real age' })
      .refine((a) => a >= MIN_APPLICANT_AGE, { error: FOUNDING_MESSAGES.underAge }),
    excludeReligion: z.boolean({ error: 'excludeReligion must be true or false' }).default(false),
    excludePolitics: z.boolean({ error: 'excludePolitics must be true or false' }).default(false),
    excludeAlcohol: z.boolean({ error: 'excludeAlcohol must be true or false' }).default(false),
    terms: z.literal(true, { error: FOUNDING_MESSAGES.termsRequired }),
    uploadedFilesCount: z.number({ error: 'uploadedFilesCount must be a number' }).int().nonnegative(),
    imagePaths: z
      .array(z.string({ error: 'imagePaths must be strings' }).max(400), { error: 'imagePaths must be a list' })
      .min(1, { error: FOUNDING_MESSAGES.tooFewImages })
      .max(MAX_APPLICATION_IMAGES, { error: 'imagePaths may name at most 80 files' }),
    uploadSession: UploadSession,
    program: z.enum(APPLICATION_PROGRAMS).default('founding'),
  })
  .strict();
export type FoundingSignupRequest = z.input<typeof FoundingSignupRequest>;
export type FoundingSignup = z.output<typeof FoundingSignupRequest>;

/** `success`, `error`, `warning`, `emailSent` where known: the fields the original clients read. */
export const FoundingSignupResponse = z.object({
  success: z.boolean(),
  applicationId: z.string().optional(),
  /** Images counted, zips opened. */
  imageCount: z.number().int().optional(),
  error: z.string().optional(),
  warning: z.string().optional(),
  emailSent: z.boolean().optional(),
});
export type FoundingSignupResponse = z.infer<typeof FoundingSignupResponse>;

/** `POST /founding-confirm`: the token of the confirmation link emailed at signup (decision 013). */
export const FoundingConfirmRequest = z
  .object({
    token: z
      .string({ error: (i) => (i.input === undefined ? 'token is required' : 'token must be a string') })
      .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'token is not a confirmation token: please open the link from the email again' }),
  })
  .strict();
export type FoundingConfirmRequest = z.infer<typeof FoundingConfirmRequest>;

export const FoundingConfirmResponse = z.object({
  success: z.literal(true),
  applicationId: z.string(),
  program: z.enum(APPLICATION_PROGRAMS),
  message: z.string(),
  /**
   * The applicant's identity token (on the first confirmation only: it is stored hashed): the
   * confirmation page goes on to the consent and the live selfie with it (POST /founding-identity*).
   */
  identityToken: z.string().optional(),
});
export type FoundingConfirmResponse = z.infer<typeof FoundingConfirmResponse>;

/**
 * `FoundingApplication.Submitted` v1: published when the address is confirmed; starts the review workflow. Ids only: the application
 * table holds the personal data.
 */
export const FOUNDING_APPLICATION_SUBMITTED = 'FoundingApplication.Submitted';
export const FoundingApplicationSubmittedV1 = z.object({
  version: z.literal(1),
  applicationId: z.string(),
  program: z.enum(APPLICATION_PROGRAMS),
  submittedAt: z.iso.datetime(),
});
export type FoundingApplicationSubmittedV1 = z.infer<typeof FoundingApplicationSubmittedV1>;

/**
 * `FoundingApplication.IdentityCheckRequested` v1: something the face checks depend on changed
 * (the applicant answered the face data consent, the photos were validated, replacement photos
 * were sent, an ID verified with a selfie): the check-faces trigger runs the checks, or resumes a
 * review by hand. Ids only.
 */
export const FOUNDING_IDENTITY_CHECK_REQUESTED = 'FoundingApplication.IdentityCheckRequested';
export const FoundingIdentityCheckRequestedV1 = z.object({
  version: z.literal(1),
  applicationId: z.string(),
  /**
   * A Stripe Identity VerificationSession verified with a selfie (docs/identity.md, "Verified
   * identity"): the trigger reads that selfie from Stripe, matches it with the set and looks for
   * copies, instead of checking the photos.
   */
  sessionId: z.string().optional(),
});
export type FoundingIdentityCheckRequestedV1 = z.infer<typeof FoundingIdentityCheckRequestedV1>;

export const FOUNDING_APPLICATION_DECIDED = 'FoundingApplication.Decided';
export const FoundingApplicationDecidedV1 = z.object({
  version: z.literal(1),
  applicationId: z.string(),
  decision: z.enum(['accept', 'reject']),
  decidedAt: z.iso.datetime(),
});
export type FoundingApplicationDecidedV1 = z.infer<typeof FoundingApplicationDecidedV1>;

// ---- Admin API ---------------------------------------------------------------------------

const ApplicationStatus = z.enum(APPLICATION_STATUSES);
const ApplicationProgram = z.enum(APPLICATION_PROGRAMS);

/** `GET /admin/applications` query. */
export const ApplicationListQuery = z
  .object({
    status: ApplicationStatus.optional(),
    program: ApplicationProgram.optional(),
    /** ISO dates (inclusive) on submittedAt. */
    from: z.string().optional(),
    to: z.string().optional(),
    /** Applications that exclude this industry. */
    excludes: z.enum(EXCLUDABLE_INDUSTRIES).optional(),
    /** Name or email contains (case-insensitive). */
    q: z.string().max(200).optional(),
    sort: z.enum(['submittedAt', 'name', 'status']).default('submittedAt'),
    order: z.enum(['ASC', 'DESC']).default('DESC'),
    offset: z.coerce.number().int().nonnegative().default(0),
    limit: z.coerce.number().int().positive().max(200).default(25),
  })
  .strict();
export type ApplicationListQuery = z.input<typeof ApplicationListQuery>;

export interface ApplicationDecisionRecord {
  decision: 'accept' | 'reject';
  /** The reviewer's internal note: kept in the history, never sent to the applicant. */
  note: string;
  /** What the reviewer wrote to the applicant: sent in the acceptance or rejection email. */
  messageToApplicant?: string;
  /** The reviewer's email (from their token). */
  decidedBy: string;
  decidedAt: string;
}

export interface ApplicationSummary {
  id: string;
  program: 'founding' | 'standard';
  status: (typeof APPLICATION_STATUSES)[number];
  firstName: string;
  lastName: string;
  email: string;
  location: string;
  age: number;
  excludedIndustries: Array<(typeof EXCLUDABLE_INDUSTRIES)[number]>;
  submittedAt: string;
  imageCount: number;
  /** After validation. */
  validPhotoCount?: number;
  rejectedPhotoCount?: number;
  confirmationEmail?: 'sent' | 'failed';
  decision?: ApplicationDecisionRecord;
  /** Set on acceptance. */
  founding?: boolean;
  royaltyPlan?: 'founding-35' | 'standard-tiers';
  talentId?: string;
  /** Status `failed`: the workflow step that failed for good, its error name, when (decision 017). */
  failure?: ApplicationFailure;
}

interface ApplicationFailure {
  step: RetryableStep;
  /** The error's name only (no message: it may carry personal data). */
  error: string;
  at: string;
  /** Times an admin has retried this application. */
  retries?: number;
}

export interface PhotoResult {
  /** The uploaded object, or `{zipKey}#{entry path}` for a photo inside a zip. */
  source: string;
  accepted: boolean;
  /** Why a photo was not accepted, in words a reviewer understands. */
  reason?: string;
  width?: number;
  height?: number;
  /** Index of the stored photo (photos/{index}.jpg, thumbs/{index}.jpg) when accepted. */
  index?: number;
  /** Face checks (docs/identity.md), once run: whether the photo counts toward the 30, and why not. */
  usable?: boolean;
  findings?: FaceFinding[];
  /** The main face's box, relative to the photo (0..1): training crops centre on it. */
  face?: { x: number; y: number; width: number; height: number };
  /** Replaced by the applicant (no longer in the set). */
  replacedAt?: string;
}

export interface ApplicationDetail extends ApplicationSummary {
  phone: string;
  experience: string;
  interests: string;
  portfolioUrl: string;
  terms: { accepted: true; acceptedAt: string; ip?: string; userAgent?: string };
  photoResults: PhotoResult[];
  /** Short-lived URLs (ADMIN_PHOTO_URL_TTL_SECONDS), accepted photos only. */
  photos: Array<{ index: number; width: number; height: number; thumbnailUrl: string; url: string }>;
  history: Array<{ at: string; event: string; by?: string; note?: string }>;
  /** The proof of person: consent, findings summary, selfie (absent on applications from before). */
  identity?: ReviewIdentity;
}

const MessageToApplicant = z
  .string({ error: 'messageToApplicant must be a string' })
  .trim()
  .max(2000, { error: 'messageToApplicant must be at most 2000 characters' })
  .default('');

/** `POST /admin/applications/{id}/decision` */
export const DecisionRequest = z
  .object({
    decision: z.enum(['accept', 'reject'], { error: "decision must be 'accept' or 'reject'" }),
    note: z.string({ error: 'note must be a string' }).trim().max(2000, { error: 'note must be at most 2000 characters' }).default(''),
    messageToApplicant: MessageToApplicant,
    /** Why the application is accepted past an identity gate (acceptGates; required then: IDENTITY_REASON_REQUIRED); kept in the history. */
    identityReason: z.string({ error: 'identityReason must be a string' }).trim().max(2000, { error: 'identityReason must be at most 2000 characters' }).optional(),
    /** The second proof of person the reviewer has, named (required with identityReason): "video call on 2 December with ...". */
    secondProof: z.string({ error: 'secondProof must be a string' }).trim().max(500, { error: 'secondProof must be at most 500 characters' }).optional(),
  })
  .strict();
export type DecisionRequest = z.input<typeof DecisionRequest>;

/**
 * `POST /admin/applications/{id}/email-preview`: the email a decision would send, rendered by
 * the same code that sends it (docs/product.md#decision-email-preview).
 */
export const EmailPreviewRequest = z
  .object({
    decision: z.enum(['accept', 'reject'], { error: "decision must be 'accept' or 'reject'" }),
    messageToApplicant: MessageToApplicant,
  })
  .strict();
export type EmailPreviewRequest = z.input<typeof EmailPreviewRequest>;

export interface EmailPreview {
  /** The applicant's address. */
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** `POST /admin/applications/{id}/retry` → 202: the workflow resumes at the failed step. */
export interface RetryAnswer {
  id: string;
  status: (typeof APPLICATION_STATUSES)[number];
  resumedAt: RetryableStep;
}
