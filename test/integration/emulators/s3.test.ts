// The twin sets these for every function (infra/local/twin.ts); clients created below read them.
process.env.AWS_REQUEST_CHECKSUM_CALCULATION = 'WHEN_REQUIRED';
process.env.AWS_RESPONSE_CHECKSUM_VALIDATION = 'WHEN_REQUIRED';

import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startS3, type S3Emulator, type S3ObjectCreatedEvent } from '../../../infra/local/emulators/s3';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { createBuckets } from '../../../infra/local/provision';

jest.setTimeout(30_000);

const BUCKET = 'marketplace-local-uploads';
const WEB_ORIGIN = 'http://localhost:5173';
// AWS::S3::Bucket Properties (CloudFormation shape: ExposedHeaders, MaxAge).
const uploadsBucket = {
  name: BUCKET,
  properties: {
    CorsConfiguration: {
      CorsRules: [{ AllowedMethods: ['PUT', 'GET'], AllowedOrigins: [WEB_ORIGIN], AllowedHeaders: ['*'], ExposedHeaders: ['ETag'], MaxAge: 3000 }],
    },
    PublicAccessBlockConfiguration: { BlockPublicAcls: true },
  },
};

describe('S3 (s3rver behind the SigV4-verifying proxy)', () => {
  let s3: S3Emulator;
  let client: S3Client;
  const events: S3ObjectCreatedEvent[] = [];
  const nextEvent = (key: string) =>
    new Promise<S3ObjectCreatedEvent>((resolve) => {
      const off = s3.onObjectCreated((e) => {
        if (e.key === key) {
          off();
          resolve(e);
        }
      });
    });

  beforeAll(async () => {
    s3 = await startS3();
    s3.onObjectCreated((e) => {
      events.push(e);
    });
    client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
    expect(await createBuckets(s3.endpoint, [uploadsBucket])).toEqual({ created: [BUCKET], existing: [] });
    expect(await createBuckets(s3.endpoint, [uploadsBucket])).toEqual({ created: [], existing: [BUCKET] });
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
  });

  const presignPut = (key: string, opts: { contentType?: string; expiresIn?: number; signingDate?: Date; client?: S3Client } = {}) =>
    getSignedUrl(opts.client ?? client, new PutObjectCommand({ Bucket: BUCKET, Key: key, ContentType: opts.contentType ?? 'image/jpeg' }), {
      expiresIn: opts.expiresIn ?? 300,
      signingDate: opts.signingDate,
      // Our upload API signs content-type so the browser cannot upload something else.
      signableHeaders: new Set(['content-type']),
    });

  async function expectS3Error(res: Response, status: number, code: string, message?: string) {
    expect(res.status).toBe(status);
    const body = await res.text();
    expect(body).toContain(`<Code>${code}</Code>`);
    if (message) expect(body).toContain(message);
  }

  test('SDK PutObject/GetObject round-trip, and onObjectCreated fires after the write', async () => {
    const created = nextEvent('talent/1/notes.txt');
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'talent/1/notes.txt', Body: 'hello twin', ContentType: 'text/plain' }));
    const event = await created;
    expect(event).toMatchObject({ bucket: BUCKET, key: 'talent/1/notes.txt', size: 10, eventName: 'ObjectCreated:Put' });
    expect(event.etag).toMatch(/^[0-9a-f]{32}$/);
    expect(new Date(event.eventTime).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'talent/1/notes.txt' }));
    expect(await got.Body!.transformToString()).toBe('hello twin');
    expect(got.ContentType).toBe('text/plain');
  });

  test('a streamed upload with the SDK default checksums (aws-chunked) is stored without chunk framing', async () => {
    const streaming = new S3Client({
      endpoint: s3.endpoint,
      forcePathStyle: true,
      region: TWIN_REGION,
      credentials: { ...TWIN_CREDENTIALS },
      requestChecksumCalculation: 'WHEN_SUPPORTED',
    });
    try {
      await streaming.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: 'streamed.bin', Body: Readable.from([Buffer.from('chunk-1 '), Buffer.from('chunk-2')]), ContentLength: 15 }),
      );
    } finally {
      streaming.destroy();
    }
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'streamed.bin' }));
    expect(await got.Body!.transformToString()).toBe('chunk-1 chunk-2');
  });

  test('a browser-style presigned PUT is accepted and the object is readable', async () => {
    const url = await presignPut('talent/1/ref-1.jpg');
    const res = await fetch(url, { method: 'PUT', body: 'jpeg-bytes', headers: { 'Content-Type': 'image/jpeg', Origin: WEB_ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag');
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'talent/1/ref-1.jpg' }));
    expect(head).toMatchObject({ ContentType: 'image/jpeg', ContentLength: 10 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.map((e) => e.key)).toContain('talent/1/ref-1.jpg');
  });

  test('a tampered signature, a tampered key, an expired URL and a wrong Content-Type get 403', async () => {
    const url = new URL(await presignPut('talent/1/ref-2.jpg'));
    const put = (target: URL | string, contentType = 'image/jpeg') =>
      fetch(target, { method: 'PUT', body: 'jpeg-bytes', headers: { 'Content-Type': contentType, Origin: WEB_ORIGIN } });

    const badSignature = new URL(url);
    const sig = badSignature.searchParams.get('X-Amz-Signature')!;
    badSignature.searchParams.set('X-Amz-Signature', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
    const rejected = await put(badSignature);
    // Browsers can read the error: the CORS headers are on the 403 too.
    expect(rejected.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    await expectS3Error(rejected, 403, 'SignatureDoesNotMatch');

    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace('ref-2', 'ref-3');
    await expectS3Error(await put(otherKey), 403, 'SignatureDoesNotMatch');

    await expectS3Error(await put(url, 'image/png'), 403, 'SignatureDoesNotMatch');

    const expired = await presignPut('talent/1/ref-2.jpg', { expiresIn: 60, signingDate: new Date(Date.now() - 120_000) });
    await expectS3Error(await put(expired), 403, 'AccessDenied', 'Request has expired');

    const longer = new URL(expired);
    longer.searchParams.set('X-Amz-Expires', '3600');
    await expectS3Error(await put(longer), 403, 'SignatureDoesNotMatch');

    const anonymous = await fetch(`${s3.endpoint}/${BUCKET}/talent/1/ref-1.jpg`);
    await expectS3Error(anonymous, 403, 'AccessDenied');

    // None of them reached s3rver.
    await expect(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'talent/1/ref-2.jpg' }))).rejects.toMatchObject({ name: 'NotFound' });
    await expect(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'talent/1/ref-3.jpg' }))).rejects.toMatchObject({ name: 'NotFound' });
  });

  test('a URL presigned with the SDK default checksum (CRC32 of an empty body) is rejected like S3 does', async () => {
    const defaults = new S3Client({
      endpoint: s3.endpoint,
      forcePathStyle: true,
      region: TWIN_REGION,
      credentials: { ...TWIN_CREDENTIALS },
      requestChecksumCalculation: 'WHEN_SUPPORTED',
    });
    try {
      const url = await presignPut('talent/1/ref-4.jpg', { client: defaults });
      expect(new URL(url).searchParams.get('x-amz-checksum-crc32')).toBe('AAAAAA==');
      const res = await fetch(url, { method: 'PUT', body: 'jpeg-bytes', headers: { 'Content-Type': 'image/jpeg' } });
      await expectS3Error(res, 400, 'BadDigest');
    } finally {
      defaults.destroy();
    }
  });

  test('CORS preflights are answered from the bucket rules without a signature', async () => {
    const url = await presignPut('talent/1/ref-5.jpg');
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: WEB_ORIGIN, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(preflight.headers.get('access-control-max-age')).toBe('3000');

    const foreign = await fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'PUT' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});
