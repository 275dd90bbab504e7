import { createHash } from 'node:crypto';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  FOUNDING_APPLICATION_SUBMITTED,
  FOUNDING_MESSAGES,
  MAX_APPLICATION_IMAGES,
  MIN_APPLICATION_IMAGES,
  type FoundingApplicationSubmittedV1,
  type FoundingSignup,
  type FoundingSignupResponse,
} from '../../../events/founding';
import { ConflictError, ValidationError } from '../../shared/errors';
import { readZipDirectory, s3RangeReader, UnreadableZipError } from '../../founding/photos/zip-directory';
import { withIdempotencyKey, type Once } from '../../shared/idempotency';
import { log } from '../../shared/log';
import type { EmailLock, FoundingStore, IssuedUpload, UploadedObject } from '../../stores/founding';
import { newApplicationId, pendingPrefix } from '../../stores/founding-keys';

export interface SignupDeps {
  store: FoundingStore;
  s3: S3Client;
  bucketName: string;
  publish: (detailType: string, detail: object) => Promise<void>;
  once: Once;
  newId?: () => string;
}

/** Where the request came from, kept with the terms acceptance. */
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
 * Checks that every image path is an upload issued to this session under the applicant's own
 * prefix and present in the bucket, counts the images (zips by their directory) against 30-80,
 * then stores the application and the one-per-address lock in one transaction and announces
 * `FoundingApplication.Submitted`.
 */
async function submit(deps: SignupDeps, req: FoundingSignup, origin: RequestOrigin): Promise<FoundingSignupResponse> {
  const fingerprint = fingerprintOf(req);
  const repeat = await answerToRepeat(deps, req.email, fingerprint);
  if (repeat) return repeat;

  const uploads = await checkUploads(deps, req);
  const imageCount = uploads.reduce((n, u) => n + (u.kind === 'zip' ? (u.imageCount ?? 0) : 1), 0);
  if (imageCount < MIN_APPLICATION_IMAGES) throw new ValidationError(FOUNDING_MESSAGES.tooFewImages, { imagePaths: FOUNDING_MESSAGES.tooFewImages });
  if (imageCount > MAX_APPLICATION_IMAGES) {
    const message = FOUNDING_MESSAGES.tooManyImages(imageCount);
    throw new ValidationError(message, { imagePaths: message });
  }

  const now = deps.store.now();
  const submittedAt = now.toISOString();
  const applicationId = (deps.newId ?? newApplicationId)();
  const response: FoundingSignupResponse = {
    success: true,
    applicationId,
    imageCount,
    ...(uploads.some((u) => u.kind === 'zip') ? { warning: ZIP_COUNT_WARNING } : {}),
  };
  const excludedIndustries = [
    ...(req.excludeReligion ? ['religion'] : []),
    ...(req.excludePolitics ? ['politics'] : []),
    ...(req.excludeAlcohol ? ['alcohol'] : []),
  ];
  const application = {
    id: applicationId,
    program: req.program,
    status: 'validating' as const,
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
  };
  const lock: EmailLock = { applicationId, fingerprint, submittedAt, response };

  if (!(await deps.store.createApplication(application, lock))) {
    // Another submission for this address won the race: the same one is answered, any other refused.
    const again = await answerToRepeat(deps, req.email, fingerprint);
    if (again) return again;
    throw new Error('the application could not be stored');
  }

  await announce(deps, applicationId, req.program, submittedAt);
  log.info('founding application submitted', { applicationId, program: req.program, imageCount, files: uploads.length });
  return response;
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

async function announce(deps: SignupDeps, applicationId: string, program: FoundingSignup['program'], submittedAt: string) {
  const detail: FoundingApplicationSubmittedV1 = { version: 1, applicationId, program, submittedAt };
  try {
    await deps.publish(FOUNDING_APPLICATION_SUBMITTED, detail);
    await deps.store.updateApplication(applicationId, {}, { remove: ['submittedEvent'] });
  } catch (err) {
    // Stored but not announced: the applicant's retry (same submission) announces it again.
    log.error('could not announce founding application', err, { applicationId });
    await deps.store.updateApplication(applicationId, { submittedEvent: 'failed' }).catch((e) =>
      log.error('could not mark the announcement as failed', e, { applicationId }),
    );
    throw err;
  }
}

/**
 * Every path must be a key issued to this upload session under the applicant's own prefix,
 * named once, and present in the bucket (recorded from its S3 event, or found by HeadObject).
 */
async function checkUploads(deps: SignupDeps, req: FoundingSignup): Promise<ApplicationUpload[]> {
  const prefix = pendingPrefix(req.email);
  const notOwn = req.imagePaths.filter((p) => !p.startsWith(prefix) || p.slice(prefix.length).includes('/'));
  if (notOwn.length) {
    const message = `${notOwn.length} of the image paths are not your uploads. Please upload your images again.`;
    throw new ValidationError(message, { imagePaths: message });
  }
  if (new Set(req.imagePaths).size !== req.imagePaths.length) {
    throw new ValidationError('An image is named more than once.', { imagePaths: 'An image is named more than once.' });
  }

  const { issued, uploaded } = await deps.store.readDraft(req.email);

  const notIssued = req.imagePaths.filter((p) => issued.get(p)?.uploadSession !== req.uploadSession);
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
      return { key, kind: 'zip', size, imageCount: await countZip(deps, key, size, ticket, recorded) };
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
    const head = await deps.s3.send(new HeadObjectCommand({ Bucket: deps.bucketName, Key: key }));
    return head.ContentLength ?? 0;
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (err as Error).name === 'NotFound') return undefined;
    // Without list permission on the key's prefix S3 answers a missing key with 403.
    if (status === 403) {
      log.warn('upload not readable; treated as missing', {});
      return undefined;
    }
    throw err;
  }
}

/** Images a zip's directory lists; a zip that is damaged or unsafe is refused with its file name. */
async function countZip(deps: SignupDeps, key: string, size: number, ticket: IssuedUpload, recorded?: UploadedObject): Promise<number> {
  const fileName = ticket.name ?? 'A zip file';
  let count = recorded?.imageCount;
  let problems = recorded?.zipProblems;
  if (count === undefined) {
    try {
      const directory = await readZipDirectory(size, s3RangeReader(deps.s3, deps.bucketName, key));
      count = directory.imageCount;
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
  return count ?? 0;
}
