// The Connect webhook on the twin (docs/payouts.md "Connect events"): the emulator signs its
// connected accounts' events with the template's Connect secret. A talent whose bank account
// does not exist (the emulator's test number 000111111116) is paid by transfer, the bank payout
// fails: the statement's payout shows the bank's reason, the talent is emailed what to do and the
// console's history has it; the bank account added on onboarding emails the talent; a delivery
// without Stripe's signature changes nothing; an account whose legal name differs from the
// talent's verified ID warns the console.
import { seedUser } from '../../../infra/local/provision';
import { ONBOARDING_TEST_VALUES } from '../../../infra/local/emulators/stripe';
import { MyPayoutsResponse, PayoutRun } from '../../../events/payouts';
import { statementId } from '../../../events/royalty-values';
import { createAcceptedTalent, setApplicationFields } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { putClosedStatement } from '../../support/statements';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';

jest.setTimeout(240_000);
const twin = useTwin();
const run = fileMarker('cev');
const PASSWORD = 'Str0ng!Passw0rd-cev';
// A far-past month of this file's own: the console's run pays every statement of its month.
const MONTH = '2011-07';

const talentId = `cev-bank-${run}`;
const email = `bank.${run}@payouts.example`;
let token: string;
let admin: string;

beforeAll(async () => {
  admin = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  await createAcceptedTalent(twin(), { email, talentId, firstName: 'Eve', lastName: 'Bank', founding: true, marker: run });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
  token = await idToken(twin(), email, PASSWORD, 'web');
  const url = String((await callApi(twin(), token, 'POST', '/me/payouts/onboarding')).json.url);
  const submitted = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      first_name: 'Eve',
      last_name: 'Bank',
      dob: '1988-02-03',
      ssn_last_4: ONBOARDING_TEST_VALUES.ssnLast4,
      routing_number: ONBOARDING_TEST_VALUES.routingNumber,
      account_number: '000111111116',
    }).toString(),
  });
  expect(submitted.status).toBe(303);
  // $40 at 35%: $14.00.
  await putClosedStatement(documentClient(twin()), twin().physicalName('GenerationsTable'), { talentId, talentName: 'Eve Bank', month: MONTH, royaltyPlan: 'founding-35', values: [40_000_000] });
});

const mails = async () => (await twin().emails()).filter((m) => m.to.includes(email));
const history = async () => ((await callApi(twin(), admin, 'GET', `/admin/talent/${talentId}/payout-history`)).json.entries as Array<{ what: string }>).map((e) => e.what);

it('a bank account added at Stripe emails the talent and shows in the console\'s history', async () => {
  const mail = await eventually(async () => (await mails()).find((m) => m.subject === 'The bank account for your Humanly payouts changed'), { what: 'the bank account email' });
  expect(mail.text).toContain('ending 1116');
  expect(await history()).toEqual(expect.arrayContaining([expect.stringContaining('Bank account change: Stripe added the bank account ending 1116')]));
});

it('a failed bank payout shows on the statement\'s payout with what to do, and emails the talent once', async () => {
  const ran = PayoutRun.parse((await callApi(twin(), admin, 'POST', `/admin/payout-runs/${MONTH}`)).json);
  // Transferred (the emulator's bank payout follows at once, so it may already show as failed).
  expect(ran.payouts.find((p) => p.talentId === talentId)).toMatchObject({ amountCents: 1400, transferId: expect.stringMatching(/^tr_/) });
  // Stripe's automatic payout to the bank then fails: payout.failed on the connected account.
  const failed = await eventually(
    async () => MyPayoutsResponse.parse((await callApi(twin(), token, 'GET', '/me/payouts')).json).payouts.find((p) => p.statementId === statementId(MONTH, talentId) && p.state === 'failed'),
    { what: 'the payout failed by the bank' },
  );
  expect(failed.failure).toContain('the account number does not exist');
  expect(failed.transferId).toMatch(/^tr_/);
  const mail = await eventually(async () => (await mails()).find((m) => m.subject === 'Your Humanly payout for July 2011 did not go through'), { what: 'the payout failed email' });
  expect(mail.text).toContain('update your bank account in your payout setup');
  expect(await history()).toEqual(expect.arrayContaining([expect.stringMatching(/^Bank payout po_\w+ of \$14\.00 failed/)]));
  // The console's retry refuses it: the transfer went through, Stripe pays out again once fixed.
  const retry = await callApi(twin(), admin, 'POST', `/admin/payouts/${statementId(MONTH, talentId)}/retry`);
  expect(retry.status).toBe(409);
  expect(retry.json.error).toContain('the bank payout failed');
  // The reconciliation lists it.
  const month = PayoutRun.parse((await callApi(twin(), admin, 'GET', `/admin/payout-runs/${MONTH}`)).json);
  expect(month.reconciliation.differences).toEqual(expect.arrayContaining([expect.stringContaining(`${statementId(MONTH, talentId)}: payout of $14.00 failed`)]));
  expect((await mails()).filter((m) => m.subject.includes('did not go through'))).toHaveLength(1);
});

it('refuses a delivery without Stripe\'s signature, or with a wrong one, and applies nothing', async () => {
  const body = { id: `evt_${run}`, type: 'payout.failed', account: 'acct_x', data: { object: { id: 'po_x' } } };
  const unsigned = await callApi(twin(), undefined, 'POST', '/webhooks/stripe-connect', body);
  expect(unsigned.status).toBe(400);
  expect(unsigned.json.error).toContain('no Stripe-Signature header');
  const forged = await callApi(twin(), undefined, 'POST', '/webhooks/stripe-connect', body, { 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` });
  expect(forged.status).toBe(400);
  expect(forged.json.error).toContain('does not match this body');
});

it("warns the console when the payout account's legal name differs from the talent's verified ID", async () => {
  const otherId = `cev-name-${run}`;
  const otherEmail = `name.${run}@payouts.example`;
  const { applicationId } = await createAcceptedTalent(twin(), { email: otherEmail, talentId: otherId, firstName: 'Nora', lastName: 'Field', founding: true, marker: run, linked: true });
  // The application's ID was verified as Nora Field (what the identity webhook records).
  await setApplicationFields(twin(), applicationId, {
    verification: {
      state: 'verified',
      type: 'document-and-selfie',
      verifiedAt: '2026-11-20T10:00:00.000Z',
      name: { result: 'match', verified: 'Nora Field', applied: 'Nora Field', note: 'same name' },
      age: { result: '18+', checkedOn: '2026-11-20' },
      attempts: [],
    },
  });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email: otherEmail, password: PASSWORD, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
  const otherToken = await idToken(twin(), otherEmail, PASSWORD, 'web');
  const url = String((await callApi(twin(), otherToken, 'POST', '/me/payouts/onboarding')).json.url);
  // Someone else's name on the payout account.
  const submitted = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      first_name: 'Nora',
      last_name: 'Stone',
      dob: '1990-04-05',
      ssn_last_4: ONBOARDING_TEST_VALUES.ssnLast4,
      routing_number: ONBOARDING_TEST_VALUES.routingNumber,
      account_number: ONBOARDING_TEST_VALUES.accountNumber,
    }).toString(),
  });
  expect(submitted.status).toBe(303);
  const answer = await eventually(
    async () => {
      const got = await callApi(twin(), admin, 'GET', `/admin/talent/${otherId}/payout-history`);
      return got.json.nameCheck ? got.json : undefined;
    },
    { what: 'the name check on the payout history' },
  );
  expect(answer.nameCheck).toMatchObject({ result: 'mismatch', accountName: 'Nora Stone', verifiedName: 'Nora Field', note: 'the last name differs' });
  expect((answer.entries as Array<{ what: string }>).map((e) => e.what)).toEqual(
    expect.arrayContaining(['Warning: the name on the payout account (Nora Stone) differs from the verified ID (Nora Field): the last name differs. Check before paying.']),
  );
  // The first talent has no verified ID: nothing is compared.
  expect((await callApi(twin(), admin, 'GET', `/admin/talent/${talentId}/payout-history`)).json.nameCheck).toBeUndefined();
});
