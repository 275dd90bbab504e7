import { randomUUID } from 'node:crypto';
import { FOUNDING_APPLICATION_SUBMITTED, FOUNDING_MESSAGES, UPLOAD_URL_TTL_SECONDS } from '../../../events/founding';
import type { BusEvent } from '../../../infra/local/eventbridge';
import { itemsWithPrefix, postJson, useTwin } from '../../support/twin';
import {
  applicantEmail,
  applicationOf,
  applications,
  asJpegFiles,
  jpegs,
  put,
  requestUploads,
  signup,
  signupPayload,
  uploadAll,
} from './support';

jest.setTimeout(60_000);
const twin = useTwin();
const drafts = (email: string) => itemsWithPrefix(twin(), 'FoundingApplicationsTable', `DRAFT#${email}`);

describe('founding signup through presigned uploads', () => {
  let photos: Buffer[];
  beforeAll(async () => {
    photos = await jpegs(31);
  });

  it('uploads 30 photos straight to the bucket, then stores one application and announces it', async () => {
    const email = applicantEmail('ada');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 30)));
    expect(keys.every((k) => k.startsWith(`pending/${email}/`) && k.endsWith('.jpg'))).toBe(true);

    const res = await signup(twin(), signupPayload(`  ${email.toUpperCase()} `, uploadSession, keys));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, applicationId: expect.stringMatching(/^app_[a-z2-7]{20}$/), imageCount: 30 });
    await twin().idle();

    const app = await applicationOf(twin(), email);
    expect(app).toMatchObject({
      id: res.json.applicationId,
      program: 'founding',
      firstName: 'Ada',
      email,
      imageCount: 30,
      excludedIndustries: ['religion', 'alcohol'],
      terms: { accepted: true },
      gsi1pk: 'APPLICATIONS',
    });
    expect(app!.imagePaths).toEqual(keys);
    const [lock] = await itemsWithPrefix(twin(), 'FoundingApplicationsTable', `EMAIL#${email}`);
    expect(lock.applicationId).toBe(res.json.applicationId);

    // Every object was recorded from its S3 event.
    const uploads = (await drafts(email)).filter((i) => i.sk.startsWith('UPLOAD#'));
    expect(uploads).toHaveLength(30);

    const submitted = (await twin().deliveries()).filter((d) => d.detailType === FOUNDING_APPLICATION_SUBMITTED);
    expect(submitted.length).toBeGreaterThanOrEqual(1);
  });

  it('serves the original backend path too', async () => {
    const email = applicantEmail('legacy');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 30)));
    const res = await signup(twin(), signupPayload(email, uploadSession, keys), '/functions/v1/founding-talent-signup');
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
  });

  it('accepts one application per address: a different one gets 409, the same one repeated gets the original answer', async () => {
    const email = applicantEmail('once');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos));
    const payload = signupPayload(email, uploadSession, keys.slice(0, 30));
    const first = await signup(twin(), payload);
    expect(first.status).toBe(200);
    // Only this application's items: the twin is shared with other files.
    const ownItems = () => itemsWithPrefix(twin(), 'FoundingApplicationsTable', `APP#${first.json.applicationId}`);
    const before = (await ownItems()).length;

    const repeat = await signup(twin(), payload);
    expect(repeat.status).toBe(200);
    expect(repeat.json).toEqual(first.json);

    // Repeated concurrently, still one application.
    const concurrent = await Promise.all([signup(twin(), payload), signup(twin(), payload)]);
    for (const r of concurrent) expect(r.json).toEqual(first.json);

    const other = await signup(twin(), { ...payload, imagePaths: keys.slice(1, 31), experience: 'Something else' });
    expect(other.status).toBe(409);
    expect(other.json.error).toBe(FOUNDING_MESSAGES.alreadyExists);
    expect(other.json.error).toContain('already exists');

    await twin().idle();
    expect((await ownItems()).length).toBe(before);
    expect((await applications(twin())).filter((a) => a.email === email)).toHaveLength(1);
  });

  it('honours an Idempotency-Key: a repeat gets the first answer, the same key with another body is refused', async () => {
    const email = applicantEmail('keyed');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 30)));
    const payload = signupPayload(email, uploadSession, keys);
    const key = { 'idempotency-key': `signup-${randomUUID()}` };
    const url = `${twin().urls.api}/founding-talent-signup`;
    const first = await postJson(url, payload, key);
    expect(first.status).toBe(200);
    const repeat = await postJson(url, payload, key);
    expect(repeat.status).toBe(200);
    expect(repeat.json).toEqual(first.json);
    expect((await postJson(url, { ...payload, experience: 'Something else' }, key)).status).toBe(422);
    expect((await applications(twin())).filter((a) => a.email === email)).toHaveLength(1);
  });

  it('records an S3 event delivered twice once', async () => {
    const email = applicantEmail('twice');
    const { keys } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 1)));
    await twin().idle();
    const recordsBefore = (await drafts(email)).filter((i) => i.sk.startsWith('UPLOAD#'));
    expect(recordsBefore).toHaveLength(1);
    const bucket = twin().physicalName('FoundingPhotos');
    const event = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Object Created',
      source: 'aws.s3',
      account: '000000000000',
      time: new Date().toISOString(),
      region: 'us-east-1',
      resources: [`arn:aws:s3:::${bucket}`],
      detail: { version: '0', bucket: { name: bucket }, object: { key: keys[0], size: photos[0].length, etag: 'x' }, reason: 'PutObject' },
    };
    const route = (e: typeof event) => twin().route('default', e as unknown as BusEvent);
    await route(event);
    await route({ ...event, id: randomUUID() });
    await twin().idle();
    const records = (await drafts(email)).filter((i) => i.sk.startsWith('UPLOAD#'));
    expect(records).toEqual(recordsBefore);
    const deliveries = (await twin().deliveries()).filter((d) => d.eventId === event.id);
    expect(deliveries.map((d) => d.outcome)).toEqual(['delivered']);
  });

  it('signs URLs that expire, carry the exact length and type, and never overwrite', async () => {
    const email = applicantEmail('url');
    const res = await requestUploads(twin(), email, [{ name: 'Me.JPG', type: 'image/jpeg', size: photos[0].length }]);
    expect(res.status).toBe(200);
    const [upload] = res.json.uploads;
    expect(res.json.expiresIn).toBe(UPLOAD_URL_TTL_SECONDS);
    expect(upload.headers).toEqual({ 'content-type': 'image/jpeg', 'if-none-match': '*' });
    const url = new URL(upload.url);
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(UPLOAD_URL_TTL_SECONDS));
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';').sort()).toEqual(['content-length', 'content-type', 'host', 'if-none-match']);
    expect(url.searchParams.has('x-amz-checksum-crc32')).toBe(false);

    // Another type, another length, or no If-None-Match: the signature does not hold.
    expect((await put(upload, photos[0], { 'content-type': 'image/png' })).status).toBe(403);
    expect((await put(upload, Buffer.concat([photos[0], Buffer.from('x')]))).status).toBe(403);
    expect((await put({ url: upload.url, headers: { 'content-type': 'image/jpeg' } }, photos[0])).status).toBe(403);

    expect((await put(upload, photos[0])).status).toBe(200);
    const again = await put(upload, photos[0]);
    expect(again.status).toBe(412);
    expect(again.text).toContain('PreconditionFailed');
  });

  it('reports the founding spots left', async () => {
    const res = await fetch(`${twin().urls.api}/founding-spots`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ total: 30, taken: expect.any(Number), left: expect.any(Number) });
  });
});
