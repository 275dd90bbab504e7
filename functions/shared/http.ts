import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import { FAILURE_METRICS } from '../../events/metrics';
import { AppError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from './errors';
import { log } from './log';

/** JSON APIs take small bodies; anything larger is refused before parsing. */
export const MAX_JSON_BODY_BYTES = 16 * 1024;

export type HttpEvent = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayProxyEventV2['requestContext'] & {
    authorizer?: { jwt?: { claims: Record<string, unknown>; scopes?: string[] } };
  };
};
export type HttpResult = APIGatewayProxyStructuredResultV2;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/** A file name safe to put in a `Content-Disposition` header as it is. */
const SAFE_FILENAME = /^[\w.-]+$/;

/**
 * A CSV download (text from `toCsv`, functions/shared/csv.ts): 200, `text/csv`, saved under
 * `filename`, never cached. The name is ours (a month, a year, a day), never the caller's, so
 * it is checked rather than encoded.
 */
export function csv(filename: string, body: string): HttpResult {
  if (!SAFE_FILENAME.test(filename)) throw new Error(`unsafe CSV file name: ${filename}`);
  return {
    statusCode: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' },
    body,
  };
}

function rawBody(event: HttpEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * Reads and validates a JSON body against a schema, naming every problem. `maxBytes` raises the
 * size limit for a route whose payload is known to be larger (long texts plus many keys).
 */
export function parseJsonBody<S extends z.ZodType>(event: HttpEvent, schema: S, options: { maxBytes?: number } = {}): z.infer<S> {
  const maxBytes = options.maxBytes ?? MAX_JSON_BODY_BYTES;
  const contentType = event.headers?.['content-type'] ?? '';
  if (contentType && !/^application\/json\b/i.test(contentType)) {
    throw new UnsupportedMediaTypeError('Send the request body as JSON (Content-Type: application/json).');
  }
  const text = rawBody(event);
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    throw new PayloadTooLargeError(`Request body is too large: the limit is ${maxBytes / 1024} KB.`);
  }
  if (!text.trim()) throw new ValidationError('Request body is empty: send a JSON object.');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ValidationError('Request body is not valid JSON.');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ValidationError('Request body must be a JSON object.');
  }
  const result = schema.safeParse(data);
  if (!result.success) throw validationErrorFrom(result.error);
  return result.data;
}

export function validationErrorFrom(error: z.ZodError): ValidationError {
  // No prototype: a body's own `__proto__` key is named like any other unknown field.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[key] = `${key} is not a field this request accepts`;
    } else {
      const key = issue.path.join('.') || '(body)';
      fields[key] ??= issue.message;
    }
  }
  return new ValidationError(Object.values(fields).join('; '), fields);
}

/** Stripe's limit on an idempotency key's length. */
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The request's `Idempotency-Key` header (Stripe's convention: the client names one attempt,
 * and repeats it with the same key), or undefined when it sent none.
 */
export function idempotencyKeyOf(event: HttpEvent): string | undefined {
  const entry = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'idempotency-key');
  const key = entry?.[1]?.trim();
  if (key === undefined || key === '') return undefined;
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ValidationError(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters.`);
  }
  return key;
}

/**
 * Wraps a route's logic: domain errors become their status, anything else a logged 500 that is
 * counted as an unexpected error (in total and per route), which an alarm watches: the function
 * itself answered, so Lambda's own error count never sees it (decision 041).
 */
export function httpHandler(fn: (event: HttpEvent, context?: Context) => Promise<HttpResult>) {
  return async (event: HttpEvent, context?: Context): Promise<HttpResult> => {
    try {
      return await fn(event, context);
    } catch (err) {
      if (err instanceof AppError) {
        return json(err.status, err.fields ? { error: err.message, fields: err.fields } : { error: err.message });
      }
      const requestId = event.requestContext?.requestId;
      log.error('unhandled error', err, { route: event.routeKey, requestId });
      log.metric(FAILURE_METRICS.unexpectedError, { route: event.routeKey, fields: { requestId } });
      return json(500, { error: 'Something went wrong on our side. Please try again in a moment.' });
    }
  };
}
