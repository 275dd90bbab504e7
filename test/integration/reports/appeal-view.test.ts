// A revocation for the client's breach on the twin (decision 058, docs/decisions/061): the talent's
// royalty on the license is taken back once, however often License.Revoked is delivered, with the
// line the statement shows; the license's client reads the decision with its statement of reasons
// (GET /reports/{reference}/decision); anyone else gets the 404 of a case that does not exist. The
// client appeals, a second reviewer reinstates the license, and the royalty is given back once.
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { enrolTotp, seedUser } from '../../../infra/local/provision';
import { EVENT_SOURCE } from '../../../events/product';
import { REPORT_NOT_FOUND_MESSAGE, REVOCATION_REASONS } from '../../../events/report-values';
import { ClientReportDecision, LICENSE_REINSTATED, LICENSE_REVOKED, ReportCreated, ReportFileUploaded, type LicenseReinstatedV1, type LicenseRevokedV1 } from '../../../events/reports';
import { accountStore } from '../../../functions/accounts/store';
import { generationKeys } from '../../../functions/generation/keys';
import { licenseXmp } from '../../../functions/generation/steps/deliver-images/xmp';
import { randomLoopback, send } from '../../support/callers';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';

jest.setTimeout(180_000);
const twin = useTwin();
const run = fileMarker('apv');
const PASSWORD = 'Str0ng!Passw0rd-apv';
const talentId = `apv-${run}`;
const licenseId = `lic_${run.padEnd(22, 'v').slice(0, 22)}`;
const REASONS = `The billboard campaign is outside the license's scope (${run}).`;

/** A client account with a session, seeded as sign-up leaves one. */
async function client(email: string, name: string): Promise<{ id: string; token: string }> {
  const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], name, attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: user.sub!, email, full_name: name, role: 'client' });
  return { id: user.sub!, token: await idToken(twin(), email, PASSWORD, 'web') };
}

const royaltyRecord = async (sk: string) =>
  (await documentClient(twin()).send(new GetCommand({ TableName: twin().physicalName('GenerationsTable'), Key: { pk: generationKeys.talent(talentId), sk }, ConsistentRead: true }))).Item;
const takenBack = () => royaltyRecord(`TAKEBACK#${licenseId}`);
const givenBack = () => royaltyRecord(`GIVEBACK#${licenseId}`);
/** Puts one of our events on the bus, as a repeated delivery would, and waits until the twin has run what it started. */
async function deliverAgain(detailType: string, detail: object): Promise<void> {
  const events = new EventBridgeClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  await events.send(new PutEventsCommand({ Entries: [{ EventBusName: twin().physicalName('EventsBus'), Source: EVENT_SOURCE, DetailType: detailType, Detail: JSON.stringify(detail) }] }));
  await twin().idle();
}

it("a revocation for the client's breach takes the royalty back once; the client reads the reasons, a stranger gets 404; reinstated, it comes back once", async () => {
  const owner = await client(`apv.client.${run}@people.example`, 'Cleo Client');
  const stranger = await client(`apv.stranger.${run}@people.example`, 'Sid Stranger');
  const adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');

  // The client's license of the run's talent, as a delivery writes it (no image file: the report names it by metadata).
  await documentClient(twin()).send(
    new PutCommand({
      TableName: twin().physicalName('GenerationsTable'),
      Item: {
        ...generationKeys.license(licenseId),
        id: licenseId,
        generationId: `gen_${run}`,
        index: 0,
        key: `generations/gen_${run}/0.png`,
        talentId,
        talentName: 'Ava View',
        accountId: owner.id,
        licensee: 'Cleo Client',
        style: 'Portrait',
        scope: 'commercial',
        issuedAt: '2026-10-20T10:00:00.000Z',
        creditValueMicros: 1_000_000,
      },
    }),
  );
  const image = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#6a4c93' } })
    .withXmp(licenseXmp({ licenseId, talentId, talentName: 'Ava View', licenseUrl: `https://humanly.example/licenses/${licenseId}` }))
    .png()
    .toBuffer();
  const uploaded = await send(`${twin().urls.api}/reports/files`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: image, from: randomLoopback() });
  expect(uploaded.status).toBe(201);
  const { fileId, match } = ReportFileUploaded.parse(uploaded.json);
  expect(match).toMatchObject({ verdict: 'ours', licenseId });
  const sent = await send(`${twin().urls.api}/reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    from: randomLoopback(),
    body: JSON.stringify({
      category: 'outside-license',
      explanation: `A billboard the license does not cover ${run}`,
      urls: [],
      fileIds: [fileId],
      reporterRole: 'someone-else',
      name: 'Rosa Reporter',
      email: `apv.reporter.${run}@people.example`,
      goodFaith: true,
      signature: 'Rosa Reporter',
    }),
  });
  expect(sent.status).toBe(201);
  const { reference } = ReportCreated.parse(sent.json);

  // Before a decision there is nothing to read, for the client either.
  expect(await callApi(twin(), owner.token, 'GET', `/reports/${reference}/decision`)).toMatchObject({ status: 404, json: { error: REPORT_NOT_FOUND_MESSAGE } });

  const decided = await callApi(twin(), adminToken, 'POST', `/admin/reports/${reference}/decision`, { action: 'revoke-license', reasons: REASONS });
  expect(decided.status).toBe(200);

  // The royalty is taken back with the line the talent's statement shows.
  const first = await eventually(takenBack, { timeoutMs: 60_000, what: 'the royalty of the revoked license to be taken back' });
  expect(first).toMatchObject({
    licenseId,
    accrualMonth: '2026-10',
    key: `report:${reference}`,
    reason: `Royalty taken back: license ${licenseId} revoked after report ${reference}`,
    accountId: owner.id,
  });

  // License.Revoked delivered again takes nothing more.
  const again: LicenseRevokedV1 = { version: 1, licenseId, reference, revokedAt: new Date().toISOString(), reason: REVOCATION_REASONS['outside-license'], clientBreach: true };
  await deliverAgain(LICENSE_REVOKED, again);
  expect(await takenBack()).toEqual(first);

  // The client reads the decision and its statement of reasons; a stranger's answer is that of a case that does not exist.
  const read = await callApi(twin(), owner.token, 'GET', `/reports/${reference}/decision`);
  expect(read.status).toBe(200);
  expect(ClientReportDecision.parse(read.json)).toMatchObject({
    reference,
    licenseId,
    status: 'decided',
    action: 'revoke-license',
    publicReason: REVOCATION_REASONS['outside-license'],
    reasons: REASONS,
    canAppeal: true,
  });
  const missing = await callApi(twin(), stranger.token, 'GET', '/reports/RPT-ZZZZZZ/decision');
  const strangers = await callApi(twin(), stranger.token, 'GET', `/reports/${reference}/decision`);
  expect(strangers).toMatchObject({ status: 404, json: missing.json });
  expect(strangers.text).not.toContain(REASONS);

  // The client appeals; the page's answer says so. A second reviewer reinstates the license: the royalty comes back once, by a second record.
  expect((await callApi(twin(), owner.token, 'POST', `/reports/${reference}/appeal`, { statement: `The billboard was within the license (${run}).` })).status).toBe(200);
  expect(ClientReportDecision.parse((await callApi(twin(), owner.token, 'GET', `/reports/${reference}/decision`)).json)).toMatchObject({ status: 'appealed', canAppeal: false, appealedAt: expect.any(String) });
  const secondReviewer = `apv.reviewer.${run}@humanly.local`;
  await seedUser(twin().urls.cognito, twin().userPoolId, { email: secondReviewer, password: PASSWORD, groups: ['admin'] });
  const secret = await enrolTotp(twin().urls.cognito, twin().clientIds.admin, { email: secondReviewer, password: PASSWORD });
  const secondToken = await idToken(twin(), secondReviewer, PASSWORD, 'admin', secret);
  expect((await callApi(twin(), secondToken, 'POST', `/admin/reports/${reference}/decision`, { action: 'dismiss', reasons: 'The billboard is within the license.' })).status).toBe(200);
  const given = await eventually(givenBack, { timeoutMs: 60_000, what: 'the royalty of the reinstated license to be given back' });
  expect(given).toMatchObject({ licenseId, key: `report:${reference}`, reason: `Royalty given back: license ${licenseId} reinstated on appeal of report ${reference}` });
  const reinstated: LicenseReinstatedV1 = { version: 1, licenseId, reference, reinstatedAt: new Date().toISOString() };
  await deliverAgain(LICENSE_REINSTATED, reinstated);
  expect(await givenBack()).toEqual(given);
  expect(await takenBack()).toEqual(first);
  expect(ClientReportDecision.parse((await callApi(twin(), owner.token, 'GET', `/reports/${reference}/decision`)).json)).toMatchObject({ status: 'closed', action: 'dismiss', canAppeal: false });
});
