import { randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  AWAITING_CONFIRMATION,
  CONFIRMATION_MESSAGES,
  CONFIRMATION_SECONDS,
  FOUNDING_APPLICATION_SUBMITTED,
  FOUNDING_MESSAGES,
  UPLOAD_URL_TTL_SECONDS,
} from '../../../events/founding';
import { confirmTokenHash } from '../../../functions/founding/confirmation';
import { pendingPrefix, uploadFolderOf } from '../../../functions/founding/keys';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import type { BusEvent } from '../../../infra/local/eventbridge';
import { encodeS3EventKey } from '../../../infra/local/s3-event-key';
import { documentClient, itemsWithPrefix, postJson, useTwin } from '../../support/twin';
import {
  applicantEmail,
  applicationOf,
  applications,
  asJpegFiles,
  confirm,
  confirmationToken,
  confirmationTokens,
  jpegs,
  put,
  requestUploads,
  signup,
  signupConfirmed,
  signupPayload,
  uploadAll,
} from './support';
import { eventually } from '../../support/eventually';

jest.setTimeout(60_000);
const twin = useTwin();
const table = () => twin().physicalName('FoundingApplicationsTable');
const drafts = (uploadSession: string) => itemsWithPrefix(twin(), 'FoundingApplicationsTable', `DRAFT#${uploadFolderOf(uploadSession)}`);
/** The workflow started for an application: it left `validating` for a verdict on its photos. */
/** The workflow started and validated the photos (then it waits for the applicant's proof of person). */
const workflowRan = (applicationId: string) =>
  eventually(async () => {
    const app = (await applications(twin())).find((a) => a.id === applicationId);
    return app?.validatedAt ? app : undefined;
  }, { timeoutMs: 60_000, what: `the workflow of ${applicationId}` });
const lockOf = async (email: string) => (await itemsWithPrefix(twin(), 'FoundingApplicationsTable', `EMAIL#${email}`))[0];

describe('founding signup through presigned uploads', () => {
  let photos: Buffer[];
  beforeAll(async () => {
    photos = await jpegs(31);
  });

  it('uploads 30 photos straight to the bucket, stores the application awaiting confirmation, and submits it once the address is confirmed', async () => {
    const email = applicantEmail('ada');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 30)));
    // Keys carry an opaque folder of the upload session: no address, no session.
    const prefix = `pending/${uploadFolderOf(uploadSession)}/`;
    expect(keys.every((k) => k.startsWith(prefix) && k.endsWith('.jpg'))).toBe(true);
    expect(keys.join()).not.toContain(email.split('@')[0]);
    expect(keys.join()).not.toContain(uploadSession);

    const res = await signup(twin(), signupPayload(`  ${email.toUpperCase()} `, uploadSession, keys));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, applicationId: expect.stringMatching(/^app_[a-z2-7]{20}$/), imageCount: 30 });
    const applicationId = res.json.applicationId;
    await twin().idle();

    // Stored, but not yet counted: no address lock, not in the review list, expiring, not announced.
    const waiting = await applicationOf(twin(), email);
    expect(waiting).toMatchObject({ id: applicationId, status: AWAITING_CONFIRMATION, email, imageCount: 30, uploadFolder: uploadFolderOf(uploadSession) });
    expect(waiting!.gsi1pk).toBeUndefined();
    expect(waiting!.expiresAt).toBeGreaterThan(Date.now() / 1000 + CONFIRMATION_SECONDS - 600);
    expect(await lockOf(email)).toBeUndefined();

    // The confirmation email links to the site's confirm page, the token in the fragment; only its hash is stored.
    const [mail] = (await twin().emails()).filter((m) => m.to.includes(email));
    expect(mail.subject).toContain('Confirm your email');
    const token = await confirmationToken(twin(), email);
    expect(mail.text).toContain(`${twin().urls.web}/thank-you?type=founding-confirm#token=${token}`);
    expect(JSON.stringify(await itemsWithPrefix(twin(), 'FoundingApplicationsTable', 'CONFIRM#'))).not.toContain(token);

    const confirmed = await confirm(twin(), token);
    expect(confirmed.status).toBe(200);
    // With the identity token the confirmation page goes on to the consent and the selfie (docs/identity.md).
    expect(confirmed.json).toEqual({ success: true, applicationId, program: 'founding', message: CONFIRMATION_MESSAGES.confirmed, identityToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    await twin().idle();

    const app = await applicationOf(twin(), email);
    expect(app).toMatchObject({
      id: applicationId,
      program: 'founding',
      firstName: 'Ada',
      email,
      imageCount: 30,
      excludedIndustries: ['religion', 'alcohol'],
      terms: { accepted: true },
      gsi1pk: 'APPLICATIONS',
    });
    expect(app!.status).not.toBe(AWAITING_CONFIRMATION);
    expect(app!.expiresAt).toBeUndefined();
    expect(app!.imagePaths).toEqual(keys);
    expect((await lockOf(email)).applicationId).toBe(applicationId);

    // Every object was recorded from its S3 event.
    const uploads = (await drafts(uploadSession)).filter((i) => i.sk.startsWith('UPLOAD#'));
    expect(uploads).toHaveLength(30);

    // FoundingApplication.Submitted started the workflow.
    expect((await twin().deliveries()).some((d) => d.detailType === FOUNDING_APPLICATION_SUBMITTED)).toBe(true);
    await workflowRan(applicationId);
  });

  it('serves the original backend path too', async () => {
    const email = applicantEmail('legacy');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 30)));
    const res = await signup(twin(), signupPayload(email, uploadSession, keys), '/functions/v1/founding-talent-signup');
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
  });

  it('accepts one confirmed application per address: a different one gets 409, the same one repeated gets the original answer', async () => {
    const email = applicantEmail('once');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos));
    const payload = signupPayload(email, uploadSession, keys.slice(0, 30));
    const first = await signupConfirmed(twin(), payload);
    expect(first.status).toBe(200);
    // Only this application's items: the twin is shared with other files.
    const ownItems = () => itemsWithPrefix(twin(), 'FoundingApplicationsTable', `APP#${first.json.applicationId}`);
    // The workflow's own writes first: validated, the proof of person answered, waiting for review.
    await eventually(async () => ((await applicationOf(twin(), email))?.status === 'pending_review' ? true : undefined), { timeoutMs: 60_000, what: 'the application waiting for review' });
    await twin().idle();
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

  it('answers an unconfirmed submission repeated (even at once) with the first answer, storing it once', async () => {
    const email = applicantEmail('again');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 30)));
    const payload = signupPayload(email, uploadSession, keys);
    const answers = await Promise.all([signup(twin(), payload), signup(twin(), payload), signup(twin(), payload)]);
    for (const a of answers) expect(a.json).toEqual(answers[0].json);
    expect((await applications(twin())).filter((a) => a.email === email)).toHaveLength(1);
  });

  it("does not let a stranger's unconfirmed application block the address's owner", async () => {
    const victim = applicantEmail('victim');
    // A stranger applies with the victim's address and never confirms (they cannot read the victim's mail).
    const stranger = await uploadAll(twin(), victim, asJpegFiles(photos.slice(0, 30)));
    const squat = await signup(twin(), signupPayload(victim, stranger.uploadSession, stranger.keys, { firstName: 'Mallory', experience: 'Squatting' }));
    expect(squat.status).toBe(200);

    // The owner applies, and is not told the address is taken.
    const own = await uploadAll(twin(), victim, asJpegFiles(photos.slice(1, 31)));
    const mine = await signup(twin(), signupPayload(victim, own.uploadSession, own.keys, { firstName: 'Victoria' }));
    expect(mine.status).toBe(200);
    expect(mine.json.applicationId).not.toBe(squat.json.applicationId);

    // Two links went to the owner's inbox; the owner confirms their own, which starts the workflow.
    const tokens = await eventually(async () => {
      const t = await confirmationTokens(twin(), victim);
      return t.length >= 2 ? t : undefined;
    }, { timeoutMs: 15_000, what: 'two confirmation emails' });
    const confirmed = await confirm(twin(), tokens[1]);
    expect(confirmed.status).toBe(200);
    expect(confirmed.json.applicationId).toBe(mine.json.applicationId);
    await workflowRan(mine.json.applicationId);
    const squatted = (await applications(twin())).find((a) => a.id === squat.json.applicationId);
    expect(squatted).toMatchObject({ status: AWAITING_CONFIRMATION });
    expect(squatted!.gsi1pk).toBeUndefined();

    // The other link now meets a confirmed application for the address: the spec's duplicate message.
    const second = await confirm(twin(), tokens[0]);
    expect(second.status).toBe(409);
    expect(second.json.error).toBe(FOUNDING_MESSAGES.alreadyExists);
    expect((await lockOf(victim)).applicationId).toBe(mine.json.applicationId);
  });

  it('refuses a used, an expired, an unknown and a malformed confirmation token, each with a clear message', async () => {
    const email = applicantEmail('token');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 30)));
    expect((await signup(twin(), signupPayload(email, uploadSession, keys))).status).toBe(200);
    const token = await confirmationToken(twin(), email);
    const confirmed = await confirm(twin(), token);
    expect(confirmed.status).toBe(200);
    // At once again (the first answer lost on the way): the same answer, not "already used".
    const retried = await confirm(twin(), token);
    expect(retried).toMatchObject({ status: 200, json: confirmed.json });
    // Used a while ago: refused.
    await documentClient(twin()).send(
      new UpdateCommand({ TableName: table(), Key: { pk: `CONFIRM#${confirmTokenHash(token)}`, sk: 'TOKEN' }, UpdateExpression: 'SET usedAt = :then', ExpressionAttributeValues: { ':then': new Date(Date.now() - 20 * 60_000).toISOString() } }),
    );
    const reused = await confirm(twin(), token);
    expect(reused.status).toBe(410);
    expect(reused.json.error).toBe(CONFIRMATION_MESSAGES.usedLink);

    // A link past its days: its stored expiry has passed (DynamoDB's TTL deletes late, so confirming checks it).
    const late = applicantEmail('late');
    const up = await uploadAll(twin(), late, asJpegFiles(photos.slice(0, 30)));
    const lateApp = await signup(twin(), signupPayload(late, up.uploadSession, up.keys));
    const lateToken = await confirmationToken(twin(), late);
    await documentClient(twin()).send(
      new UpdateCommand({ TableName: table(), Key: { pk: `CONFIRM#${confirmTokenHash(lateToken)}`, sk: 'TOKEN' }, UpdateExpression: 'SET expiresAt = :past', ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 } }),
    );
    const expired = await confirm(twin(), lateToken);
    expect(expired.status).toBe(410);
    expect(expired.json.error).toBe(CONFIRMATION_MESSAGES.expiredLink);
    expect((await applications(twin())).find((a) => a.id === lateApp.json.applicationId)).toMatchObject({ status: AWAITING_CONFIRMATION });
    expect(await lockOf(late)).toBeUndefined();

    const unknown = await confirm(twin(), 'A'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe(CONFIRMATION_MESSAGES.invalidLink);
    const malformed = await confirm(twin(), 'not-a-token');
    expect(malformed.status).toBe(400);
    expect(malformed.json.fields.token).toContain('not a confirmation token');
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
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 1)));
    await twin().idle();
    const recordsBefore = (await drafts(uploadSession)).filter((i) => i.sk.startsWith('UPLOAD#'));
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
    const records = (await drafts(uploadSession)).filter((i) => i.sk.startsWith('UPLOAD#'));
    expect(records).toEqual(recordsBefore);
    const deliveries = (await twin().deliveries()).filter((d) => d.eventId === event.id);
    expect(deliveries.map((d) => d.outcome)).toEqual(['delivered']);
  });

  it('records objects whose keys hold @, +, spaces and non-ASCII under their real key (S3 URL-encodes event keys)', async () => {
    const email = applicantEmail('keys');
    const { uploadSession } = await uploadAll(twin(), email, asJpegFiles(photos.slice(0, 1)));
    const key = `${pendingPrefix(uploadFolderOf(uploadSession))}a@b+c d é 写真.jpg`;
    const s3 = new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });
    await s3.send(new PutObjectCommand({ Bucket: twin().physicalName('FoundingPhotos'), Key: key, Body: photos[1], ContentType: 'image/jpeg' }));
    await eventually(async () => (await drafts(uploadSession)).some((i) => i.sk === `UPLOAD#${key}`), { timeoutMs: 15_000, what: 'the upload record' });
    const recorded = (await drafts(uploadSession)).filter((i) => i.sk.startsWith('UPLOAD#')).map((i) => i.sk);
    expect(recorded).toContain(`UPLOAD#${key}`);
    // Nothing under the event's encoded form (pending/.../a%40b%2Bc+d+...).
    expect(recorded).not.toContain(`UPLOAD#${encodeS3EventKey(key)}`);
    expect(recorded.some((sk) => sk.includes('%'))).toBe(false);
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
