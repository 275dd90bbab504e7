// The founding pipeline end to end on the twin: uploads, signup, the state machine validating
// photos and emailing, a reviewer's decision through the admin API, acceptance.
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { ADMIN_PHOTO_URL_TTL_SECONDS, type ApplicationDetail } from '../../../events/founding';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { documentClient, idToken, useTwin } from '../../support/twin';
import { PAST_GATES, applicantEmail, applicationOf, asJpegFiles, badPhotos, jpeg, signupConfirmed, signupPayload, uploadAll } from './support';
import { eventually } from '../../support/eventually';

jest.setTimeout(180_000);
// A twin of its own: the spots test below takes every founding spot.
const twin = useTwin({ own: true });

const s3 = () => new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });
const bucket = () => twin().physicalName('FoundingPhotos');
const emailsTo = async (address: string) => (await twin().emails()).filter((m) => m.to.includes(address));
const admin = async (path: string, init: RequestInit = {}) => {
  const token = await idToken(twin(), twin().admin.email, twin().admin.password);
  return fetch(`${twin().urls.api}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
};
const settledApplication = (email: string, statuses: string[]) =>
  eventually(async () => {
    const app = await applicationOf(twin(), email);
    return app && statuses.includes(app.status) ? app : undefined;
  }, { timeoutMs: 90_000, what: `application status ${statuses.join('/')}` });

describe('founding application end to end', () => {
  it('validates 30 photos, confirms, and on acceptance allocates a spot, creates the talent and emails them', async () => {
    const email = applicantEmail('grace');
    const photos = await Promise.all(Array.from({ length: 30 }, (_, i) => jpeg(i, 700, { exif: i === 0 })));
    expect((await sharp(photos[0]).metadata()).exif).toBeDefined();
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(photos));
    const res = await signupConfirmed(twin(), signupPayload(email, uploadSession, keys, { firstName: 'Grace', lastName: 'Hopper' }));
    expect(res.status).toBe(200);
    const id = res.json.applicationId;

    const app = await settledApplication(email, ['pending_review', 'invalid']);
    expect(app).toMatchObject({ status: 'pending_review', validPhotoCount: 30, rejectedPhotoCount: 0 });
    await eventually(async () => (await applicationOf(twin(), email))?.taskToken, { what: 'review task token' });
    const confirmation = await eventually(async () => (await emailsTo(email)).find((m) => /received your founding talent application/.test(m.subject)), { what: 'confirmation email' });
    expect(confirmation.text ?? confirmation.html).toContain('Grace');

    // Stored photos carry no EXIF or GPS; the originals are gone.
    const stored = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `applications/${id}/photos/` }));
    expect(stored.KeyCount).toBe(30);
    for (const object of stored.Contents!.slice(0, 3)) {
      const body = Buffer.from(await (await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: object.Key! }))).Body!.transformToByteArray());
      const meta = await sharp(body).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.exif).toBeUndefined();
    }
    const pending = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `pending/${app!.uploadFolder}/` }));
    expect(pending.KeyCount ?? 0).toBe(0);

    // The review console sees it, with short-lived photo URLs.
    const list = await (await admin('/admin/applications?status=pending_review')).json();
    expect(list.items.map((a: { id: string }) => a.id)).toContain(id);
    const detailRes = await admin(`/admin/applications/${id}`);
    expect(detailRes.status).toBe(200);
    const detail = (await detailRes.json()) as ApplicationDetail;
    expect(detail.photos).toHaveLength(30);
    expect(new URL(detail.photos[0].url).searchParams.get('X-Amz-Expires')).toBe(String(ADMIN_PHOTO_URL_TTL_SECONDS));
    expect((await fetch(detail.photos[0].thumbnailUrl)).status).toBe(200);
    expect(JSON.stringify(detail)).not.toContain('taskToken');
    // Anonymous callers and the public site's tokens are refused.
    expect((await fetch(`${twin().urls.api}/admin/applications/${id}`)).status).toBe(401);

    const decided = await admin(`/admin/applications/${id}/decision`, { method: 'POST', body: JSON.stringify({ decision: 'accept', note: 'Lovely portfolio', ...PAST_GATES }) });
    expect(decided.status).toBe(202);
    expect(await decided.json()).toMatchObject({ id, decision: { decision: 'accept', decidedBy: twin().admin.email, note: 'Lovely portfolio' } });
    const again = await admin(`/admin/applications/${id}/decision`, { method: 'POST', body: JSON.stringify({ decision: 'reject' }) });
    expect(again.status).toBe(409);

    const accepted = await eventually(async () => {
      const a = await applicationOf(twin(), email);
      return a?.talentId && a.invitedAt ? a : undefined;
    }, { timeoutMs: 60_000, what: 'talent created and invited' });
    expect(accepted).toMatchObject({ status: 'accepted', founding: true, royaltyPlan: 'founding-35' });
    const talent = await documentClient(twin()).send(new GetCommand({ TableName: twin().physicalName('CatalogTalentTable'), Key: { id: accepted.talentId } }));
    expect(talent.Item).toMatchObject({ founding: true, royaltyPlan: 'founding-35', status: 'hidden' });
    const welcome = await eventually(async () => (await emailsTo(email)).find((m) => /founding talent #\d+/.test(m.subject)), { what: 'acceptance email' });
    expect(welcome.subject).toContain('Welcome, founding talent #');
    const spots = await (await fetch(`${twin().urls.api}/founding-spots`)).json();
    expect(spots.taken).toBeGreaterThanOrEqual(1);
  });

  it('refuses photos that are not photos once the workflow has read their bytes', async () => {
    const email = applicantEmail('mixed');
    const good = await Promise.all(Array.from({ length: 30 }, (_, i) => jpeg(100 + i)));
    const bad = await badPhotos();
    const { uploadSession, keys } = await uploadAll(twin(), email, [...asJpegFiles(good), ...bad]);
    const res = await signupConfirmed(twin(), signupPayload(email, uploadSession, keys));
    expect(res.status).toBe(200);
    expect(res.json.imageCount).toBe(34);

    const app = await settledApplication(email, ['pending_review', 'invalid']);
    expect(app).toMatchObject({ status: 'pending_review', validPhotoCount: 30, rejectedPhotoCount: 4 });
    const badKeys = keys.slice(30);
    const refused = (app.photoResults as Array<{ source: string; accepted: boolean; reason?: string }>).filter((r) => !r.accepted);
    expect(refused.map((r) => r.source).sort()).toEqual([...badKeys].sort());
    for (const r of refused) expect(r.reason).toEqual(expect.any(String));
    const stored = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `applications/${app.id}/photos/` }));
    expect(stored.KeyCount).toBe(30);
  });
});

describe('founding spots', () => {
  it('gives 200 concurrent acceptances exactly 30 founding spots', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `app_${String(i).padStart(3, '0')}${'a'.repeat(17)}`.replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]));
    expect(new Set(ids).size).toBe(200);
    const doc = documentClient(twin());
    const table = twin().physicalName('FoundingApplicationsTable');
    const taken = Number((await doc.send(new GetCommand({ TableName: table, Key: { pk: 'SPOTS', sk: 'FOUNDING' } }))).Item?.taken ?? 0);
    // 200 accepted founding applications, as the decision step leaves them.
    await Promise.all(
      ids.map((id, i) =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { pk: `APP#${id}`, sk: 'APPLICATION', id, program: 'founding', status: 'accepted', email: `racer${i}@example.com`, firstName: 'Racer', lastName: String(i) },
          }),
        ),
      ),
    );
    const allocate = twin().functions().find((f) => f.logicalId.startsWith('FoundingAllocateSpot'))!;
    const results = (await Promise.all(ids.map((applicationId) => twin().invoke(allocate.arn, { applicationId })))) as Array<{
      founding: boolean;
      spotNumber?: number;
    }>;
    const winners = results.filter((r) => r.founding);
    expect(winners).toHaveLength(30 - taken);
    expect(new Set(winners.map((w) => w.spotNumber)).size).toBe(30 - taken);
    const counter = await doc.send(new GetCommand({ TableName: table, Key: { pk: 'SPOTS', sk: 'FOUNDING' }, ConsistentRead: true }));
    expect(counter.Item!.taken).toBe(30);
    const spots = await (await fetch(`${twin().urls.api}/founding-spots`)).json();
    expect(spots).toEqual({ total: 30, taken: 30, left: 0 });
    // A retried step keeps its spot and takes no second one.
    const retry = await twin().invoke(allocate.arn, { applicationId: ids[results.indexOf(winners[0])] });
    expect(retry).toEqual(winners[0]);
  });
});


