import type { S3Client } from '@aws-sdk/client-s3';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PENDING_UPLOAD_SECONDS } from '../../../events/founding-values';
import { emailOfPendingKey, foundingKeys } from '../../shared/founding-keys';
import { log } from '../../shared/log';
import { readZipDirectory, s3RangeReader, UnreadableZipError } from '../../shared/zip-directory';

export interface RecordUploadDeps {
  doc: DynamoDBDocumentClient;
  s3: S3Client;
  tableName: string;
  bucketName: string;
  now?: () => Date;
}

/** The part of EventBridge's S3 `Object Created` event we read. */
export interface ObjectCreatedDetail {
  bucket: { name: string };
  object: { key: string; size?: number; etag?: string };
}


const isConditionFailure = (err: unknown) => (err as Error)?.name === 'ConditionalCheckFailedException';

/**
 * Records an uploaded object against the applicant's draft, once: the put is conditional on
 * the key, so an event delivered twice counts once. A zip also records how many photos its
 * directory lists, or why it cannot be used.
 */
export async function recordUpload(deps: RecordUploadDeps, detail: ObjectCreatedDetail): Promise<'recorded' | 'repeat' | 'ignored'> {
  const key = detail.object.key;
  const email = emailOfPendingKey(key);
  if (detail.bucket.name !== deps.bucketName || !email) return 'ignored';
  const size = detail.object.size ?? 0;
  const kind = /\.zip$/i.test(key) ? 'zip' : 'photo';
  const now = (deps.now ?? (() => new Date()))();
  const item: Record<string, unknown> = {
    ...foundingKeys.upload(email, key),
    size,
    etag: detail.object.etag,
    kind,
    uploadedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + PENDING_UPLOAD_SECONDS,
  };
  if (kind === 'zip') {
    try {
      const directory = await readZipDirectory(size, s3RangeReader(deps.s3, deps.bucketName, key));
      item.imageCount = directory.imageCount;
      item.zipProblems = directory.problems;
    } catch (err) {
      if (!(err instanceof UnreadableZipError)) throw err;
      item.zipProblems = [err.message];
    }
  }
  try {
    await deps.doc.send(
      new PutCommand({ TableName: deps.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  } catch (err) {
    if (isConditionFailure(err)) return 'repeat';
    throw err;
  }
  log.info('upload recorded', { kind, size, ...(item.imageCount !== undefined ? { imageCount: item.imageCount as number } : {}) });
  return 'recorded';
}
