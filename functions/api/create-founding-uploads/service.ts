import { randomBytes } from 'node:crypto';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  MAX_PHOTO_BYTES,
  MAX_ZIP_BYTES,
  PENDING_UPLOAD_SECONDS,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_EXTENSIONS,
  UPLOAD_URL_TTL_SECONDS,
  type FoundingUploadRequest,
  type FoundingUploadResponse,
  type PresignedUpload,
  type UploadExtension,
} from '../../../events/founding';
import { ValidationError } from '../../shared/errors';
import { withIdempotencyKey, type Once } from '../../shared/idempotency';
import { log } from '../../shared/log';
import type { FoundingStore } from '../../stores/founding';
import { pendingPrefix } from '../../stores/founding-keys';

export interface UploadDeps {
  store: FoundingStore;
  s3: S3Client;
  bucketName: string;
  once: Once;
}

/** What browsers report for the accepted kinds besides the canonical type (Windows names zips oddly). */
const TYPE_ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'application/x-zip-compressed': 'application/zip',
  'application/x-zip': 'application/zip',
  'multipart/x-zip': 'application/zip',
};

const MB = 1024 * 1024;

/** 128 random bits, base64url (22 characters). */
const newUploadSession = () => randomBytes(16).toString('base64url');

function extensionOf(name: string): UploadExtension | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const ext = name.slice(dot + 1).toLowerCase();
  return (UPLOAD_EXTENSIONS as readonly string[]).includes(ext) ? (ext as UploadExtension) : undefined;
}

/** Why a file cannot be uploaded, or its extension and canonical content type. */
export function checkFile(file: { name: string; type: string; size: number }): { ext: UploadExtension; contentType: string } | string {
  const ext = extensionOf(file.name);
  if (!ext) return `${file.name}: only JPEG, PNG or ZIP files are accepted`;
  const reported = file.type.trim().toLowerCase();
  const contentType = UPLOAD_CONTENT_TYPES[ext];
  if ((TYPE_ALIASES[reported] ?? reported) !== contentType) {
    return `${file.name}: the file is ${reported || 'of an unknown type'}, not ${ext === 'zip' ? 'a ZIP archive' : `a ${ext.toUpperCase()} image`}`;
  }
  const limit = ext === 'zip' ? MAX_ZIP_BYTES : MAX_PHOTO_BYTES;
  if (file.size > limit) return `${file.name}: the file is larger than ${limit / MB} MB`;
  return { ext, contentType };
}

/**
 * Presigned PUT URLs for the files the browser picked. The server chooses every key under the
 * applicant's own prefix, and signs the content type, the exact length and `If-None-Match: *`
 * into each URL, so a URL can write only that many bytes of that type to a new key. Each
 * issued key is recorded against the upload session; signup accepts only those keys.
 */
export function createUploads(deps: UploadDeps, req: FoundingUploadRequest, idempotencyKey?: string): Promise<FoundingUploadResponse> {
  // With an Idempotency-Key a repeat gets the same keys and URLs (while they last), not new ones.
  return withIdempotencyKey(deps.once, 'founding-uploads', idempotencyKey, req, (request) => issueUploads(deps, request));
}

async function issueUploads(deps: UploadDeps, req: FoundingUploadRequest): Promise<FoundingUploadResponse> {
  const checked = req.files.map(checkFile);
  const problems: Record<string, string> = {};
  checked.forEach((c, i) => {
    if (typeof c === 'string') problems[`files.${i}`] = c;
  });
  if (Object.keys(problems).length) throw new ValidationError(Object.values(problems).join('; '), problems);

  const now = deps.store.now();
  const uploadSession = req.uploadSession ?? newUploadSession();
  const issuedAt = now.toISOString();
  const expiresAt = Math.floor(now.getTime() / 1000) + PENDING_UPLOAD_SECONDS;

  const uploads = await Promise.all(
    req.files.map(async (file, i): Promise<PresignedUpload> => {
      const { ext, contentType } = checked[i] as { ext: UploadExtension; contentType: string };
      const key = `${pendingPrefix(req.email)}${now.getTime()}-${randomBytes(6).toString('hex')}.${ext}`;
      const url = await getSignedUrl(
        deps.s3,
        new PutObjectCommand({ Bucket: deps.bucketName, Key: key, ContentType: contentType, ContentLength: file.size, IfNoneMatch: '*' }),
        { expiresIn: UPLOAD_URL_TTL_SECONDS, signableHeaders: new Set(['content-type', 'content-length', 'if-none-match']) },
      );
      await deps.store.recordIssuedUpload(req.email, key, {
        uploadSession,
        name: file.name,
        contentType,
        size: file.size,
        kind: ext === 'zip' ? 'zip' : 'photo',
        issuedAt,
        expiresAt,
      });
      // The browser sets these exactly; Content-Length follows from the file itself.
      return { name: file.name, key, url, method: 'PUT', headers: { 'content-type': contentType, 'if-none-match': '*' } };
    }),
  );
  log.info('upload urls issued', { files: uploads.length, newSession: !req.uploadSession });
  return { uploadSession, expiresIn: UPLOAD_URL_TTL_SECONDS, uploads };
}
