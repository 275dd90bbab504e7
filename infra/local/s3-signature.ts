// AWS Signature Version 4 verification for S3 requests, the way S3 does it.
//
// s3rver only checks that a presigned URL has not expired and that the access key id exists; it
// never recomputes a V4 signature. The twin must not be more permissive than AWS where it matters
// (a browser PUT with the wrong Content-Type, a tampered key or expiry must fail as it would in
// the cloud), so the S3 front proxy runs every request through `verifyS3Request` first.
//
// Pure: no I/O, the clock is injectable. Canonicalisation is S3's Signature Version 4, for both
// header and query-string (presigned URL) authentication.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createScope, getCanonicalQuery } from '@smithy/signature-v4';

const ALGORITHM = 'AWS4-HMAC-SHA256';
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
/** Signed aws-chunked uploads: every chunk carries a signature chained from the seed signature. */
export const STREAMING_SIGNED_PAYLOAD = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD';
export const STREAMING_SIGNED_PAYLOAD_TRAILER = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER';
const STREAMING_UNSIGNED_PAYLOAD_TRAILER = 'STREAMING-UNSIGNED-PAYLOAD-TRAILER';
const STREAMING_PAYLOADS = new Set([
  STREAMING_SIGNED_PAYLOAD,
  STREAMING_SIGNED_PAYLOAD_TRAILER,
  STREAMING_UNSIGNED_PAYLOAD_TRAILER,
]);
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** S3 rejects header-signed requests whose clock differs from its own by more than 15 minutes. */
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
/** Presigned URLs live at most 7 days. */
const MAX_PRESIGNED_EXPIRES_S = 7 * 24 * 60 * 60;

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** A request as the Node http server received it. */
export interface IncomingS3Request {
  method: string;
  /** Path and query exactly as received (`req.url`), still percent-encoded. */
  url: string;
  /** Lower-case header names; arrays for repeated headers (`req.headersDistinct` works best). */
  headers: Record<string, string | string[] | undefined>;
}

export interface VerifyOptions {
  /** Known key pairs, or a lookup from access key id to secret. */
  credentials: S3Credentials[] | ((accessKeyId: string) => string | undefined);
  /** The region every credential scope must name. */
  region: string;
  /** Defaults to 's3'. */
  service?: string;
  /** Defaults to the current time. */
  now?: Date;
}

/** What a verified request was signed with; the proxy needs it for aws-chunked bodies. */
export interface SigningInfo {
  accessKeyId: string;
  /** `yyyymmddThhmmssZ` */
  longDate: string;
  /** `date/region/service/aws4_request` */
  scope: string;
  signature: string;
  signingKey: Buffer;
}

export type S3AuthResult =
  | {
      ok: true;
      kind: 'presigned' | 'header';
      /** The x-amz-content-sha256 the client signed: a hex sha256, UNSIGNED-PAYLOAD or STREAMING-*. */
      payloadHash: string;
      signing: SigningInfo;
    }
  | { ok: true; kind: 'anonymous' }
  | S3AuthFailure;

export interface S3AuthFailure {
  ok: false;
  status: number;
  code: string;
  message: string;
  /** Extra elements S3 puts into the <Error> body (StringToSign, CanonicalRequest, ...). */
  details?: Record<string, string>;
}

const fail = (status: number, code: string, message: string, details?: Record<string, string>): S3AuthFailure => ({
  ok: false,
  status,
  code,
  message,
  details,
});

const signatureMismatch = (accessKeyId: string, stringToSign: string, canonicalRequest: string) =>
  fail(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    { AWSAccessKeyId: accessKeyId, StringToSign: stringToSign, CanonicalRequest: canonicalRequest },
  );

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ is %XX (upper case). */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * S3's canonical URI: each path segment decoded once and re-encoded once, slashes kept (empty
 * segments too: S3 keys may contain `//`). No `.`/`..` normalisation, unlike other services.
 */
function canonicalUri(rawPath: string): string {
  const path = rawPath || '/';
  return path
    .split('/')
    .map((segment) => uriEncode(safeDecode(segment)))
    .join('/');
}

/** Splits a raw query string into decoded names and values. `+` stays a plus, as S3 treats it. */
function parseQuery(rawQuery: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = safeDecode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : safeDecode(part.slice(eq + 1));
    const existing = query[name];
    if (existing === undefined) query[name] = value;
    else query[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}

function splitUrl(url: string): { path: string; rawQuery: string } {
  const q = url.indexOf('?');
  return q === -1 ? { path: url, rawQuery: '' } : { path: url.slice(0, q), rawQuery: url.slice(q + 1) };
}

function headerValue(headers: IncomingS3Request['headers'], name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(',') : value;
}

function single(query: Record<string, string | string[]>, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `name:value` lines for the signed headers, values trimmed with inner whitespace collapsed. */
function canonicalHeaders(headers: IncomingS3Request['headers'], signedHeaders: string[]): string {
  return signedHeaders
    .map((name) => {
      const raw = headers[name];
      const values = raw === undefined ? [''] : Array.isArray(raw) ? raw : [raw];
      const value = values.map((v) => v.replace(/[\r\n]/g, ' ').replace(/\s+/g, ' ').trim()).join(',');
      return `${name}:${value}\n`;
    })
    .join('');
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function signingKeyFor(secretAccessKey: string, shortDate: string, region: string, service: string): Buffer {
  const kDate = hmac(`AWS4${secretAccessKey}`, shortDate);
  const kRegion = hmac(kDate, region);
  const kService = hmac(kRegion, service);
  return hmac(kService, 'aws4_request');
}

function sameSignature(expected: string, provided: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(provided.toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `20240102T030405Z` -> Date, or undefined. */
function parseAmzDate(value: string | undefined): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function toAmzDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

function lookupSecret(opts: VerifyOptions, accessKeyId: string): string | undefined {
  if (typeof opts.credentials === 'function') return opts.credentials(accessKeyId);
  return opts.credentials.find((c) => c.accessKeyId === accessKeyId)?.secretAccessKey;
}

interface ParsedCredential {
  accessKeyId: string;
  shortDate: string;
  region: string;
  service: string;
}

function parseCredential(value: string): ParsedCredential | undefined {
  const parts = value.split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request' || !parts[0]) return undefined;
  const [accessKeyId, shortDate, region, service] = parts;
  return { accessKeyId, shortDate, region, service };
}

function computeSignature(
  req: IncomingS3Request,
  query: Record<string, string | string[]>,
  signedHeaders: string[],
  payloadHash: string,
  longDate: string,
  cred: ParsedCredential,
  secret: string,
) {
  const { path } = splitUrl(req.url);
  const canonicalRequest = [
    req.method.toUpperCase(),
    canonicalUri(path),
    // smithy's canonical query: sorted, RFC 3986 encoded, X-Amz-Signature left out.
    getCanonicalQuery({ query } as Parameters<typeof getCanonicalQuery>[0]),
    canonicalHeaders(req.headers, signedHeaders),
    signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
  const scope = createScope(cred.shortDate, cred.region, cred.service);
  const stringToSign = [ALGORITHM, longDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = signingKeyFor(secret, cred.shortDate, cred.region, cred.service);
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return { canonicalRequest, stringToSign, signature, signingKey, scope };
}

function checkScope(
  cred: ParsedCredential,
  longDate: string,
  opts: VerifyOptions,
  code: 'AuthorizationQueryParametersError' | 'AuthorizationHeaderMalformed',
): S3AuthFailure | undefined {
  const service = opts.service ?? 's3';
  if (cred.shortDate !== longDate.slice(0, 8)) {
    return fail(400, code, `Invalid credential date "${cred.shortDate}". This date is not the same as X-Amz-Date: "${longDate.slice(0, 8)}".`);
  }
  if (cred.region !== opts.region) {
    return fail(400, code, `The authorization header is malformed; the region '${cred.region}' is wrong; expecting '${opts.region}'`, {
      Region: opts.region,
    });
  }
  if (cred.service !== service) {
    return fail(400, code, `The authorization header is malformed; incorrect service "${cred.service}". This endpoint belongs to "${service}".`);
  }
  return undefined;
}

function parseSignedHeaders(value: string): string[] | undefined {
  const names = value.split(';').map((h) => h.trim().toLowerCase());
  if (names.some((h) => !h)) return undefined;
  return names;
}

function verifyPresigned(req: IncomingS3Request, query: Record<string, string | string[]>, opts: VerifyOptions, now: Date): S3AuthResult {
  const code = 'AuthorizationQueryParametersError';
  if (single(query, 'X-Amz-Algorithm') !== ALGORITHM) {
    return fail(400, code, `X-Amz-Algorithm only supports "${ALGORITHM}"`);
  }
  const credential = single(query, 'X-Amz-Credential');
  const longDate = single(query, 'X-Amz-Date');
  const expiresRaw = single(query, 'X-Amz-Expires');
  const signedHeadersRaw = single(query, 'X-Amz-SignedHeaders');
  const provided = single(query, 'X-Amz-Signature');
  if (!credential || !longDate || !expiresRaw || !signedHeadersRaw || !provided) {
    return fail(
      400,
      code,
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  }
  const cred = parseCredential(credential);
  if (!cred) return fail(400, code, `Error parsing the X-Amz-Credential parameter; the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".`);
  const signedAt = parseAmzDate(longDate);
  if (!signedAt) return fail(400, code, `X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd'T'HHmmss'Z'"`);
  const scopeError = checkScope(cred, longDate, opts, code);
  if (scopeError) return scopeError;
  if (!/^\d+$/.test(expiresRaw)) return fail(400, code, 'X-Amz-Expires should be a number');
  const expires = Number(expiresRaw);
  if (expires < 1) return fail(400, code, 'X-Amz-Expires must be non-negative');
  if (expires > MAX_PRESIGNED_EXPIRES_S) {
    return fail(400, code, 'X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less than 604800 seconds');
  }
  const signedHeaders = parseSignedHeaders(signedHeadersRaw);
  if (!signedHeaders || !signedHeaders.includes('host')) {
    return fail(400, code, 'X-Amz-SignedHeaders must contain host');
  }
  const secret = lookupSecret(opts, cred.accessKeyId);
  if (secret === undefined) {
    return fail(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', {
      AWSAccessKeyId: cred.accessKeyId,
    });
  }
  if (signedAt.getTime() - now.getTime() > MAX_CLOCK_SKEW_MS) {
    return fail(403, 'AccessDenied', 'Request is not valid yet', { 'X-Amz-Date': longDate, ServerTime: toAmzDate(now) });
  }
  const expiresAt = new Date(signedAt.getTime() + expires * 1000);
  if (now.getTime() > expiresAt.getTime()) {
    return fail(403, 'AccessDenied', 'Request has expired', {
      'X-Amz-Expires': expiresRaw,
      Expires: expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      ServerTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
  }
  // Presigned URLs sign an unknown payload unless the signer put a hash into the query.
  const payloadHash = single(query, 'X-Amz-Content-Sha256') ?? UNSIGNED_PAYLOAD;
  const computed = computeSignature(req, query, signedHeaders, payloadHash, longDate, cred, secret);
  if (!sameSignature(computed.signature, provided)) {
    return signatureMismatch(cred.accessKeyId, computed.stringToSign, computed.canonicalRequest);
  }
  return {
    ok: true,
    kind: 'presigned',
    payloadHash,
    signing: { accessKeyId: cred.accessKeyId, longDate, scope: computed.scope, signature: computed.signature, signingKey: computed.signingKey },
  };
}

function parseAuthorizationHeader(value: string): { credential: string; signedHeaders: string; signature: string } | undefined {
  const rest = value.slice(ALGORITHM.length).trim();
  const fields = new Map<string, string>();
  for (const part of rest.split(',')) {
    const eq = part.indexOf('=');
    if (eq === -1) return undefined;
    fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = fields.get('Credential');
  const signedHeaders = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (!credential || !signedHeaders || !signature) return undefined;
  return { credential, signedHeaders, signature };
}

function verifyHeader(req: IncomingS3Request, query: Record<string, string | string[]>, opts: VerifyOptions, now: Date): S3AuthResult {
  const code = 'AuthorizationHeaderMalformed';
  const authorization = headerValue(req.headers, 'authorization') ?? '';
  if (!authorization.startsWith(`${ALGORITHM} `)) {
    // SigV2 ("AWS key:sig") and anything else: S3 no longer accepts SigV2 for new buckets.
    return fail(400, 'InvalidArgument', 'Unsupported Authorization Type', { ArgumentName: 'Authorization', ArgumentValue: authorization });
  }
  const parsed = parseAuthorizationHeader(authorization);
  if (!parsed) {
    return fail(400, code, 'The authorization header is malformed; the authorization header requires three components: Credential, SignedHeaders, and Signature.');
  }
  const cred = parseCredential(parsed.credential);
  if (!cred) return fail(400, code, 'The authorization header is malformed; the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".');
  const payloadHash = headerValue(req.headers, 'x-amz-content-sha256');
  if (!payloadHash) return fail(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  if (!(payloadHash === UNSIGNED_PAYLOAD || STREAMING_PAYLOADS.has(payloadHash) || /^[0-9a-f]{64}$/i.test(payloadHash))) {
    return fail(400, 'InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD, or a valid sha256 value.', {
      ArgumentName: 'x-amz-content-sha256',
      ArgumentValue: payloadHash,
    });
  }
  const amzDate = headerValue(req.headers, 'x-amz-date');
  let signedAt = parseAmzDate(amzDate);
  let longDate = amzDate;
  if (!amzDate) {
    const date = headerValue(req.headers, 'date');
    const parsedDate = date ? new Date(date) : undefined;
    if (parsedDate && !Number.isNaN(parsedDate.getTime())) {
      signedAt = parsedDate;
      longDate = toAmzDate(parsedDate);
    }
  }
  if (!signedAt || !longDate) return fail(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  const scopeError = checkScope(cred, longDate, opts, code);
  if (scopeError) return scopeError;
  const signedHeaders = parseSignedHeaders(parsed.signedHeaders);
  if (!signedHeaders || !signedHeaders.includes('host')) {
    return fail(400, code, 'The authorization header is malformed; SignedHeaders must contain host.');
  }
  const secret = lookupSecret(opts, cred.accessKeyId);
  if (secret === undefined) {
    return fail(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', {
      AWSAccessKeyId: cred.accessKeyId,
    });
  }
  if (Math.abs(now.getTime() - signedAt.getTime()) > MAX_CLOCK_SKEW_MS) {
    return fail(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.', {
      RequestTime: longDate,
      ServerTime: toAmzDate(now),
      MaxAllowedSkewMilliseconds: String(MAX_CLOCK_SKEW_MS),
    });
  }
  const computed = computeSignature(req, query, signedHeaders, payloadHash, longDate, cred, secret);
  if (!sameSignature(computed.signature, parsed.signature)) {
    return signatureMismatch(cred.accessKeyId, computed.stringToSign, computed.canonicalRequest);
  }
  return {
    ok: true,
    kind: 'header',
    payloadHash,
    signing: { accessKeyId: cred.accessKeyId, longDate, scope: computed.scope, signature: computed.signature, signingKey: computed.signingKey },
  };
}

/**
 * Verifies a request's SigV4 signature (Authorization header or presigned query). Requests with
 * no authentication at all come back as `{ ok: true, kind: 'anonymous' }`: whether anonymous
 * access is allowed is the caller's decision (S3: only for public buckets; CORS preflights always).
 * Does not read the body: for a hex `payloadHash` the caller must compare it with the body's
 * sha256 (S3 answers XAmzContentSHA256Mismatch).
 */
export function verifyS3Request(req: IncomingS3Request, opts: VerifyOptions): S3AuthResult {
  const now = opts.now ?? new Date();
  const query = parseQuery(splitUrl(req.url).rawQuery);
  const hasHeaderAuth = headerValue(req.headers, 'authorization') !== undefined;
  const hasQueryV4 = 'X-Amz-Algorithm' in query || 'X-Amz-Signature' in query;
  const hasQueryV2 = 'Signature' in query && 'AWSAccessKeyId' in query;
  const mechanisms = [hasHeaderAuth, hasQueryV4, hasQueryV2].filter(Boolean).length;
  if (mechanisms === 0) return { ok: true, kind: 'anonymous' };
  if (mechanisms > 1) {
    return fail(
      400,
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
      { ArgumentName: 'Authorization' },
    );
  }
  if (hasQueryV2) return fail(400, 'InvalidArgument', 'Signature Version 2 is not supported; use AWS4-HMAC-SHA256');
  return hasHeaderAuth ? verifyHeader(req, query, opts, now) : verifyPresigned(req, query, opts, now);
}

/**
 * Chunk signature of one aws-chunked chunk (STREAMING-AWS4-HMAC-SHA256-PAYLOAD): chained from the
 * previous chunk's signature, starting with the request's seed signature.
 */
export function chunkSignature(signing: SigningInfo, previousSignature: string, chunk: Buffer): string {
  const stringToSign = [
    'AWS4-HMAC-SHA256-PAYLOAD',
    signing.longDate,
    signing.scope,
    previousSignature,
    EMPTY_SHA256,
    sha256Hex(chunk),
  ].join('\n');
  return createHmac('sha256', signing.signingKey).update(stringToSign, 'utf8').digest('hex');
}

export interface DecodedChunkedBody {
  body: Buffer;
  trailers: Record<string, string>;
}

/**
 * Decodes an `aws-chunked` body (`<hex-size>[;chunk-signature=<sig>]\r\n<data>\r\n ... 0...\r\n`
 * followed by optional trailer lines). With `signing`, every chunk signature is verified.
 * Throws an Error whose message is suitable for an S3 error body.
 */
export function decodeAwsChunked(raw: Buffer, signing?: SigningInfo): DecodedChunkedBody {
  const parts: Buffer[] = [];
  const trailers: Record<string, string> = {};
  let offset = 0;
  let previous = signing?.signature ?? '';
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', offset, 'latin1');
    if (lineEnd === -1) throw new Error('Incomplete aws-chunked body: missing chunk header');
    const header = raw.subarray(offset, lineEnd).toString('latin1');
    const [sizeHex, ...extensions] = header.split(';');
    const size = parseInt(sizeHex.trim(), 16);
    if (!Number.isFinite(size) || size < 0) throw new Error(`Invalid aws-chunked chunk size "${sizeHex}"`);
    const dataStart = lineEnd + 2;
    const data = raw.subarray(dataStart, dataStart + size);
    if (data.length !== size) throw new Error('Incomplete aws-chunked body: chunk shorter than its size');
    if (signing) {
      const provided = extensions.map((e) => e.split('=')).find(([k]) => k.trim() === 'chunk-signature')?.[1]?.trim();
      const expected = chunkSignature(signing, previous, data);
      if (!provided || !sameSignature(expected, provided)) throw new Error('The chunk signature does not match');
      previous = expected;
    }
    offset = dataStart + size;
    if (size === 0) break;
    parts.push(data);
    if (raw.subarray(offset, offset + 2).toString('latin1') !== '\r\n') throw new Error('Malformed aws-chunked body');
    offset += 2;
  }
  // Trailer section: "name:value\r\n" lines, then an empty line.
  const rest = raw.subarray(offset).toString('latin1');
  for (const line of rest.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { body: Buffer.concat(parts), trailers };
}

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

/** S3's XML error body. */
export function s3ErrorXml(code: string, message: string, details: Record<string, string> = {}, requestId?: string): string {
  const extra = Object.entries(details)
    .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
    .join('');
  const id = requestId ? `<RequestId>${escapeXml(requestId)}</RequestId>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${escapeXml(code)}</Code><Message>${escapeXml(message)}</Message>${extra}${id}</Error>`;
}

// ---------------------------------------------------------------------------------------------
// Body integrity. S3 rejects a body that does not match a digest the client declared (signed
// x-amz-content-sha256, Content-MD5, x-amz-checksum-*). s3rver checks none of them, and one of
// them matters to us: SDK v3 presigned PUTs made with the default
// requestChecksumCalculation=WHEN_SUPPORTED carry `x-amz-checksum-crc32` of an EMPTY body, which
// real S3 rejects when the browser uploads the actual file. The twin must fail the same way.

export type ChecksumAlgorithm = 'crc32' | 'crc32c' | 'crc64nvme' | 'sha1' | 'sha256';
const CHECKSUM_ALGORITHMS: readonly ChecksumAlgorithm[] = ['crc32', 'crc32c', 'crc64nvme', 'sha1', 'sha256'];

function makeCrc32Table(reversedPoly: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ reversedPoly : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}
let crc32Table: Uint32Array | undefined;
let crc32cTable: Uint32Array | undefined;
function crc32With(table: Uint32Array, data: Buffer): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

let crc64Table: BigUint64Array | undefined;
function crc64nvme(data: Buffer): bigint {
  if (!crc64Table) {
    crc64Table = new BigUint64Array(256);
    const poly = 0x9a6c9329ac4bc9b5n; // CRC-64/NVME, reflected
    for (let n = 0; n < 256; n++) {
      let c = BigInt(n);
      for (let k = 0; k < 8; k++) c = c & 1n ? (c >> 1n) ^ poly : c >> 1n;
      crc64Table[n] = c;
    }
  }
  let crc = 0xffffffffffffffffn;
  for (let i = 0; i < data.length; i++) crc = crc64Table[Number((crc ^ BigInt(data[i])) & 0xffn)] ^ (crc >> 8n);
  return crc ^ 0xffffffffffffffffn;
}

/** The base64 checksum S3 expects in x-amz-checksum-<algorithm>. */
export function computeChecksum(algorithm: ChecksumAlgorithm, body: Buffer): string {
  switch (algorithm) {
    case 'sha1':
    case 'sha256':
      return createHash(algorithm).update(body).digest('base64');
    case 'crc32':
    case 'crc32c': {
      const table =
        algorithm === 'crc32' ? (crc32Table ??= makeCrc32Table(0xedb88320)) : (crc32cTable ??= makeCrc32Table(0x82f63b78));
      const out = Buffer.alloc(4);
      out.writeUInt32BE(crc32With(table, body));
      return out.toString('base64');
    }
    case 'crc64nvme': {
      const out = Buffer.alloc(8);
      out.writeBigUInt64BE(crc64nvme(body));
      return out.toString('base64');
    }
  }
}

/**
 * Checks `body` against every digest the request declared: the signed x-amz-content-sha256 (when
 * it is a real hash), Content-MD5, and x-amz-checksum-* from headers, the presigned query (S3
 * treats hoisted x-amz-* query parameters as headers) or aws-chunked trailers.
 */
export function verifyBodyIntegrity(
  body: Buffer,
  source: {
    headers: IncomingS3Request['headers'];
    url: string;
    payloadHash?: string;
    trailers?: Record<string, string>;
  },
): S3AuthFailure | undefined {
  if (source.payloadHash && /^[0-9a-f]{64}$/i.test(source.payloadHash)) {
    const actual = sha256Hex(body);
    if (actual !== source.payloadHash.toLowerCase()) {
      return fail(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", {
        ClientComputedContentSHA256: source.payloadHash,
        S3ComputedContentSHA256: actual,
      });
    }
  }
  const md5 = headerValue(source.headers, 'content-md5');
  if (md5 !== undefined && createHash('md5').update(body).digest('base64') !== md5.trim()) {
    return fail(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  }
  const query = parseQuery(splitUrl(source.url).rawQuery);
  const fromQuery = (name: string) => {
    const key = Object.keys(query).find((k) => k.toLowerCase() === name);
    return key === undefined ? undefined : single(query, key);
  };
  for (const algorithm of CHECKSUM_ALGORITHMS) {
    const name = `x-amz-checksum-${algorithm}`;
    const declared = headerValue(source.headers, name) ?? fromQuery(name) ?? source.trailers?.[name];
    if (declared === undefined) continue;
    if (computeChecksum(algorithm, body) !== declared.trim()) {
      return fail(400, 'BadDigest', `The ${algorithm.toUpperCase()} you specified did not match the calculated checksum.`);
    }
  }
  return undefined;
}
