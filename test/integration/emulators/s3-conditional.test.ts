// S3 conditional writes on the twin: `If-None-Match: *` writes only a new key, as S3 does.
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startS3, type S3Emulator } from '../../../infra/local/emulators/s3';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { createBuckets } from '../../../infra/local/provision';

jest.setTimeout(30_000);
const BUCKET = 'conditional-writes';

describe('S3 If-None-Match on PUT', () => {
  let s3: S3Emulator;
  let client: S3Client;
  beforeAll(async () => {
    s3 = await startS3();
    client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, requestChecksumCalculation: 'WHEN_REQUIRED' });
    await createBuckets(s3.endpoint, [{ name: BUCKET, properties: {} }]);
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
  });

  const read = async (key: string) => (await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToString());

  it('writes a new key, then answers 412 PreconditionFailed and keeps the first object', async () => {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'a.txt', Body: 'first', IfNoneMatch: '*' }));
    const second = client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'a.txt', Body: 'second', IfNoneMatch: '*' }));
    await expect(second).rejects.toMatchObject({ name: 'PreconditionFailed', $metadata: { httpStatusCode: 412 } });
    expect(await read('a.txt')).toBe('first');
    // Without the condition, S3 overwrites.
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'a.txt', Body: 'third' }));
    expect(await read('a.txt')).toBe('third');
  });

  it('lets exactly one of two concurrent conditional writes through a presigned URL win', async () => {
    const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: BUCKET, Key: 'race.txt', IfNoneMatch: '*' }), {
      expiresIn: 60,
      signableHeaders: new Set(['if-none-match']),
    });
    const statuses = await Promise.all(
      ['one', 'two', 'three'].map(async (body) => (await fetch(url, { method: 'PUT', headers: { 'if-none-match': '*' }, body })).status),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409 || s === 412)).toBe(true);
  });
});
