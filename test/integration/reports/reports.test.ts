// Misuse reports on the twin (decisions 058, 059): one generation of two images is made through the
// workflow and the Replicate emulator and downloaded as its owner would; its copies are reported
// (metadata, exact pixels, a re-encoded, resized and cropped copy), an intimate report hides its
// image at once and is flagged overdue by the scheduled check, bad input is refused and stores
// nothing, the limits hold, a revocation reaches the license page, the download and the people
// involved, and an appeal waits for a different reviewer; a suspension disables the client's
// sign-in, a sample's removal leaves the talent's profile, an upheld appeal reinstates the license.
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { enrolTotp, seedUser } from '../../../infra/local/provision';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { AdminUserDetail } from '../../../events/accounts';
import { EVENT_SOURCE } from '../../../events/product';
import { TalentResponse } from '../../../events/talent';
import { FINAL_STATUSES } from '../../../events/generation-values';
import { Generation, GenerationStarted, LicenseDownload, PublicLicense } from '../../../events/generations';
import { LICENSE_REVOKED_IMAGE_MESSAGE, LICENSE_WITHHELD_IMAGE_MESSAGE, LicenseFileCheck } from '../../../events/license-check';
import {
  NOT_OURS_MESSAGE,
  REPORT_FILE_NOT_AN_IMAGE_MESSAGE,
  REPORTS_PER_EMAIL_PER_DAY,
  REVOCATION_REASONS,
  SAME_REVIEWER_MESSAGE,
  SAMPLE_NOT_FOUND_MESSAGE,
  revokedText,
  suspensionReason,
} from '../../../events/report-values';
import { AdminReport, AdminReportList, AppealAccepted, LikenessCheckResult, REPORT_DECIDED, ReportCreated, ReportFileUploaded, type ReportDecidedV1, type ReportRequestInput } from '../../../events/reports';
import { accountStore } from '../../../functions/accounts/store';
import { talentStore } from '../../../functions/catalog/store';
import { generationKeys } from '../../../functions/generation/keys';
import { licenseXmp } from '../../../functions/generation/steps/deliver-images/xmp';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { randomLoopback, send } from '../../support/callers';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, documentClient, idToken, itemsWithPrefix, useTwin } from '../../support/twin';

jest.setTimeout(420_000);
const twin = useTwin();
const run = fileMarker('rpt');
const PASSWORD = 'Str0ng!Passw0rd-rpt';
const clientEmail = `rpt.client.${run}@people.example`;
const talentEmail = `rpt.talent.${run}@people.example`;
const reporterEmail = (n: number | string) => `rpt.reporter.${n}.${run}@people.example`;
const secondReviewer = `rpt.reviewer.${run}@humanly.local`;
/** A second client, whose license of the run's talent a reviewer suspends them for. */
const suspendedEmail = `rpt.suspended.${run}@people.example`;

let clientToken: string;
let talentToken: string;
let adminToken: string;
let secondAdminToken: string;
let licenseIds: string[];
let files: Buffer[];
let generationId: string;
/** A license of the run's own talent (who has an email), on the same image file as licenseIds[1]. */
let talentLicenseId: string;
/** A license of the run's talent held by the second client, on the same image file as licenseIds[1]. */
let otherLicenseId: string;
let suspendedId: string;
/** The case whose decision suspended the second client. */
let suspendedReference: string;
const talentId = `rpt-${run}`;
const postFile = (path: string, body: Buffer | string | undefined, contentType = 'image/png', headers: Record<string, string> = {}, from = randomLoopback()) =>
  send(`${twin().urls.api}${path}`, { method: 'POST', headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers }, body, from });
const upload = async (file: Buffer, contentType = 'image/png') => {
  const res = await postFile('/reports/files', file, contentType);
  if (res.status !== 201) throw new Error(`POST /reports/files answered ${res.status}: ${res.text.slice(0, 300)}`);
  return ReportFileUploaded.parse(res.json);
};
const aReport = (overrides: Partial<ReportRequestInput> = {}): ReportRequestInput => ({
  category: 'outside-license',
  explanation: `Used on a billboard the license does not cover ${run}`,
  urls: [`https://billboards.example/${run}.jpg`],
  reporterRole: 'someone-else',
  name: 'Rosa Reporter',
  email: reporterEmail(0),
  goodFaith: true,
  signature: 'Rosa Reporter',
  ...overrides,
});
const report = async (body: ReportRequestInput) => {
  const res = await send(`${twin().urls.api}/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), from: randomLoopback() });
  if (res.status !== 201) throw new Error(`POST /reports answered ${res.status}: ${res.text.slice(0, 300)}`);
  return ReportCreated.parse(res.json);
};
const adminCall = (method: string, path: string, body?: unknown, token = adminToken) => callApi(twin(), token, method, `/admin${path}`, body);
const caseOf = async (reference: string) => AdminReport.parse((await adminCall('GET', `/reports/${reference}`)).json);
const emailsTo = async (address: string) => (await twin().emails()).filter((m) => m.to.includes(address));
const reportItems = () => itemsWithPrefix(twin(), 'ReportsTable', 'REPORT#');
const fileItems = () => itemsWithPrefix(twin(), 'ReportsTable', 'FILE#');
const xmpOf = (licenseId: string) => licenseXmp({ licenseId, talentId: 'maya-chen', talentName: 'Maya Chen', licenseUrl: `https://humanly.example/licenses/${licenseId}` });

beforeAll(async () => {
  const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email: clientEmail, password: PASSWORD, groups: ['client'], name: 'Cleo Client', attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: user.sub!, email: clientEmail, full_name: 'Cleo Client', role: 'client' });
  clientToken = await idToken(twin(), clientEmail, PASSWORD, 'web');
  const suspended = await seedUser(twin().urls.cognito, twin().userPoolId, { email: suspendedEmail, password: PASSWORD, groups: ['client'], name: 'Sam Suspended', attributes: { 'custom:role': 'client' } });
  suspendedId = suspended.sub!;
  await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: suspendedId, email: suspendedEmail, full_name: 'Sam Suspended', role: 'client' });
  // The run's own talent, accepted, whose catalog item names its application (their email).
  await createAcceptedTalent(twin(), { email: talentEmail, talentId, firstName: 'Tala', lastName: `Report ${run}`, founding: false, marker: `rpt-${run}`, linked: true });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email: talentEmail, password: PASSWORD, groups: ['talent'], name: 'Tala Report', attributes: { 'custom:role': 'talent' } });
  talentToken = await idToken(twin(), talentEmail, PASSWORD, 'web');
  adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  await seedUser(twin().urls.cognito, twin().userPoolId, { email: secondReviewer, password: PASSWORD, groups: ['admin'] });
  const secret = await enrolTotp(twin().urls.cognito, twin().clientIds.admin, { email: secondReviewer, password: PASSWORD });
  secondAdminToken = await idToken(twin(), secondReviewer, PASSWORD, 'admin', secret);

  const started = await callApi(twin(), clientToken, 'POST', '/generations', { talentId: 'maya-chen', prompt: `A baker at noon ${run}`, style: 'Portrait', count: 2 });
  expect(started.status).toBe(202);
  generationId = GenerationStarted.parse(started.json).id;
  const generation = await eventually(
    async () => {
      const g = Generation.parse((await callApi(twin(), clientToken, 'GET', `/generations/${generationId}`)).json);
      return FINAL_STATUSES.includes(g.status) && g;
    },
    { timeoutMs: 240_000, what: `generation ${generationId} to finish` },
  );
  expect(generation.status).toBe('succeeded');
  licenseIds = generation.images.map((i) => i.licenseId);
  files = await Promise.all(
    licenseIds.map(async (licenseId) => {
      const { url } = LicenseDownload.parse((await callApi(twin(), clientToken, 'GET', `/licenses/${licenseId}/download`)).json);
      return Buffer.from(await (await fetch(url)).arrayBuffer());
    }),
  );
  // Both delivered images are indexed as they are stored.
  await eventually(async () => (await itemsWithPrefix(twin(), 'ReportsTable', 'FP#')).filter((i) => licenseIds.includes(i.licenseId as string)).length === 2, {
    timeoutMs: 60_000,
    what: 'both delivered images to be indexed',
  });
  // A license of the run's talent on the second image's file (as a delivery writes it), found by its metadata.
  const doc = documentClient(twin());
  const table = twin().physicalName('GenerationsTable');
  const { Item } = await doc.send(new GetCommand({ TableName: table, Key: generationKeys.license(licenseIds[1]) }));
  talentLicenseId = `lic_${run.padEnd(22, 'r').slice(0, 22)}`;
  await doc.send(new PutCommand({ TableName: table, Item: { ...Item, ...generationKeys.license(talentLicenseId), id: talentLicenseId, talentId, talentName: 'Tala Report' } }));
  otherLicenseId = `lic_${run.padEnd(22, 's').slice(0, 22)}`;
  await doc.send(
    new PutCommand({ TableName: table, Item: { ...Item, ...generationKeys.license(otherLicenseId), id: otherLicenseId, talentId, talentName: 'Tala Report', accountId: suspendedId, licensee: 'Sam Suspended' } }),
  );
});

describe('a reported file is matched with what we delivered', () => {
  it('by the license in its metadata, its exact pixels, or a re-encoded, resized and cropped copy; another image is not ours', async () => {
    // The delivered file itself names its license in its XMP.
    expect((await upload(files[0])).match).toMatchObject({ verdict: 'ours', licenseId: licenseIds[0], talentName: 'Maya Chen', how: 'metadata' });
    // The same pixels without metadata.
    const stripped = await sharp(files[0]).png({ compressionLevel: 9 }).toBuffer();
    expect((await upload(stripped)).match).toMatchObject({ verdict: 'ours', licenseId: licenseIds[0], how: 'exact-pixels' });
    // JPEG at quality 60, half the size, a tenth cropped off.
    const { width, height } = await sharp(files[0]).metadata();
    const copy = await sharp(files[0])
      .extract({ left: Math.round(width! * 0.1), top: 0, width: Math.round(width! * 0.9), height: height! })
      .resize(Math.round(width! * 0.45))
      .jpeg({ quality: 60 })
      .toBuffer();
    expect((await upload(copy, 'image/jpeg')).match).toMatchObject({ verdict: 'ours', licenseId: licenseIds[0], how: 'perceptual' });
    // A picture we never made.
    const other = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 20, g: 120, b: 200 } } })
      .composite([{ input: Buffer.from(`<svg width="320" height="240"><circle cx="90" cy="80" r="60" fill="#f5d142"/></svg>`) }])
      .png()
      .toBuffer();
    expect((await upload(other)).match).toEqual({ verdict: 'not-ours' });
    expect(NOT_OURS_MESSAGE).toBe('Not made on Humanly');
    // A real license id pasted into another picture names nothing.
    expect((await upload(await sharp(other).withXmp(xmpOf(licenseIds[0])).png().toBuffer())).match).toEqual({ verdict: 'not-ours' });
  });

  it('a report of a file names its license, is acknowledged with its reference, and the talent is told', async () => {
    const { fileId } = await upload(files[1]);
    const created = await report(aReport({ fileIds: [fileId], urls: [], email: reporterEmail('ack') }));
    expect(created).toMatchObject({ reference: expect.stringMatching(/^RPT-[A-Z2-9]{6}$/), match: { verdict: 'ours', licenseId: licenseIds[1] } });
    expect(Date.parse(created.dueAt) - Date.now()).toBeGreaterThan(6 * 24 * 3600_000);
    const ack = await eventually(async () => (await emailsTo(reporterEmail('ack')))[0], { timeoutMs: 60_000, what: 'the reporter acknowledgement' });
    expect(ack.subject).toContain(created.reference);
    // The queue lists it; the case shows its file as a short-lived URL, never a public one.
    const list = AdminReportList.parse((await adminCall('GET', '/reports?status=open&limit=500')).json);
    expect(list.items.map((i) => i.reference)).toContain(created.reference);
    const c = await caseOf(created.reference);
    expect(c.files).toEqual([expect.objectContaining({ fileId, url: expect.stringContaining('X-Amz-Signature') })]);
    expect(c.license).toMatchObject({ licenseId: licenseIds[1], clientName: 'Cleo Client', talentName: 'Maya Chen' });
    // A file belongs to one case.
    const again = await send(`${twin().urls.api}/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(aReport({ fileIds: [fileId] })), from: randomLoopback() });
    expect(again).toMatchObject({ status: 400, json: { fields: { 'fileIds.0': expect.any(String) } } });
  });
});

describe('an intimate-image report', () => {
  it('that matches hides the image at once and is flagged overdue past its 48 hours, then released when dismissed', async () => {
    const { fileId } = await upload(await sharp(files[0]).png().toBuffer());
    const created = await report(aReport({ category: 'intimate', fileIds: [fileId], urls: [], reporterRole: 'talent', consentDenied: true, email: reporterEmail('intimate') }));
    expect(Date.parse(created.dueAt) - Date.now()).toBeLessThan(48 * 3600_000 + 60_000);
    // Withheld: no thumbnail, no download for the client, not in the client's generation.
    await eventually(async () => PublicLicense.parse((await callApi(twin(), undefined, 'GET', `/licenses/${licenseIds[0]}`)).json).withheld === true, { what: 'the license to say withheld' });
    expect(await callApi(twin(), undefined, 'GET', `/licenses/${licenseIds[0]}/thumbnail`)).toMatchObject({ status: 404, json: { error: LICENSE_WITHHELD_IMAGE_MESSAGE } });
    expect(await callApi(twin(), clientToken, 'GET', `/licenses/${licenseIds[0]}/download`)).toMatchObject({ status: 404, json: { error: LICENSE_WITHHELD_IMAGE_MESSAGE } });
    const generation = Generation.parse((await callApi(twin(), clientToken, 'GET', `/generations/${generationId}`)).json);
    expect(generation.images.map((i) => i.licenseId)).not.toContain(licenseIds[0]);
    expect((await caseOf(created.reference)).hidden).toBe(true);

    // Not yet due: the check leaves it; past its due time: flagged overdue once, first in the queue.
    await twin().events.runScheduled('ReportsOverdueCheck');
    expect((await caseOf(created.reference)).overdue).toBe(false);
    await twin().events.runScheduled('ReportsOverdueCheck', new Date(Date.parse(created.dueAt) + 60_000).toISOString());
    const overdue = await caseOf(created.reference);
    expect(overdue).toMatchObject({ overdue: true, status: 'open' });
    expect(overdue.history.filter((h) => h.what === 'Overdue')).toHaveLength(1);
    const queue = AdminReportList.parse((await adminCall('GET', '/reports?limit=500')).json).items;
    const firstOnTime = queue.findIndex((i) => (i.status === 'open' || i.status === 'appealed') && !i.overdue);
    expect(firstOnTime === -1 || queue.findIndex((i) => i.reference === created.reference) < firstOnTime).toBe(true);

    // Dismissed: the image shows again.
    expect((await adminCall('POST', `/reports/${created.reference}/decision`, { action: 'dismiss', reasons: 'The image is not intimate.' })).status).toBe(200);
    await eventually(async () => PublicLicense.parse((await callApi(twin(), undefined, 'GET', `/licenses/${licenseIds[0]}`)).json).withheld === undefined, { what: 'the license to be released' });
    expect((await callApi(twin(), clientToken, 'GET', `/licenses/${licenseIds[0]}/download`)).status).toBe(200);
  });
});

describe('bad input', () => {
  it('a 25 MB file, a non-image, a missing body and a wrong type get a clear 4xx and store nothing', async () => {
    const before = (await fileItems()).length;
    expect(await postFile('/reports/files', Buffer.alloc(25 * 1024 * 1024, 7))).toMatchObject({ status: 413 });
    expect(await postFile('/reports/files', Buffer.alloc(4 * 1024 * 1024 + 1, 7))).toMatchObject({ status: 413, json: { error: expect.stringContaining('too large') } });
    expect(await postFile('/reports/files', 'plain words <script>alert(1)</script>')).toMatchObject({ status: 415, json: { error: REPORT_FILE_NOT_AN_IMAGE_MESSAGE } });
    expect(await postFile('/reports/files', undefined)).toMatchObject({ status: 400 });
    expect(await postFile('/reports/files', '{"a":1}', 'application/json')).toMatchObject({ status: 415, json: { error: expect.stringContaining('image/png') } });
    expect((await fileItems()).length).toBe(before);
  });

  it('a URL to a private address or another scheme is refused naming the field; so is a report with no location', async () => {
    for (const url of ['http://127.0.0.1/a.png', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.7/x.jpg', 'http://[::1]/x.png', 'http://localhost:4010/x', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const res = await send(`${twin().urls.api}/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(aReport({ urls: [url] })), from: randomLoopback() });
      expect({ url, status: res.status, fields: res.json?.fields }).toMatchObject({ url, status: 400, fields: { 'urls.0': expect.stringContaining('public http') } });
      const check = await callApi(twin(), talentToken, 'POST', '/me/likeness-check/url', { url });
      expect({ url, status: check.status }).toEqual({ url, status: 400 });
    }
    const none = await send(`${twin().urls.api}/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(aReport({ urls: [] })), from: randomLoopback() });
    expect(none).toMatchObject({ status: 400, json: { fields: { urls: expect.any(String) } } });
    const intimate = await send(`${twin().urls.api}/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(aReport({ category: 'intimate' })), from: randomLoopback() });
    expect(intimate).toMatchObject({ status: 400, json: { fields: { consentDenied: expect.any(String), depictedPerson: expect.any(String) } } });
  });

  it('a script in every field is stored as text and never rendered as HTML in the emails', async () => {
    const script = '<script>alert("x")</script>';
    const email = reporterEmail('script');
    const created = await report(
      aReport({ explanation: `${script} ${run}`, urls: [`https://evil.example/${encodeURIComponent(script)}`], name: script, signature: script, email, depictedPerson: script }),
    );
    const stored = (await reportItems()).find((i) => i.reference === created.reference)!;
    expect(stored.explanation).toBe(`${script} ${run}`);
    expect((stored.reporter as { name: string }).name).toBe(script);
    const ack = await eventually(async () => (await emailsTo(email))[0], { timeoutMs: 60_000, what: 'the acknowledgement' });
    expect(`${ack.html}${ack.text}${ack.subject}`).not.toContain('<script');
    // The reviewer's reasons, a script too, reach the client escaped.
    const { fileId, match } = await upload(await sharp(files[1]).withXmp(xmpOf(otherLicenseId)).webp({ lossless: true }).toBuffer(), 'image/webp');
    expect(match).toMatchObject({ verdict: 'ours', licenseId: otherLicenseId });
    const withLicense = await report(aReport({ fileIds: [fileId], urls: [], email: reporterEmail('script2') }));
    suspendedReference = withLicense.reference;
    expect((await adminCall('POST', `/reports/${withLicense.reference}/decision`, { action: 'suspend-client', reasons: `${script} Repeated misuse` })).status).toBe(200);
    const statement = await eventually(async () => (await emailsTo(suspendedEmail)).find((m) => m.subject.includes(withLicense.reference)), { timeoutMs: 60_000, what: 'the client statement' });
    expect(statement.html).toContain('&#60;script&#62;');
    expect(statement.html).not.toContain('<script');
  });
});

describe('decisions that act on the client and the talent', () => {
  it("suspending the client disables their account: Cognito refuses their sign-in, the audit names the report and the reviewer, once per delivery", async () => {
    const disabledDetail = async () => AdminUserDetail.parse((await adminCall('GET', `/users/${suspendedId}`)).json);
    await eventually(async () => (await disabledDetail()).disabled, { timeoutMs: 60_000, what: 'the suspended client account to be disabled' });
    await expect(idToken(twin(), suspendedEmail, PASSWORD, 'web')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    const audit = (await disabledDetail()).audit.filter((a) => a.action === 'disabled');
    expect(audit).toEqual([expect.objectContaining({ by: twin().admin.email, detail: suspensionReason(suspendedReference) })]);

    // The same decision delivered again disables nothing twice.
    const decision = (await caseOf(suspendedReference)).decisions[0];
    const detail: ReportDecidedV1 = { version: 1, reference: suspendedReference, action: 'suspend-client', decidedAt: decision.at, afterAppeal: false, licenseId: otherLicenseId, clientAccountId: suspendedId };
    const events = new EventBridgeClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
    await events.send(new PutEventsCommand({ Entries: [{ EventBusName: twin().physicalName('EventsBus'), Source: EVENT_SOURCE, DetailType: REPORT_DECIDED, Detail: JSON.stringify(detail) }] }));
    await twin().idle();
    expect((await disabledDetail()).audit.filter((a) => a.action === 'disabled')).toHaveLength(1);
  });

  it("removing a sample must name one of the talent's samples, then takes it off the public profile", async () => {
    const samples = [`/talent/${talentId}-1.jpg`, `/talent/${talentId}-2.jpg`];
    const catalog = talentStore(documentClient(twin()), twin().physicalName('CatalogTalentTable'));
    await catalog.update(talentId, { samples, status: 'active' });
    try {
      const { fileId } = await upload(await sharp(files[1]).withXmp(xmpOf(otherLicenseId)).png().toBuffer());
      const created = await report(aReport({ fileIds: [fileId], urls: [], email: reporterEmail('sample') }));
      const path = `/reports/${created.reference}/decision`;
      expect(await adminCall('POST', path, { action: 'remove-sample', reasons: 'The sample was misused.' })).toMatchObject({ status: 400, json: { fields: { sampleUrl: expect.any(String) } } });
      expect(await adminCall('POST', path, { action: 'remove-sample', reasons: 'The sample was misused.', sampleUrl: '/talent/someone-else.jpg' })).toMatchObject({
        status: 400,
        json: { fields: { sampleUrl: SAMPLE_NOT_FOUND_MESSAGE } },
      });
      const decided = await adminCall('POST', path, { action: 'remove-sample', reasons: 'The sample was misused.', sampleUrl: samples[1] });
      expect(AdminReport.parse(decided.json).decisions).toEqual([expect.objectContaining({ action: 'remove-sample', sampleUrl: samples[1] })]);
      const shown = await eventually(
        async () => {
          const t = TalentResponse.parse((await callApi(twin(), undefined, 'GET', `/talent/${talentId}`)).json).talent;
          return !t.samples.includes(samples[1]) && t;
        },
        { timeoutMs: 60_000, what: 'the removed sample to leave the public profile' },
      );
      expect(shown.samples).toEqual([samples[0]]);
    } finally {
      await catalog.update(talentId, { status: 'hidden' });
    }
  });
});

describe('rate limits', () => {
  it(`one address sends at most ${REPORTS_PER_EMAIL_PER_DAY} reports a day, from any network`, async () => {
    const email = reporterEmail('limit');
    for (let i = 0; i < REPORTS_PER_EMAIL_PER_DAY; i++) await report(aReport({ email }));
    const refused = await send(`${twin().urls.api}/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(aReport({ email })), from: randomLoopback() });
    expect(refused).toMatchObject({ status: 429, json: { error: expect.stringContaining('email address') } });
  });

  it('one network sends a bounded number of reports an hour', async () => {
    const from = randomLoopback();
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await send(`${twin().urls.api}/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(aReport({ email: reporterEmail(`net${i}`) })), from });
      answers.push(res.status);
    }
    expect(answers.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(answers.slice(10)).toEqual([429, 429]);
  });
});

describe('"Is this me?"', () => {
  it('names the license and client of an image of the caller, and says not ours for another', async () => {
    const mine = await postFile('/me/likeness-check', await sharp(files[1]).withXmp(xmpOf(talentLicenseId)).png().toBuffer(), 'image/png', { authorization: `Bearer ${talentToken}` });
    expect(mine.status).toBe(200);
    expect(LikenessCheckResult.parse(mine.json)).toMatchObject({ verdict: 'ours', licenseId: talentLicenseId, clientName: 'Cleo Client', isYou: true });
    const maya = await postFile('/me/likeness-check', files[0], 'image/png', { authorization: `Bearer ${talentToken}` });
    expect(LikenessCheckResult.parse(maya.json)).toMatchObject({ verdict: 'ours', licenseId: licenseIds[0], isYou: false });
    const other = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } }).png().toBuffer();
    expect((await postFile('/me/likeness-check', other, 'image/png', { authorization: `Bearer ${talentToken}` })).json).toEqual({ verdict: 'not-ours' });
    // A client may not use it.
    expect((await postFile('/me/likeness-check', other, 'image/png', { authorization: `Bearer ${clientToken}` })).status).toBe(403);
  });
});

describe('revocation and appeal', () => {
  it('revoking says revoked on the license and its check, removes the download, tells client and talent; the appeal goes to a different reviewer', async () => {
    const { fileId, match } = await upload(await sharp(files[1]).withXmp(xmpOf(talentLicenseId)).png().toBuffer());
    expect(match).toMatchObject({ verdict: 'ours', licenseId: talentLicenseId, how: 'metadata' });
    const created = await report(aReport({ category: 'excluded-industry', fileIds: [fileId], urls: [], reporterRole: 'talent', email: reporterEmail('revoke') }));
    await eventually(async () => (await emailsTo(talentEmail)).some((m) => m.text?.includes(created.reference)), { timeoutMs: 60_000, what: "the talent's notice" });

    // An empty statement of reasons is refused.
    expect(await adminCall('POST', `/reports/${created.reference}/decision`, { action: 'revoke-license', reasons: ' ' })).toMatchObject({ status: 400, json: { fields: { reasons: expect.any(String) } } });
    const decided = await adminCall('POST', `/reports/${created.reference}/decision`, { action: 'revoke-license', reasons: 'Used to advertise gambling, which the talent excluded.' });
    expect(decided.status).toBe(200);
    expect(AdminReport.parse(decided.json)).toMatchObject({ status: 'decided', decisions: [{ action: 'revoke-license', by: twin().admin.email }] });
    // Decided once.
    expect((await adminCall('POST', `/reports/${created.reference}/decision`, { action: 'dismiss', reasons: 'Again' })).status).toBe(409);

    const license = await eventually(
      async () => {
        const l = PublicLicense.parse((await callApi(twin(), undefined, 'GET', `/licenses/${talentLicenseId}`)).json);
        return l.revokedAt ? l : undefined;
      },
      { what: 'the license to say revoked' },
    );
    expect(license.revokedReason).toBe(REVOCATION_REASONS['excluded-industry']);
    expect(revokedText(license.revokedAt!, license.revokedReason!)).toMatch(/^Revoked on \d{1,2} \w+ \d{4}: /);
    const check = await postFile(`/licenses/${talentLicenseId}/check`, files[1]);
    expect(check.json).toMatchObject({ license: { revokedAt: license.revokedAt, revokedReason: license.revokedReason } });
    expect(await callApi(twin(), clientToken, 'GET', `/licenses/${talentLicenseId}/download`)).toMatchObject({ status: 404, json: { error: LICENSE_REVOKED_IMAGE_MESSAGE } });
    expect((await callApi(twin(), undefined, 'GET', `/licenses/${talentLicenseId}/thumbnail`)).status).toBe(404);

    const statement = await eventually(async () => (await emailsTo(clientEmail)).find((m) => m.subject.includes(created.reference)), { timeoutMs: 60_000, what: 'the client statement' });
    expect(statement.text).toContain('Used to advertise gambling');
    expect(statement.text).toContain(`/report/appeal/${created.reference}`);
    await eventually(async () => (await emailsTo(talentEmail)).filter((m) => m.text?.includes(created.reference)).length >= 2, { timeoutMs: 60_000, what: "the talent's outcome email" });
    await eventually(async () => (await emailsTo(reporterEmail('revoke'))).length >= 2, { timeoutMs: 60_000, what: "the reporter's decision email" });

    // Only the license's client appeals; the talent may not.
    expect((await callApi(twin(), talentToken, 'POST', `/reports/${created.reference}/appeal`, { statement: 'Not me' })).status).toBe(403);
    const appealed = await callApi(twin(), clientToken, 'POST', `/reports/${created.reference}/appeal`, { statement: 'The ad was for a bakery, not gambling.' });
    expect(AppealAccepted.parse(appealed.json)).toEqual({ reference: created.reference, status: 'appealed' });
    expect((await callApi(twin(), clientToken, 'POST', `/reports/${created.reference}/appeal`, { statement: 'Again' })).status).toBe(409);

    // The first reviewer may not decide the appeal; a second one does, and the revocation is taken back.
    expect(await adminCall('POST', `/reports/${created.reference}/decision`, { action: 'dismiss', reasons: 'On reflection' })).toMatchObject({ status: 409, json: { error: SAME_REVIEWER_MESSAGE } });
    const second = await adminCall('POST', `/reports/${created.reference}/decision`, { action: 'dismiss', reasons: 'The bakery ad is within the license.' }, secondAdminToken);
    expect(second.status).toBe(200);
    const closed = AdminReport.parse(second.json);
    expect(closed).toMatchObject({ status: 'closed', decisions: [{ by: twin().admin.email }, { by: secondReviewer, action: 'dismiss' }], appeal: { statement: 'The ad was for a bakery, not gambling.' } });
    expect(closed.history.map((h) => h.what)).toEqual(expect.arrayContaining(['Received', 'Decided: revoke-license', 'Appealed by the client', 'Decided after appeal: dismiss']));
    await eventually(async () => PublicLicense.parse((await callApi(twin(), undefined, 'GET', `/licenses/${talentLicenseId}`)).json).revokedAt === undefined, { what: 'the license to be reinstated' });
    // Valid again: the check no longer says revoked, the client downloads it.
    const checked = await postFile(`/licenses/${talentLicenseId}/check`, files[1]);
    expect(checked.status).toBe(200);
    const { license: valid } = LicenseFileCheck.parse(checked.json);
    expect(valid).not.toHaveProperty('revokedAt');
    expect(valid).not.toHaveProperty('revokedReason');
    expect((await callApi(twin(), clientToken, 'GET', `/licenses/${talentLicenseId}/download`)).status).toBe(200);
  });
});
