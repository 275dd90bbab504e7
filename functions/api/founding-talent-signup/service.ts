import { createHash } from 'node:crypto';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
import { foundingKeys, newApplicationId, pendingPrefix } from '../../shared/founding-keys';
import { log } from '../../shared/log';
import { readZipDirectory, s3RangeReader, UnreadableZipError } from '../../shared/zip-directory';

export interface SignupDeps {
  doc: DynamoDBDocumentClient;
  s3: S3Client;
  tableName: string;
  bucketName: string;
  publish: (detailType: string, detail: object) => Promise<void>;
  now?: () => Date;
  newId?: () => string;
}

/** Where the request came from, kept with the terms acceptance. */
export interface RequestOrigin {
  ip?: string;
  userAgent?: string;
}

interface IssuedItem {
  sk: string;
  uploadSession: string;
  name?: string;
  contentType: string;
  size: number;
  kind: 'photo' | 'zip';
}
interface UploadItem {
  sk: string;
  size: number;
  kind: 'photo' | 'zip';
  imageCount?: number;
  zipProblems?: string[];
}

/** One uploaded object of the application, as stored with it. */
export interface ApplicationUpload {
  key: string;
  kind: 'photo' | 'zip';
  size: number;
  /** Images a zip's directory lists. */
  imageCount?: number;
}

interface EmailLock {
  applicationId: string;
  fingerprint: string;
  submittedAt: string;
  response: FoundingSignupResponse;
}

export const ZIP_COUNT_WARNING =
  'Images inside zip files were counted from the zip; each photo is checked when we review your application.';

/** The same submission, normalized, always gives the same fingerprint (a repeat is answered, not stored). */
export function fingerprintOf(req: FoundingSignup): string {
  const normalized = { ...req, imagePaths: [...req.imagePaths].sort() };
  const ordered = Object.fromEntries(Object.entries(normalized).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(JSON.stringify(ordered)).digest('hex');
}

const isCancelled = (err: unknown) => (err as Error)?.name === 'TransactionCanceledException';

/**
 * A founding (or standard) talent application: checks that every image path is an upload
 * issued to this session under the applicant's own prefix and present in the bucket, counts
 * the images (zips by their directory) against 30-80, then stores the application and the
 * one-per-address lock in one transaction and announces `FoundingApplication.Submitted`.
 */
export async function submitApplication(deps: SignupDeps, req: FoundingSignup, origin: RequestOrigin = {}): Promise<FoundingSignupResponse> {
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

  const now = (deps.now ?? (() => new Date()))();
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
    ...foundingKeys.application(applicationId),
    id: applicationId,
    program: req.program,
    status: 'validating',
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
    gsi1pk: foundingKeys.listPk,
    gsi1sk: foundingKeys.listSk(submittedAt, applicationId),
  };
  const lock: EmailLock & { pk: string; sk: string } = { ...foundingKeys.emailLock(req.email), applicationId, fingerprint, submittedAt, response };

  try {
    await deps.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: deps.tableName, Item: lock, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: deps.tableName, Item: application, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: deps.tableName, Item: { ...foundingKeys.history(applicationId, submittedAt, 0), at: submittedAt, event: 'submitted' } } },
        ],
      }),
    );
  } catch (err) {
    if (!isCancelled(err)) throw err;
    // Another submission for this address won the race: the same one is answered, any other refused.
    const again = await answerToRepeat(deps, req.email, fingerprint);
    if (again) return again;
    throw err;
  }

  await announce(deps, applicationId, req.program, submittedAt);
  log.info('founding application submitted', { applicationId, program: req.program, imageCount, files: uploads.length });
  return response;
}

/** The original answer for the same submission; 409 for a different one from the same address. */
async function answerToRepeat(deps: SignupDeps, email: string, fingerprint: string): Promise<FoundingSignupResponse | undefined> {
  const out = await deps.doc.send(new GetCommand({ TableName: deps.tableName, Key: foundingKeys.emailLock(email), ConsistentRead: true }));
  const lock = out.Item as EmailLock | undefined;
  if (!lock) return undefined;
  if (lock.fingerprint !== fingerprint) throw new ConflictError(FOUNDING_MESSAGES.alreadyExists);
  // A first attempt whose announcement failed is announced now.
  const app = await deps.doc.send(
    new GetCommand({ TableName: deps.tableName, Key: foundingKeys.application(lock.applicationId), ConsistentRead: true }),
  );
  if (app.Item?.submittedEvent === 'failed') await announce(deps, lock.applicationId, app.Item.program, lock.submittedAt);
  log.info('founding application repeated', { applicationId: lock.applicationId });
  return lock.response;
}

async function announce(deps: SignupDeps, applicationId: string, program: FoundingSignup['program'], submittedAt: string) {
  const detail: FoundingApplicationSubmittedV1 = { version: 1, applicationId, program, submittedAt };
  try {
    await deps.publish(FOUNDING_APPLICATION_SUBMITTED, detail);
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: foundingKeys.application(applicationId),
        UpdateExpression: 'REMOVE submittedEvent',
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (err) {
    // Stored but not announced: the applicant's retry (same submission) announces it again.
    log.error('could not announce founding application', err, { applicationId });
    await deps.doc
      .send(
        new UpdateCommand({
          TableName: deps.tableName,
          Key: foundingKeys.application(applicationId),
          UpdateExpression: 'SET submittedEvent = :failed',
          ExpressionAttributeValues: { ':failed': 'failed' },
        }),
      )
      .catch((e) => log.error('could not mark the announcement as failed', e, { applicationId }));
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

  const issued = new Map<string, IssuedItem>();
  const uploaded = new Map<string, UploadItem>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.doc.send(
      new QueryCommand({
        TableName: deps.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': foundingKeys.draft(req.email) },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) {
      const sk = String(item.sk);
      if (sk.startsWith('ISSUED#')) issued.set(sk.slice('ISSUED#'.length), item as IssuedItem);
      else if (sk.startsWith('UPLOAD#')) uploaded.set(sk.slice('UPLOAD#'.length), item as UploadItem);
    }
    start = page.LastEvaluatedKey;
  } while (start);

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
async function countZip(deps: SignupDeps, key: string, size: number, ticket: IssuedItem, recorded?: UploadItem): Promise<number> {
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
