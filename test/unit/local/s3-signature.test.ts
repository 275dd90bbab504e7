import { S3Client, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';
import {
  chunkSignature,
  computeChecksum,
  decodeAwsChunked,
  s3ErrorXml,
  sha256Hex,
  verifyBodyIntegrity,
  verifyS3Request,
  type IncomingS3Request,
  type S3AuthResult,
} from '../../../infra/local/s3-signature';

const credentials = { accessKeyId: 'twin', secretAccessKey: 'twin-secret' };
const HOST = '127.0.0.1:4566';
const signedAt = new Date('2026-03-01T10:00:00Z');
const verifyOpts = (now = new Date(signedAt.getTime() + 1000)) => ({ credentials: [credentials], region: 'us-east-1', now });

const client = new S3Client({
  endpoint: `http://${HOST}`,
  forcePathStyle: true,
  region: 'us-east-1',
  credentials,
  // As the twin's environment sets it; otherwise presigned PUTs carry a checksum of an empty body.
  requestChecksumCalculation: 'WHEN_REQUIRED',
});
afterAll(() => client.destroy());

/** A browser-style PUT of a presigned URL that signed content-type. */
async function presignPut(key: string, contentType = 'image/jpeg', expiresIn = 300): Promise<URL> {
  const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: 'uploads-bucket', Key: key, ContentType: contentType }), {
    expiresIn,
    signingDate: signedAt,
    signableHeaders: new Set(['content-type']),
  });
  return new URL(url);
}

function asRequest(url: URL, method: string, headers: Record<string, string> = {}): IncomingS3Request {
  return { method, url: url.pathname + url.search, headers: { host: url.host, ...headers } };
}

function expectFailure(result: S3AuthResult, status: number, code: string, message?: RegExp) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.status).toBe(status);
  expect(result.code).toBe(code);
  if (message) expect(result.message).toMatch(message);
}

describe('presigned URLs', () => {
  test('a valid presigned PUT is accepted, keys with spaces and symbols included', async () => {
    for (const key of ['talent/123/ref.jpg', 'a b/c+d(1)!é*~.jpg', 'x//double']) {
      const url = await presignPut(key);
      expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
      const result = verifyS3Request(asRequest(url, 'PUT', { 'content-type': 'image/jpeg' }), verifyOpts());
      expect(result).toMatchObject({ ok: true, kind: 'presigned', payloadHash: 'UNSIGNED-PAYLOAD', signing: { accessKeyId: 'twin' } });
    }
  });

  test('a presigned GET is accepted', async () => {
    const url = new URL(
      await getSignedUrl(client, new GetObjectCommand({ Bucket: 'uploads-bucket', Key: 'k.jpg', ResponseContentDisposition: 'attachment; filename="k.jpg"' }), {
        expiresIn: 60,
        signingDate: signedAt,
      }),
    );
    expect(verifyS3Request(asRequest(url, 'GET'), verifyOpts())).toMatchObject({ ok: true, kind: 'presigned' });
  });

  test('a tampered signature is rejected', async () => {
    const url = await presignPut('talent/123/ref.jpg');
    const sig = url.searchParams.get('X-Amz-Signature')!;
    url.searchParams.set('X-Amz-Signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    expectFailure(verifyS3Request(asRequest(url, 'PUT', { 'content-type': 'image/jpeg' }), verifyOpts()), 403, 'SignatureDoesNotMatch');
  });

  test('a tampered key is rejected', async () => {
    const url = await presignPut('talent/123/ref.jpg');
    url.pathname = url.pathname.replace('/123/', '/124/');
    const result = verifyS3Request(asRequest(url, 'PUT', { 'content-type': 'image/jpeg' }), verifyOpts());
    expectFailure(result, 403, 'SignatureDoesNotMatch');
    // S3 shows the canonical request it computed, which helps whoever debugs a signing bug.
    expect(!result.ok && result.details?.CanonicalRequest).toContain('/uploads-bucket/talent/124/ref.jpg');
  });

  test('a Content-Type other than the signed one is rejected', async () => {
    const url = await presignPut('talent/123/ref.jpg', 'image/jpeg');
    expectFailure(verifyS3Request(asRequest(url, 'PUT', { 'content-type': 'image/png' }), verifyOpts()), 403, 'SignatureDoesNotMatch');
    expectFailure(verifyS3Request(asRequest(url, 'PUT'), verifyOpts()), 403, 'SignatureDoesNotMatch');
  });

  test('a different method is rejected', async () => {
    const url = await presignPut('talent/123/ref.jpg');
    expectFailure(verifyS3Request(asRequest(url, 'DELETE', { 'content-type': 'image/jpeg' }), verifyOpts()), 403, 'SignatureDoesNotMatch');
  });

  test('an expired URL is rejected, and so is a lengthened expiry', async () => {
    const url = await presignPut('talent/123/ref.jpg', 'image/jpeg', 60);
    const at = (seconds: number) => verifyOpts(new Date(signedAt.getTime() + seconds * 1000));
    expect(verifyS3Request(asRequest(url, 'PUT', { 'content-type': 'image/jpeg' }), at(59)).ok).toBe(true);
    expectFailure(verifyS3Request(asRequest(url, 'PUT', { 'content-type': 'image/jpeg' }), at(61)), 403, 'AccessDenied', /Request has expired/);

    url.searchParams.set('X-Amz-Expires', '3600');
    expectFailure(verifyS3Request(asRequest(url, 'PUT', { 'content-type': 'image/jpeg' }), at(61)), 403, 'SignatureDoesNotMatch');
  });

  test('unknown keys, wrong secrets and other regions are rejected', async () => {
    const url = await presignPut('k.jpg');
    const req = asRequest(url, 'PUT', { 'content-type': 'image/jpeg' });
    expectFailure(verifyS3Request(req, { ...verifyOpts(), credentials: [{ accessKeyId: 'other', secretAccessKey: 'x' }] }), 403, 'InvalidAccessKeyId');
    expectFailure(verifyS3Request(req, { ...verifyOpts(), credentials: [{ accessKeyId: 'twin', secretAccessKey: 'wrong' }] }), 403, 'SignatureDoesNotMatch');
    expectFailure(verifyS3Request(req, { ...verifyOpts(), region: 'eu-west-1' }), 400, 'AuthorizationQueryParametersError');
  });
});

describe('header-signed requests', () => {
  const signer = new SignatureV4({ credentials, region: 'us-east-1', service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: true });
  const sign = (request: { method: string; path: string; query?: Record<string, string>; headers?: Record<string, string>; body?: string }) =>
    signer.sign(
      {
        protocol: 'http:',
        hostname: '127.0.0.1',
        port: 4566,
        method: request.method,
        path: request.path,
        query: request.query ?? {},
        headers: { host: HOST, ...request.headers },
        body: request.body,
      },
      { signingDate: signedAt },
    );
  const toIncoming = (signed: { method: string; path: string; query?: Record<string, unknown>; headers: Record<string, string> }): IncomingS3Request => {
    const query = new URLSearchParams(signed.query as Record<string, string>).toString().replace(/\+/g, '%20');
    return {
      method: signed.method,
      url: signed.path + (query ? `?${query}` : ''),
      headers: Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), v])),
    };
  };

  test('a signed request with a real payload hash is accepted; the hash is reported for the body check', async () => {
    const signed = await sign({ method: 'PUT', path: '/uploads-bucket/a%20b.txt', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    const result = verifyS3Request(toIncoming(signed), verifyOpts());
    expect(result).toMatchObject({ ok: true, kind: 'header', payloadHash: sha256Hex('hello') });
  });

  test('UNSIGNED-PAYLOAD and query parameters are honoured', async () => {
    const signed = await sign({
      method: 'GET',
      path: '/uploads-bucket',
      query: { 'list-type': '2', prefix: 'talent/1 2/' },
      headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    });
    const incoming = toIncoming(signed);
    expect(verifyS3Request(incoming, verifyOpts())).toMatchObject({ ok: true, payloadHash: 'UNSIGNED-PAYLOAD' });
    expectFailure(verifyS3Request({ ...incoming, url: incoming.url.replace('prefix=talent', 'prefix=client') }, verifyOpts()), 403, 'SignatureDoesNotMatch');
  });

  test('a tampered signed header or a stale date is rejected', async () => {
    const signed = (await sign({ method: 'PUT', path: '/uploads-bucket/k', headers: { 'content-type': 'text/plain' }, body: 'x' }));
    const incoming = toIncoming(signed);
    expectFailure(verifyS3Request({ ...incoming, headers: { ...incoming.headers, 'content-type': 'text/html' } }, verifyOpts()), 403, 'SignatureDoesNotMatch');
    expectFailure(verifyS3Request(incoming, verifyOpts(new Date(signedAt.getTime() + 16 * 60_000))), 403, 'RequestTimeTooSkewed');
  });

  test('a request without x-amz-content-sha256 is rejected as S3 does', async () => {
    const signed = (await sign({ method: 'GET', path: '/uploads-bucket/k' }));
    const incoming = toIncoming(signed);
    delete incoming.headers['x-amz-content-sha256'];
    expectFailure(verifyS3Request(incoming, verifyOpts()), 400, 'InvalidRequest');
  });

  test('no authentication at all is reported as anonymous (the caller decides)', () => {
    expect(verifyS3Request({ method: 'GET', url: '/uploads-bucket/k', headers: { host: HOST } }, verifyOpts())).toEqual({ ok: true, kind: 'anonymous' });
  });
});

describe('body integrity and aws-chunked bodies', () => {
  test('checks the signed sha256, Content-MD5 and x-amz-checksum-* (headers or presigned query)', () => {
    const body = Buffer.from('image bytes');
    const base = { headers: {}, url: '/b/k' };
    expect(verifyBodyIntegrity(body, { ...base, payloadHash: sha256Hex(body) })).toBeUndefined();
    expect(verifyBodyIntegrity(body, { ...base, payloadHash: sha256Hex('other') })).toMatchObject({ status: 400, code: 'XAmzContentSHA256Mismatch' });
    expect(verifyBodyIntegrity(body, { ...base, headers: { 'content-md5': 'AAAA' } })).toMatchObject({ code: 'BadDigest' });
    expect(verifyBodyIntegrity(body, { ...base, headers: { 'x-amz-checksum-crc32': computeChecksum('crc32', body) } })).toBeUndefined();
    // What an SDK presigned with WHEN_SUPPORTED carries: the CRC32 of an empty body.
    expect(verifyBodyIntegrity(body, { ...base, url: '/b/k?x-amz-checksum-crc32=AAAAAA%3D%3D' })).toMatchObject({ status: 400, code: 'BadDigest' });
  });

  test('checksums match the published check values', () => {
    const check = Buffer.from('123456789');
    const hex = (alg: Parameters<typeof computeChecksum>[0]) => Buffer.from(computeChecksum(alg, check), 'base64').toString('hex');
    expect(hex('crc32')).toBe('cbf43926');
    expect(hex('crc32c')).toBe('e3069283');
    expect(hex('crc64nvme')).toBe('ae8b14860a799888');
  });

  test('decodes aws-chunked bodies and verifies chunk signatures', () => {
    const signing = {
      accessKeyId: 'twin',
      longDate: '20260301T100000Z',
      scope: '20260301/us-east-1/s3/aws4_request',
      signature: 'a'.repeat(64),
      signingKey: Buffer.alloc(32, 7),
    };
    const chunks = [Buffer.from('hello '), Buffer.from('world'), Buffer.alloc(0)];
    let previous = signing.signature;
    const framed = chunks.map((chunk) => {
      previous = chunkSignature(signing, previous, chunk);
      return Buffer.concat([Buffer.from(`${chunk.length.toString(16)};chunk-signature=${previous}\r\n`), chunk, Buffer.from('\r\n')]);
    });
    const raw = Buffer.concat(framed);
    expect(decodeAwsChunked(raw, signing).body.toString()).toBe('hello world');
    const tampered = Buffer.from(raw.toString('latin1').replace('world', 'w0rld'), 'latin1');
    expect(() => decodeAwsChunked(tampered, signing)).toThrow(/signature/);

    const unsigned = Buffer.from('5\r\nhello\r\n0\r\nx-amz-checksum-crc32:NhCmhg==\r\n\r\n');
    expect(decodeAwsChunked(unsigned)).toEqual({ body: Buffer.from('hello'), trailers: { 'x-amz-checksum-crc32': 'NhCmhg==' } });
  });

  test('error bodies are S3-shaped XML', () => {
    expect(s3ErrorXml('AccessDenied', 'Request has expired', { Expires: 'a<b' }, 'RID')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message><Expires>a&lt;b</Expires><RequestId>RID</RequestId></Error>',
    );
  });
});
