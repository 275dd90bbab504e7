// Every kind of bad input gets a clear answer, and nothing of it is stored or exposed.
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { zipSync } from 'fflate';
import { FOUNDING_MESSAGES, MAX_UPLOADS_PER_ADDRESS_PER_DAY, MAX_UPLOADS_PER_IP_PER_HOUR, MAX_UPLOADS_PER_SESSION, UPLOAD_LIMIT_MESSAGES } from '../../../events/founding';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { addressHashOf, pendingPrefix, uploadFolderOf } from '../../../functions/founding/keys';
import { itemsWithPrefix, useTwin } from '../../support/twin';
import { applicantEmail, applications, asJpegFiles, freshAddress, jpegs, put, requestUploads, signup, signupPayload, uploadAll, type LocalFile } from './support';

jest.setTimeout(120_000);
const twin = useTwin();

/** Nothing was stored for the address: no application and no per-address lock. */
async function expectNothingStored(email: string) {
  expect((await applications(twin())).filter((a) => a.email === email)).toEqual([]);
  expect(await itemsWithPrefix(twin(), 'FoundingApplicationsTable', `EMAIL#${email}`)).toEqual([]);
}

let photos: Buffer[];
beforeAll(async () => {
  photos = await jpegs(30);
});

describe('refused when asking for upload URLs', () => {
  it('refuses an SVG by name and by type, and a PDF that says it is a JPEG', async () => {
    const email = applicantEmail('svg');
    const byName = await requestUploads(twin(), email, [{ name: 'me.svg', type: 'image/svg+xml', size: 100 }]);
    expect(byName.status).toBe(400);
    expect(byName.json.error).toBe('me.svg: only JPEG, PNG or ZIP files are accepted');
    const byType = await requestUploads(twin(), email, [{ name: 'me.jpg', type: 'image/svg+xml', size: 100 }]);
    expect(byType.status).toBe(400);
    expect(byType.json.fields['files.0']).toContain('not a JPG image');
    const pdf = await requestUploads(twin(), email, [{ name: 'cv.jpg', type: 'application/pdf', size: 100 }]);
    expect(pdf.status).toBe(400);
    // No upload session was opened for the address.
    const sessions = (await itemsWithPrefix(twin(), 'FoundingApplicationsTable', 'DRAFT#')).filter((i) => i.sk === 'SESSION');
    expect(sessions.filter((i) => i.addressHash === addressHashOf(email))).toEqual([]);
  });

  it('refuses files over the size limits', async () => {
    const res = await requestUploads(twin(), applicantEmail('big'), [
      { name: 'a.jpg', type: 'image/jpeg', size: 25 * 1024 * 1024 + 1 },
      { name: 'b.zip', type: 'application/zip', size: 500 * 1024 * 1024 + 1 },
    ]);
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual({ 'files.0': 'a.jpg: the file is larger than 25 MB', 'files.1': 'b.zip: the file is larger than 500 MB' });
  });
});

describe('upload URLs are capped per session, per address and per network', () => {
  const files = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `p${i}.jpg`, type: 'image/jpeg', size: 1000 }));

  it(`issues at most ${MAX_UPLOADS_PER_SESSION} keys to one session, and binds a session to its address`, async () => {
    const email = applicantEmail('session-cap');
    const first = await requestUploads(twin(), email, files(80));
    expect(first.status).toBe(200);
    const session = first.json.uploadSession;
    expect((await requestUploads(twin(), email, files(MAX_UPLOADS_PER_SESSION - 80), session)).status).toBe(200);
    const over = await requestUploads(twin(), email, files(1), session);
    expect(over.status).toBe(429);
    expect(over.json.error).toBe(UPLOAD_LIMIT_MESSAGES.session);
    const other = await requestUploads(twin(), applicantEmail('other'), files(1), session);
    expect(other.status).toBe(400);
    expect(other.json.error).toBe(UPLOAD_LIMIT_MESSAGES.otherAddress);
    const sessionItem = (await itemsWithPrefix(twin(), 'FoundingApplicationsTable', `DRAFT#${uploadFolderOf(session)}`)).find((i) => i.sk === 'SESSION');
    expect(sessionItem!.issued).toBe(MAX_UPLOADS_PER_SESSION);
  });

  it(`issues at most ${MAX_UPLOADS_PER_ADDRESS_PER_DAY} keys a day to one address, across sessions`, async () => {
    const email = applicantEmail('address-cap');
    let issued = 0;
    while (issued + 80 <= MAX_UPLOADS_PER_ADDRESS_PER_DAY) {
      expect((await requestUploads(twin(), email, files(80))).status).toBe(200);
      issued += 80;
    }
    if (issued < MAX_UPLOADS_PER_ADDRESS_PER_DAY) expect((await requestUploads(twin(), email, files(MAX_UPLOADS_PER_ADDRESS_PER_DAY - issued))).status).toBe(200);
    const over = await requestUploads(twin(), email, files(1));
    expect(over.status).toBe(429);
    expect(over.json.error).toBe(UPLOAD_LIMIT_MESSAGES.address);
  });

  it(`issues at most ${MAX_UPLOADS_PER_IP_PER_HOUR} keys an hour to one network, across addresses`, async () => {
    const network = freshAddress();
    let issued = 0;
    while (issued + 80 <= MAX_UPLOADS_PER_IP_PER_HOUR) {
      const res = await requestUploads(twin(), applicantEmail('network'), files(80), undefined, network);
      expect([res.status, res.json.error]).toEqual([200, undefined]);
      issued += 80;
    }
    const over = await requestUploads(twin(), applicantEmail('network'), files(MAX_UPLOADS_PER_IP_PER_HOUR - issued + 1), undefined, network);
    expect(over.status).toBe(429);
    expect(over.json.error).toBe(UPLOAD_LIMIT_MESSAGES.ip);
    // Another network is not affected.
    expect((await requestUploads(twin(), applicantEmail('network'), files(1))).status).toBe(200);
  });
});

describe('refused by storage', () => {
  it('refuses an expired upload URL', async () => {
    const s3 = new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, requestChecksumCalculation: 'WHEN_REQUIRED' });
    const url = await getSignedUrl(
      s3,
      new PutObjectCommand({ Bucket: twin().physicalName('FoundingPhotos'), Key: `pending/${'0'.repeat(32)}/1-x.jpg`, ContentType: 'image/jpeg', IfNoneMatch: '*' }),
      // Signed ten seconds ago for one second: already expired, with no wait.
      { expiresIn: 1, signingDate: new Date(Date.now() - 10_000), signableHeaders: new Set(['content-type', 'if-none-match']) },
    );
    const res = await put({ url, headers: { 'content-type': 'image/jpeg', 'if-none-match': '*' } }, photos[0]);
    expect(res.status).toBe(403);
    expect(res.text).toContain('Request has expired');
  });

  it('refuses a tampered upload URL: another key, a longer life', async () => {
    const email = applicantEmail('tamper');
    const res = await requestUploads(twin(), email, [{ name: 'a.jpg', type: 'image/jpeg', size: photos[0].length }]);
    const [upload] = res.json.uploads;
    // Another session's folder in the same URL.
    const folder = /\/pending\/([0-9a-f]{32})\//.exec(upload.url)![1];
    const otherKey = { ...upload, url: upload.url.replace(folder, 'f'.repeat(32)) };
    expect(otherKey.url).not.toBe(upload.url);
    const moved = await put(otherKey, photos[0]);
    expect(moved.status).toBe(403);
    expect(moved.text).toContain('SignatureDoesNotMatch');
    const longer = await put({ ...upload, url: upload.url.replace('X-Amz-Expires=900', 'X-Amz-Expires=604800') }, photos[0]);
    expect(longer.status).toBe(403);
  });
});

describe('refused at signup', () => {
  let email: string;
  let session: string;
  let keys: string[];
  beforeAll(async () => {
    email = applicantEmail('ok');
    ({ uploadSession: session, keys } = await uploadAll(twin(), email, asJpegFiles(photos)));
  });

  it('refuses an applicant under 18 and a missing terms flag with the spec messages', async () => {
    const young = await signup(twin(), signupPayload(email, session, keys, { age: 17 }));
    expect(young.status).toBe(400);
    expect(young.json.fields.age).toBe(FOUNDING_MESSAGES.underAge);
    const { terms: _terms, ...noTerms } = signupPayload(email, session, keys);
    const unticked = await signup(twin(), noTerms);
    expect(unticked.status).toBe(400);
    expect(unticked.json.fields.terms).toBe(FOUNDING_MESSAGES.termsRequired);
    const refused = await signup(twin(), signupPayload(email, session, keys, { terms: false as true }));
    expect(refused.json.fields.terms).toBe(FOUNDING_MESSAGES.termsRequired);
    await expectNothingStored(email);
  });

  it('refuses 29 images', async () => {
    const res = await signup(twin(), signupPayload(email, session, keys.slice(0, 29)));
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(FOUNDING_MESSAGES.tooFewImages);
    await expectNothingStored(email);
  });

  it('refuses 81 images (a zip holding 81 photos)', async () => {
    const who = applicantEmail('many');
    const entries = Object.fromEntries(Array.from({ length: 81 }, (_, i) => [`holiday/p${i}.jpg`, [new Uint8Array(photos[i % 30]), { level: 0 }] as const]));
    const zip = Buffer.from(zipSync(entries as never));
    const up = await uploadAll(twin(), who, [{ name: 'holiday.zip', type: 'application/zip', body: zip }]);
    const res = await signup(twin(), signupPayload(who, up.uploadSession, up.keys));
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(FOUNDING_MESSAGES.tooManyImages(81));
    await expectNothingStored(who);
  });

  it('refuses a path under another applicant\'s prefix, and a key never issued to this session', async () => {
    const victim = applicantEmail('victim');
    const theirs = await uploadAll(twin(), victim, asJpegFiles(photos.slice(0, 1)));
    const forged = await signup(twin(), signupPayload(email, session, [...keys.slice(0, 29), theirs.keys[0]]));
    expect(forged.status).toBe(400);
    expect(forged.json.fields.imagePaths).toContain('not your uploads');
    // The victim's own address with the victim's key, but from another session.
    const stolen = await signup(twin(), signupPayload(victim, session, theirs.keys));
    expect(stolen.status).toBe(400);
    expect(stolen.json.error).toContain('not your uploads');
    // The victim's session and key under another address: the session was opened for the victim.
    const borrowed = await signup(twin(), signupPayload(email, theirs.uploadSession, theirs.keys));
    expect(borrowed.status).toBe(400);
    expect(borrowed.json.error).toContain('not issued to this upload session');
    const invented = await signup(twin(), signupPayload(email, session, [...keys.slice(0, 29), `${pendingPrefix(uploadFolderOf(session))}1-000000000000.jpg`]));
    expect(invented.status).toBe(400);
    await expectNothingStored(email);
    await expectNothingStored(victim);
  });

  it('refuses an image that was issued but never uploaded', async () => {
    const res = await requestUploads(twin(), email, [{ name: 'never.jpg', type: 'image/jpeg', size: 1000 }], session);
    const never = res.json.uploads[0].key;
    const out = await signup(twin(), signupPayload(email, session, [...keys.slice(0, 29), never]));
    expect(out.status).toBe(400);
    expect(out.json.error).toContain('not finished uploading');
    await expectNothingStored(email);
  });

  it('refuses a zip bomb and a zip with ../ paths, naming the file', async () => {
    const who = applicantEmail('zips');
    const bomb = Buffer.from(zipSync({ 'big.jpg': [new Uint8Array(30 * 1024 * 1024), { level: 9 }] }));
    expect(bomb.length).toBeLessThan(200 * 1024);
    const slip = Buffer.from(zipSync({ '../../evil.jpg': new Uint8Array(photos[0]), 'ok.jpg': new Uint8Array(photos[1]) }));
    const files: LocalFile[] = [
      { name: 'bomb.zip', type: 'application/zip', body: bomb },
      { name: 'slip.zip', type: 'application/zip', body: slip },
    ];
    const up = await uploadAll(twin(), who, [...files, ...asJpegFiles(photos)]);
    const bombed = await signup(twin(), signupPayload(who, up.uploadSession, [up.keys[0], ...up.keys.slice(2)]));
    expect(bombed.status).toBe(400);
    expect(bombed.json.error).toMatch(/^bomb\.zip cannot be used: .*zip bombs/);
    const slipped = await signup(twin(), signupPayload(who, up.uploadSession, up.keys.slice(1)));
    expect(slipped.status).toBe(400);
    expect(slipped.json.error).toContain('slip.zip cannot be used: it contains a file whose path leaves the archive');
    await expectNothingStored(who);
  });

  it('refuses payloads that are not the contract, with field errors', async () => {
    const res = await signup(twin(), { email: 'not-an-email', age: 'old', imagePaths: 'x' });
    expect(res.status).toBe(400);
    expect(res.json.fields).toMatchObject({
      email: FOUNDING_MESSAGES.invalidEmail,
      age: 'age must be a number',
      firstName: 'firstName is required',
      imagePaths: 'imagePaths must be a list',
      terms: FOUNDING_MESSAGES.termsRequired,
    });
  });
});
