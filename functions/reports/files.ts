// A reported or checked file as the request body: its type, presence and size are checked before
// anything is decoded (shared by the report's upload and the talent's check).
import {
  REPORT_FILE_EMPTY_MESSAGE,
  REPORT_FILE_MAX_BYTES,
  REPORT_FILE_TOO_LARGE_MESSAGE,
  REPORT_FILE_TYPE_MESSAGE,
  REPORT_FILE_TYPES,
} from '../../events/report-values';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../shared/errors';
import type { HttpEvent } from '../shared/http';

export interface SentFile {
  contentType?: string;
  body?: Buffer;
}

/** The request's raw body and Content-Type (API Gateway hands a binary body over base64-encoded). */
export function sentFileOf(event: HttpEvent): SentFile {
  return { contentType: event.headers?.['content-type'], body: event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : undefined };
}

/** The file's bytes and type; 415 for another type, 400 when empty, 413 above the limit. */
export function checkedFile(file: SentFile): { bytes: Buffer; contentType: string } {
  const type = (file.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!(REPORT_FILE_TYPES as readonly string[]).includes(type)) throw new UnsupportedMediaTypeError(REPORT_FILE_TYPE_MESSAGE);
  if (!file.body?.length) throw new ValidationError(REPORT_FILE_EMPTY_MESSAGE);
  if (file.body.length > REPORT_FILE_MAX_BYTES) throw new PayloadTooLargeError(REPORT_FILE_TOO_LARGE_MESSAGE);
  return { bytes: file.body, contentType: type };
}

/** Where a reported file is kept in the private reports bucket. */
const REPORT_FILES_PREFIX = 'report-files/';
export const reportFileKey = (fileId: string) => `${REPORT_FILES_PREFIX}${fileId}`;
