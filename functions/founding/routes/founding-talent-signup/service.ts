import { createHash } from 'node:crypto';
import {
  AWAITING_CONFIRMATION,
  CONFIRMATION_MESSAGES,
  CONFIRMATION_SECONDS,
  FOUNDING_MESSAGES,
  INTAKE_MESSAGES,
  MAX_APPLICATION_BYTES,
  MAX_APPLICATION_IMAGES,
  MAX_EXAMINED_FILES,
  MIN_APPLICATION_IMAGES,
  SIGNUPS_PER_ADDRESS_PER_DAY,
  SIGNUPS_PER_IP_PER_HOUR,
  type FoundingSignup,
  type FoundingSignupResponse,
} from '../../../../events/founding';
import type { ExcludableIndustry } from '../../../../events/founding-values';
import { ConflictError, ValidationError } from '../../../shared/errors';
import { rangeReaderOf, readZipDirectory, UnreadableZipError } from '../../photos/zip-directory';
import { addressConfirmationEmail, confirmationPageUrl } from '../../emails/confirm';
import type { Email } from '../../../shared/email';
import { ONE_HOUR, withIdempotencyKey, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import type { RateLimiter } from '../../../shared/rate-limit';
import type { Bucket } from '../../../shared/s3';
import type { FoundingStore, IssuedUpload, UploadedObject } from '../../store';
import { addressHashOf, newApplicationId, pendingPrefix, uploadFolderOf } from '../../keys';
import { announce, confirmTokenHash, newConfirmToken } from '../../confirmation';

export interface SignupDeps {
  store: FoundingStore;
  /** The photos bucket: an upload whose S3 event has not been recorded yet is looked up there. */
  photos: Pick<Bucket, 'size' | 'readRange'>;
  publish: (detailType: string, detail: object) => Promise<void>;
  once: Once;
  limit: RateLimiter;
  /** Sends the address confirmation email (SES). */
  send: (to: string, email: Email) => Promise<unknown>;
  siteUrl: string;
  newId?: () => string;
}

/** Where the request came from, kept with the terms acceptance (the IP is also rate-limited). */
export interface RequestOrigin {
  ip?: string;
  userAgent?: string;
}

/** One uploaded object of the application, as stored with it. */
interface ApplicationUpload {
  key: string;
  kind: 'photo' | 'zip';
  size: number;
  /** Images a zip's directory lists. */
  imageCount?: number;
  /** File entries a zip's directory lists (photos or not). */
  fileCount?: number;
}

const ZIP_COUNT_WARNING =
  'Images inside zip files were counted from the zip; each photo is checked when we review your application.';

/** The same submission, normalized, always gives the same fingerprint (a repeat is answered, not stored). */
export function fingerprintOf(req: FoundingSignup): string {
  const normalized = { ...req, imagePaths: [...req.imagePaths].sort() };
  const ordered = Object.fromEntries(Object.entries(normalized).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(JSON.stringify(ordered)).digest('hex');
}

/**
 * A founding (or standard) talent application. With an `Idempotency-Key` a repeat gets the first
 * answer as it was; without one, the submission's fingerprint on the per-address lock does
 * (and outlives the key's day).
 */
export function submitApplication(
  deps: SignupDeps,
  req: FoundingSignup,
  origin: RequestOrigin = {},
  idempotencyKey?: string,
): Promise<FoundingSignupResponse> {
  return withIdempotencyKey(deps.once, 'founding-talent-signup', idempotencyKey, req, (request) => submit(deps, request, origin));
}

/**
 * Checks that every image path is an upload issued to this session (under its opaque folder, to
 * this address) and present in the bucket, and counts the images (zips by their directory)
 * against 30-80. Then stores the application awaiting confirmation of its address and emails
 * the confirmation link (decision 013): nothing is locked until the address is confirmed, so
 * a stranger's unconfirmed application never blocks the address's owner. A second application
 * for an address already confirmed gets the duplicate message (409).
 */
async function submit(deps: SignupDeps, req: FoundingSignup, origin: RequestOrigin): Promise<FoundingSignupResponse> {
  await deps.limit([
    { name: 'founding-signup.ip', subject: origin.ip ?? 'unknown', limit: SIGNUPS_PER_IP_PER_HOUR, windowSeconds: 3600, message: CONFIRMATION_MESSAGES.tooManySignups },
    { name: 'founding-signup.address', subject: req.email, limit: SIGNUPS_PER_ADDRESS_PER_DAY, windowSeconds: 86_400, message: CONFIRMATION_MESSAGES.tooManySignupsForAddress },
  ]);
  const fingerprint = fingerprintOf(req);
  const repeat = await answerToRepeat(deps, req.email, fingerprint);
  if (repeat) return repeat;

  const uploads = await checkUploads(deps, req);
  // Every file counts towards what validation will examine, and every byte towards the application's total.
  const fileCount = uploads.reduce((n, u) => n + (u.kind === 'zip' ? (u.fileCount ?? u.imageCount ?? 0) : 1), 0);
  if (fileCount > MAX_EXAMINED_FILES) {
    const message = INTAKE_MESSAGES.tooManyFiles(fileCount);
    throw new ValidationError(message, { imagePaths: message });
  }
  const bytes = uploads.reduce((n, u) => n + u.size, 0);
  if (bytes > MAX_APPLICATION_BYTES) {
    const message = INTAKE_MESSAGES.tooManyBytes(bytes);
    throw new ValidationError(message, { imagePaths: message });
  }
  const imageCount = uploads.reduce((n, u) => n + (u.kind === 'zip' ? (u.imageCount ?? 0) : 1), 0);
  if (imageCount < MIN_APPLICATION_IMAGES) throw new ValidationError(FOUNDING_MESSAGES.tooFewImages, { imagePaths: FOUNDING_MESSAGES.tooFewImages });
  if (imageCount > MAX_APPLICATION_IMAGES) {
    const message = FOUNDING_MESSAGES.tooManyImages(imageCount);
    throw new ValidationError(message, { imagePaths: message });
  }

  const now = deps.store.now();
  const submittedAt = now.toISOString();
  const expiresAt = Math.floor(now.getTime() / 1000) + CONFIRMATION_SECONDS;
  const applicationId = (deps.newId ?? newApplicationId)();
  const response: FoundingSignupResponse = {
    success: true,
    applicationId,
    imageCount,
    ...(uploads.some((u) => u.kind === 'zip') ? { warning: ZIP_COUNT_WARNING } : {}),
  };
  const excludedIndustries: ExcludableIndustry[] = [
    ...(req.excludeReligion ? (['religion'] as const) : []),
    ...(req.excludePolitics ? (['politics'] as const) : []),
    ...(req.excludeAlcohol ? (['alcohol'] as const) : []),
  ];
  const application = {
    id: applicationId,
    program: req.program,
    status: AWAITING_CONFIRMATION,
    firstName: req.firstName,
    lastName: req.lastName,
    email: req.email,
    phone: req.phone,
    location: req.location,
    age: req.age,
    experience: req.experience,
    interests: req.interests,
    portfolioUrl: req.portfolioUrl,
    excludedIndustries,
    terms: { accepted: true, acceptedAt: submittedAt, ...(origin.ip ? { ip: origin.ip } : {}), ...(origin.userAgent ? { userAgent: origin.userAgent } : {}) },
    submittedAt,
    imageCount,
    uploadedFilesCount: req.uploadedFilesCount,
    imagePaths: req.imagePaths,
    uploads,
    uploadSession: req.uploadSession,
    uploadFolder: uploadFolderOf(req.uploadSession),
    fingerprint,
    response,
  };

  // The same submission repeated (or sent twice at once) is stored once and answered alike.
  const stored = await deps.store.createPendingApplication(application, { fingerprint, applicationId, response, expiresAt });
  const pending = stored.submission;
  try {
    await sendConfirmation(deps, pending.applicationId, { email: req.email, firstName: req.firstName, program: req.program });
  } catch (err) {
    // A repeat while the first request is still sending the link: that one sends it.
    if (stored.created || !(err instanceof ConflictError)) throw err;
  }
  log.info(stored.created ? 'founding application awaiting confirmation' : 'founding application repeated before confirmation', {
    applicationId: pending.applicationId,
    program: req.program,
    imageCount,
    files: uploads.length,
  });
  return pending.response;
}

/**
 * Emails the confirmation link, once per application for an hour (a repeat of the submission
 * inside that hour is not mailed again; a failed send leaves no record, so the repeat sends).
 * Each send has a fresh token; only its hash is stored.
 */
async function sendConfirmation(deps: SignupDeps, applicationId: string, to: { email: string; firstName: string; program: FoundingSignup['program'] }) {
  await deps.once(
    { name: 'founding-address-confirmation', key: 'applicationId', expiresAfterSeconds: ONE_HOUR },
    { applicationId },
    async () => {
      const now = deps.store.now();
      const token = newConfirmToken();
      await deps.store.putConfirmToken(confirmTokenHash(token), {
        applicationId,
        issuedAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + CONFIRMATION_SECONDS,
      });
      const email = addressConfirmationEmail({ firstName: to.firstName, program: to.program, confirmUrl: confirmationPageUrl(deps.siteUrl, token) });
      try {
        await deps.send(to.email, email);
      } catch (err) {
        log.error('address confirmation email failed', err, { applicationId });
        throw err;
      }
      return { sent: true };
    },
  );
}

/** The original answer for the same submission; 409 for a different one from the same address. */
async function answerToRepeat(deps: SignupDeps, email: string, fingerprint: string): Promise<FoundingSignupResponse | undefined> {
  const lock = await deps.store.getEmailLock(email);
  if (!lock) return undefined;
  if (lock.fingerprint !== fingerprint) throw new ConflictError(FOUNDING_MESSAGES.alreadyExists);
  // A first attempt whose announcement failed is announced now.
  const app = await deps.store.getApplication(lock.applicationId);
  if (app.submittedEvent === 'failed') await announce(deps, lock.applicationId, app.program, lock.submittedAt);
  log.info('founding application repeated', { applicationId: lock.applicationId });
  return lock.response;
}

/**
 * Every path must be a key issued to this upload session (under its folder, for this address),
 * named once, and present in the bucket (recorded from its S3 event, or found in the bucket).
 */
async function checkUploads(deps: SignupDeps, req: FoundingSignup): Promise<ApplicationUpload[]> {
  const folder = uploadFolderOf(req.uploadSession);
  const prefix = pendingPrefix(folder);
  const notOwn = req.imagePaths.filter((p) => !p.startsWith(prefix) || p.slice(prefix.length).includes('/'));
  if (notOwn.length) {
    const message = `${notOwn.length} of the image paths are not your uploads. Please upload your images again.`;
    throw new ValidationError(message, { imagePaths: message });
  }
  if (new Set(req.imagePaths).size !== req.imagePaths.length) {
    throw new ValidationError('An image is named more than once.', { imagePaths: 'An image is named more than once.' });
  }

  const { issued, uploaded, addressHash } = await deps.store.readDraft(folder);

  // The session was opened for this address; keys of another address's session are not this applicant's.
  const ownSession = addressHash === addressHashOf(req.email);
  const notIssued = req.imagePaths.filter((p) => !ownSession || issued.get(p)?.uploadSession !== req.uploadSession);
  if (notIssued.length) {
    const message = `${notIssued.length} of the image paths were not issued to this upload session. Please upload your images again.`;
    throw new ValidationError(message, { imagePaths: message });
  }

  const uploads = await Promise.all(
    req.imagePaths.map(async (key): Promise<ApplicationUpload | undefined> => {
      const ticket = issued.get(key)!;
      const recorded = uploaded.get(key);
      const size = recorded?.size ?? (await sizeInBucket(deps, key));
      if (size === undefined) return undefined;
      if (ticket.kind !== 'zip') return { key, kind: 'photo', size };
      return { key, kind: 'zip', size, ...(await countZip(deps, key, size, ticket, recorded)) };
    }),
  );
  const missing = uploads.filter((u) => !u).length;
  if (missing) {
    const message = `${missing} of your images have not finished uploading. Please upload them again.`;
    throw new ValidationError(message, { imagePaths: message });
  }
  return uploads as ApplicationUpload[];
}

async function sizeInBucket(deps: SignupDeps, key: string): Promise<number | undefined> {
  try {
    return await deps.photos.size(key);
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    // Without list permission on the key's prefix S3 answers a missing key with 403.
    if (status === 403) {
      log.warn('upload not readable; treated as missing', {});
      return undefined;
    }
    throw err;
  }
}

/** Images a zip's directory lists; a zip that is damaged or unsafe is refused with its file name. */
async function countZip(
  deps: SignupDeps,
  key: string,
  size: number,
  ticket: IssuedUpload,
  recorded?: UploadedObject,
): Promise<{ imageCount: number; fileCount: number }> {
  const fileName = ticket.name ?? 'A zip file';
  let count = recorded?.imageCount;
  let files = recorded?.fileCount;
  let problems = recorded?.zipProblems;
  if (count === undefined || files === undefined) {
    try {
      const directory = await readZipDirectory(size, rangeReaderOf(deps.photos, key));
      count = directory.imageCount;
      files = directory.fileCount;
      problems = directory.problems;
    } catch (err) {
      if (!(err instanceof UnreadableZipError)) throw err;
      problems = [err.message];
    }
  }
  if (problems?.length) {
    const message = `${fileName} cannot be used: ${problems.join('; ')}.`;
    throw new ValidationError(message, { imagePaths: message });
  }
  return { imageCount: count ?? 0, fileCount: files ?? count ?? 0 };
}
