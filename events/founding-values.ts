// Founding-talent application constants and texts (docs/product.md#founding). Plain values, no
// zod, so the browser can import them without the schema library.

export const MIN_APPLICANT_AGE = 18;
export const MIN_APPLICATION_IMAGES = 30;
export const MAX_APPLICATION_IMAGES = 80;
export const FOUNDING_SPOTS = 30;
export const FOUNDING_ROYALTY_PERCENT = 35;
/** Standard royalty tiers, applied marginally per calendar month. */
export const STANDARD_ROYALTY_TIERS = [
  { upTo: 50, percent: 20 },
  { upTo: 200, percent: 25 },
  { upTo: null, percent: 30 },
] as const;

/** The picker accepts these; the workflow keeps only real JPEG and PNG photos. */
export const UPLOAD_EXTENSIONS = ['jpg', 'jpeg', 'png', 'zip'] as const;
export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];
export const UPLOAD_CONTENT_TYPES: Record<UploadExtension, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  zip: 'application/zip',
};
/** Per-file size limits, in bytes, signed into each upload URL. */
export const MAX_PHOTO_BYTES = 25 * 1024 * 1024;
export const MAX_ZIP_BYTES = 500 * 1024 * 1024;
/** Presigned upload URLs expire after this many seconds. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** Uploads wait under this prefix of the photos bucket until an application takes them. */
export const PENDING_PREFIX = 'pending/';
/** Pending uploads, and the records of their keys, expire after this many days. */
export const PENDING_UPLOAD_DAYS = 14;
export const PENDING_UPLOAD_SECONDS = PENDING_UPLOAD_DAYS * 24 * 60 * 60;

/**
 * Whether a zip entry counts as one of the application's photos: a .jpg/.jpeg/.png file that
 * is not a folder, a hidden file or macOS metadata. The browser and the server count by it.
 */
export function isCountedZipEntry(name: string): boolean {
  const parts = name.split('/');
  const base = parts[parts.length - 1];
  if (!base || base.startsWith('.') || parts.includes('__MACOSX')) return false;
  return /\.(jpe?g|png)$/i.test(base);
}

/**
 * Files the browser may ask URLs for in one request (a zip counts as one file).
 * @alias a limit of its own that happens to equal MAX_APPLICATION_IMAGES
 */
export const MAX_FILES_PER_UPLOAD_REQUEST = MAX_APPLICATION_IMAGES;
/** The browser uploads this many files at a time. */
export const BROWSER_UPLOAD_CONCURRENCY = 6;

/**
 * Caps on upload URLs (decision 013), each one conditional counter. An application holds at most
 * 80 photos; a session may ask for half as many again, for files that failed and were retried.
 */
export const MAX_UPLOADS_PER_SESSION = 120;
/** Keys issued per address per day: a full application and a second attempt. */
export const MAX_UPLOADS_PER_ADDRESS_PER_DAY = 200;
/** Keys issued per IP address per hour: a few applicants sharing one network. */
export const MAX_UPLOADS_PER_IP_PER_HOUR = 400;
export const UPLOAD_LIMIT_MESSAGES = {
  session: `This upload session has used its ${MAX_UPLOADS_PER_SESSION} uploads. Please reload the page and upload your photos again.`,
  address: `Uploads for one email address are limited to ${MAX_UPLOADS_PER_ADDRESS_PER_DAY} files a day. Please try again tomorrow.`,
  ip: `Uploads from one network are limited to ${MAX_UPLOADS_PER_IP_PER_HOUR} files an hour. Please try again later.`,
  otherAddress: 'This upload session belongs to another email address. Please reload the page and upload your photos again.',
} as const;

/** Photo validation limits (the workflow's validate step). */
export const PHOTO_LIMITS = {
  /** Shorter side, in pixels. */
  minSide: 512,
  /** Width x height. */
  maxPixels: 50_000_000,
  /** Re-encoded photos: longer side at most this, JPEG quality below. */
  storedMaxSide: 4096,
  storedQuality: 90,
  thumbnailSide: 320,
} as const;
/**
 * What one application may make the workflow examine (decision 013): photos and zip entries
 * alike count as files. Signup refuses more; validation stops at the same numbers (or after
 * MAX_APPLICATION_IMAGES accepted photos), so it ends well inside its time-out.
 */
export const MAX_EXAMINED_FILES = 200;
/** Bytes uploaded per application, all photos and zips together. */
export const MAX_APPLICATION_BYTES = 1024 * 1024 * 1024;
export const INTAKE_MESSAGES = {
  tooManyFiles: (n: number) =>
    `Your uploads hold ${n} files; an application may hold at most ${MAX_EXAMINED_FILES} files (of which ${MAX_APPLICATION_IMAGES} photos). Please remove files that are not photos.`,
  tooManyBytes: (bytes: number) =>
    `Your uploads add up to ${Math.ceil(bytes / (1024 * 1024))} MB; an application may upload at most ${MAX_APPLICATION_BYTES / (1024 * 1024)} MB in all.`,
} as const;
export const ZIP_LIMITS = {
  maxEntries: 200,
  /** Uncompressed size of one entry. */
  maxEntryBytes: MAX_PHOTO_BYTES,
  /** Uncompressed size of all entries together. */
  maxTotalBytes: 1024 * 1024 * 1024,
  /** Uncompressed / compressed, per entry. */
  maxRatio: 100,
} as const;

/** Admin thumbnail and photo URLs live this long. */
export const ADMIN_PHOTO_URL_TTL_SECONDS = 5 * 60;
/** Reviewers are reminded when an application has waited this long, and again each period. */
export const REVIEW_REMINDER_SECONDS = 7 * 24 * 60 * 60;
/** Photos of a rejected application are deleted after this many days. */
export const REJECTED_PHOTO_RETENTION_DAYS = 30;
export const REVIEW_TIME_TEXT = '15-20 business days';
/**
 * Photos tagged for deletion (rejected and invalid applications) that the workflow has not
 * deleted are expired by the bucket's lifecycle this many days after they were stored (decision 017).
 */
export const DELETION_BACKSTOP_DAYS = REJECTED_PHOTO_RETENTION_DAYS + 7;
/** The object tag that marks photos for deletion; the lifecycle backstop expires objects carrying it. */
export const DELETION_TAG = { key: 'retention', value: 'delete' } as const;
/** The workflow steps a failure can stop at, which an admin can retry from (decision 017). */
export const RETRYABLE_STEPS = [
  'ValidatePhotos',
  'AwaitIdentity',
  'AwaitReview',
  'AllocateSpot',
  'CreateTalent',
  'InviteTalent',
  'MarkPhotosForDeletion',
  'DeletePhotos',
  'DeleteInvalidPhotos',
] as const;
export type RetryableStep = (typeof RETRYABLE_STEPS)[number];

/**
 * How long the review waits for the proof of person (the applicant's consent, their photos
 * checked, replacements asked for): then it goes on, reviewed by hand with what there is.
 */
export const IDENTITY_WAIT_SECONDS = 21 * 24 * 3600;

export const APPLICATION_STATUSES = ['validating', 'pending_review', 'accepted', 'rejected', 'invalid', 'failed'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const APPLICATION_PROGRAMS = ['founding', 'standard'] as const;
export type ApplicationProgram = (typeof APPLICATION_PROGRAMS)[number];
export const EXCLUDABLE_INDUSTRIES = ['religion', 'politics', 'alcohol'] as const;
export type ExcludableIndustry = (typeof EXCLUDABLE_INDUSTRIES)[number];

/**
 * An application counts once its address is confirmed through the link emailed at signup
 * (decision 013). Until then it has this status, holds no address, is not listed for review,
 * and expires with its link after CONFIRMATION_DAYS.
 */
export const AWAITING_CONFIRMATION = 'awaiting_confirmation' as const;
export const CONFIRMATION_DAYS = 7;
export const CONFIRMATION_SECONDS = CONFIRMATION_DAYS * 24 * 60 * 60;
/** Signup and confirmation attempts per network per hour, and per address per day. */
export const SIGNUPS_PER_IP_PER_HOUR = 20;
export const SIGNUPS_PER_ADDRESS_PER_DAY = 10;
export const CONFIRMS_PER_IP_PER_HOUR = 30;
export const CONFIRMS_PER_ADDRESS_PER_HOUR = 10;
/** Texts of the address confirmation (docs/product.md#founding-confirmation). */
export const CONFIRMATION_MESSAGES = {
  checkEmail: 'We sent you an email. Please open the link in it to confirm your email address: your application counts once it is confirmed.',
  confirmed: 'Your email address is confirmed and your application is submitted.',
  invalidLink: 'This confirmation link is not valid. Please use the link in the latest email we sent you.',
  expiredLink: `This confirmation link has expired: links work for ${CONFIRMATION_DAYS} days. Please apply again.`,
  usedLink: 'This confirmation link has already been used. Your application is confirmed.',
  tooManySignups: `Applications from one network are limited to ${SIGNUPS_PER_IP_PER_HOUR} an hour. Please try again later.`,
  tooManySignupsForAddress: `Applications for one email address are limited to ${SIGNUPS_PER_ADDRESS_PER_DAY} a day. Please try again tomorrow.`,
  tooManyConfirms: `Confirmations from one network are limited to ${CONFIRMS_PER_IP_PER_HOUR} an hour. Please try again later.`,
  tooManyConfirmsForAddress: `Confirmations for one email address are limited to ${CONFIRMS_PER_ADDRESS_PER_HOUR} an hour. Please try again later.`,
} as const;

/** Alert and error texts, shown by the browser and answered by the server (docs/product.md#founding-messages). */
export const FOUNDING_MESSAGES = {
  termsRequired: 'Please agree to terms to continue.',
  underAge: 'You must be at least 18 years old to apply.',
  tooFewImages: 'Please upload at least 30 images to complete your application.',
  tooManyImages: (n: number) => `Please upload no more than 80 images. You currently have ${n} images selected.`,
  invalidEmail: 'Please enter a valid email address.',
  /** Server error for a second application from one address; the browser maps it below. */
  alreadyExists: 'An application with this email already exists.',
  duplicateAlert: 'This email has already been used to submit an application. Each person can only apply once.',
  non2xxAlert:
    'This email may have already been used to submit an application. If you believe this is an error, please contact support.',
  defaultAlert: 'There was an error submitting your application. Please try again.',
  emailNotSentAlert:
    'Application submitted successfully! However, we could not send a confirmation email. Please check your spam folder or contact support if you need confirmation.',
  emailMentionAlert: 'Application submitted, but we could not send a confirmation email. Please save your confirmation number if provided.',
  genericAlert: (message?: string) => `There was an error submitting your application: ${message || 'Please try again later.'}`,
  uploadFailed: (filename: string, message: string) => `Failed to upload ${filename}: ${message}`,
  progress: { uploading: 'Uploading images', submitting: 'Submitting application', almostDone: 'Almost done' },
  doNotClose: 'Please do not close this window.',
} as const;
