import { randomBytes } from 'node:crypto';
import {
  MAX_UPLOADS_PER_ADDRESS_PER_DAY,
  MAX_UPLOADS_PER_IP_PER_HOUR,
  MAX_UPLOADS_PER_SESSION,
  UPLOAD_LIMIT_MESSAGES,
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
} from '../../../../events/founding';
import { TooManyRequestsError, ValidationError } from '../../../shared/errors';
import { withIdempotencyKey, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import type { RateLimiter, RateRule } from '../../../shared/rate-limit';
import type { Bucket } from '../../../shared/s3';
import type { FoundingStore } from '../../store';
import { addressHashOf, pendingPrefix, uploadFolderOf } from '../../keys';

export interface UploadDeps {
  store: FoundingStore;
  /** The photos bucket, which presigns each upload. */
  photos: Pick<Bucket, 'createUrl'>;
  once: Once;
  limit: RateLimiter;
}

/** Who asks: the caller's IP address (rate-limited, never stored). */
export interface UploadOrigin {
  ip: string;
}

/** Per-network and per-address limits, counted per URL (decision 013). */
function uploadRateRules(email: string, ip: string): RateRule[] {
  return [
    { name: 'founding-uploads.ip', subject: ip, limit: MAX_UPLOADS_PER_IP_PER_HOUR, windowSeconds: 3600, message: UPLOAD_LIMIT_MESSAGES.ip },
    { name: 'founding-uploads.address', subject: email, limit: MAX_UPLOADS_PER_ADDRESS_PER_DAY, windowSeconds: 86_400, message: UPLOAD_LIMIT_MESSAGES.address },
  ];
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
 * upload session's opaque folder (no address in keys, which reach S3 access logs), and signs the content type, the exact length and `If-None-Match: *`
 * into each URL, so a URL can write only that many bytes of that type to a new key. Each
 * issued key is recorded against the upload session; signup accepts only those keys.
 */
export function createUploads(deps: UploadDeps, req: FoundingUploadRequest, origin: UploadOrigin, idempotencyKey?: string): Promise<FoundingUploadResponse> {
  // With an Idempotency-Key a repeat gets the same keys and URLs (while they last), not new ones.
  return withIdempotencyKey(deps.once, 'founding-uploads', idempotencyKey, req, (request) => issueUploads(deps, request, origin));
}

async function issueUploads(deps: UploadDeps, req: FoundingUploadRequest, origin: UploadOrigin): Promise<FoundingUploadResponse> {
  const checked = req.files.map(checkFile);
  const problems: Record<string, string> = {};
  checked.forEach((c, i) => {
    if (typeof c === 'string') problems[`files.${i}`] = c;
  });
  if (Object.keys(problems).length) throw new ValidationError(Object.values(problems).join('; '), problems);

  const now = deps.store.now();
  const uploadSession = req.uploadSession ?? newUploadSession();
  const folder = uploadFolderOf(uploadSession);
  const issuedAt = now.toISOString();
  const expiresAt = Math.floor(now.getTime() / 1000) + PENDING_UPLOAD_SECONDS;

  // Each URL counts against the network, the address and the session; one conditional write each.
  await deps.limit(uploadRateRules(req.email, origin.ip), req.files.length);
  const reserved = await deps.store.reserveUploads(folder, addressHashOf(req.email), req.files.length, MAX_UPLOADS_PER_SESSION, expiresAt);
  if (reserved === 'other-address') throw new ValidationError(UPLOAD_LIMIT_MESSAGES.otherAddress, { uploadSession: UPLOAD_LIMIT_MESSAGES.otherAddress });
  if (reserved === 'full') throw new TooManyRequestsError(UPLOAD_LIMIT_MESSAGES.session);

  const uploads = await Promise.all(
    req.files.map(async (file, i): Promise<PresignedUpload> => {
      const { ext, contentType } = checked[i] as { ext: UploadExtension; contentType: string };
      const key = `${pendingPrefix(folder)}${now.getTime()}-${randomBytes(6).toString('hex')}.${ext}`;
      const url = await deps.photos.createUrl(key, { expiresIn: UPLOAD_URL_TTL_SECONDS, contentType, contentLength: file.size });
      await deps.store.recordIssuedUpload(folder, key, {
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
