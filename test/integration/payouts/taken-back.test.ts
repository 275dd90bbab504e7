// Money taken back after a payout, on the twin (docs/payouts.md "Money taken back"): a client buys a
// pack through Checkout and spends it on images of a talent; the month's statement is paid by a
// Stripe transfer. The console then refunds part of the pack: Stripe's verified charge.refunded
// event takes back what it can of the unspent credits and publishes Payments.SpentCreditsRefunded
// for the spent ones; the royalties wing records the refunded image's royalty, and the talent's
// next statement (closed by the RoyaltyClose state machine) takes it off what it pays, with a line
// that names neither the client nor what they bought. The payout run transfers the net amount.
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import Stripe from 'stripe';
import { transferGroupOf } from '../../../events/payout-values';
import { MyPayoutsResponse } from '../../../events/payouts';
import { AdminStatement, StatementDetail } from '../../../events/royalties';
import { statementId } from '../../../events/royalty-values';
import { creditLedger } from '../../../functions/accounts/credits';
import { accountStore } from '../../../functions/accounts/store';
import { generationStore } from '../../../functions/generation/store';
import { paymentsStore } from '../../../functions/payments/store';
import { royaltyStore } from '../../../functions/royalties/store';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { ONBOARDING_TEST_VALUES } from '../../../infra/local/emulators/stripe';
import { seedUser } from '../../../infra/local/provision';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { putClosedStatement } from '../../support/statements';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';

jest.setTimeout(300_000);
const twin = useTwin();
const run = fileMarker('tbk');
const PASSWORD = 'Str0ng!Passw0rd-tbk';
// Far-past months of this file's own: the first is paid, the second takes the refund back.
const PAID_MONTH = '2012-03';
const NEXT_MONTH = '2012-04';
const talentId = `tbk-${run}`;
const talentEmail = `tbk.${run}@payouts.example`;
let talentToken: string;
let adminToken: string;

const doc = () => documentClient(twin());
const table = () => twin().physicalName('GenerationsTable');
const ledger = () => creditLedger(doc(), twin().physicalName('AccountsTable'));
const stripeClient = async () => {
  const url = new URL(twin().urls.stripe);
  return new Stripe((await twin().stripe.config()).secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
};
const sfn = () => new SFNClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
function closeMachineArn(): string {
  const machine = Object.values(twin().template.Resources).find((r) => r.Type === 'AWS::StepFunctions::StateMachine' && String(r.Properties?.StateMachineName).endsWith('-RoyaltyClose'));
  return twin().functions()[0].arn.replace(/^arn:aws:lambda:([^:]+):([^:]+):.*$/, `arn:aws:states:$1:$2:stateMachine:${String(machine!.Properties!.StateMachineName)}`);
}
async function close(month: string): Promise<void> {
  const { executionArn } = await sfn().send(new StartExecutionCommand({ stateMachineArn: closeMachineArn(), name: `tbk-${run}-${month}-${Date.now()}`, input: JSON.stringify({ month }) }));
  await eventually(async () => (await sfn().send(new DescribeExecutionCommand({ executionArn }))).status !== 'RUNNING' || undefined, { timeoutMs: 120_000, what: `the close of ${month} to end` });
}
const payoutOf = (month: string) =>
  eventually(async () => MyPayoutsResponse.parse((await callApi(twin(), talentToken, 'GET', '/me/payouts')).json).payouts.find((p) => p.statementId === statementId(month, talentId) && p.state === 'paid'), {
    timeoutMs: 60_000,
    what: `the statement of ${month} paid`,
  });

/** A Starter client (set by an admin) who buys one pack of 50 credits through Checkout, paid with 4242. */
async function clientWithPack(): Promise<{ id: string; paymentIntentId: string; source: string }> {
  const email = `tbk-client.${run}@people.example`;
  const { sub } = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], attributes: { 'custom:role': 'client' } });
  await accountStore(doc(), twin().physicalName('AccountsTable')).create({ id: sub!, email, full_name: `Tbk Client ${run}`, role: 'client' });
  expect((await callApi(twin(), adminToken, 'PATCH', `/admin/users/${sub}`, { plan: 'starter' })).status).toBe(200);
  const token = await idToken(twin(), email, PASSWORD, 'web');
  const checkout = await callApi(twin(), token, 'POST', '/me/checkout-sessions', { kind: 'credits', pack: 50, quantity: 1 });
  expect(checkout.status).toBe(201);
  const paid = await fetch(checkout.json.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Tbk Client', number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' }),
  });
  expect(paid.status).toBe(303);
  const payments = paymentsStore(doc(), twin().physicalName('PaymentsTable'));
  const payment = await eventually(async () => (await payments.paymentsOf(sub!))[0], { what: 'the pack payment recorded', timeoutMs: 60_000 });
  return { id: sub!, paymentIntentId: payment.paymentIntentId, source: payment.source || payment.grantKey };
}

beforeAll(async () => {
  adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  await createAcceptedTalent(twin(), { email: talentEmail, talentId, firstName: 'Tove', lastName: 'Back', founding: true, marker: run });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email: talentEmail, password: PASSWORD, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
  talentToken = await idToken(twin(), talentEmail, PASSWORD, 'web');
  const url = String((await callApi(twin(), talentToken, 'POST', '/me/payouts/onboarding')).json.url);
  const form = { first_name: 'Tove', last_name: 'Back', dob: '1990-02-03', ssn_last_4: ONBOARDING_TEST_VALUES.ssnLast4, routing_number: ONBOARDING_TEST_VALUES.routingNumber, account_number: ONBOARDING_TEST_VALUES.accountNumber };
  const submitted = await fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  expect(submitted.status).toBe(303);
});

it('a refund after payout lands on the next statement as a negative line, and the next transfer is the net amount', async () => {
  const client = await clientWithPack();
  // Every credit the client holds, the pack's included, is spent on images (reserved, then
  // committed as a generation does).
  const generationId = `gen-tbk-${run}`;
  const credits = await ledger().balance(client.id);
  expect(credits).toBeGreaterThanOrEqual(50);
  await ledger().reserve(client.id, { credits, key: `reserve:${generationId}`, generationId, reason: 'Images of Tove Back' });
  await ledger().commit(client.id, { credits, key: `commit:${generationId}`, generationId, reason: 'Images of Tove Back' });
  expect(await ledger().balance(client.id)).toBe(0);
  // Three of those images are on the talent's statement, as DeliverImages writes them with the
  // purchase they were paid from: 3 x 35% of $10.00 = $10.50, paid by a transfer after the close.
  await putClosedStatement(doc(), table(), { talentId, talentName: 'Tove Back', month: PAID_MONTH, royaltyPlan: 'founding-35', values: [10_000_000, 10_000_000, 10_000_000], accountId: client.id, creditSource: client.source });
  await close(PAID_MONTH);
  const paid = await payoutOf(PAID_MONTH);
  expect(paid).toMatchObject({ amountCents: 1050 });

  // The console refunds $0.40 of the $20 pack: one credit, already spent.
  const refund = await callApi(twin(), adminToken, 'POST', `/admin/payments/${client.paymentIntentId}/refund`, { reason: `One image refunded ${run}`, amountCents: 40 });
  expect(refund.status).toBe(201);
  const royalties = royaltyStore(doc(), table());
  const takenBack = await eventually(async () => (await royalties.openTakenBack(talentId, '9999-12-31T00:00:00.000Z'))[0], { timeoutMs: 60_000, what: "the refunded image's royalty taken back" });
  // The most recently issued license paid from the pack.
  expect(takenBack).toMatchObject({ licenseId: `lic-${talentId}-${PAID_MONTH}-2`, accrualMonth: PAID_MONTH, reason: "The client's payment was refunded", accountId: client.id });

  // The next month: one new image (35% of $40.00 = $14.00), less the $3.50 taken back = $10.50.
  await generationStore(doc(), table()).addLicense(
    {
      id: `lic-${talentId}-${NEXT_MONTH}-0`,
      generationId: `gen-${talentId}-${NEXT_MONTH}-0`,
      index: 0,
      key: `generations/test/${talentId}/${NEXT_MONTH}.png`,
      talentId,
      talentName: 'Tove Back',
      accountId: 'another-client',
      licensee: 'Another Brand',
      style: 'Commercial',
      scope: 'commercial',
      issuedAt: `${NEXT_MONTH}-10T10:00:00.000Z`,
      creditValueMicros: 40_000_000,
    },
    'pro',
    'founding-35',
  );
  await close(NEXT_MONTH);
  const next = (await royalties.getStatement(talentId, NEXT_MONTH))!;
  expect(next.totals).toMatchObject({ licenses: 1, royaltyMicros: 14_000_000, royaltyCents: 1050, takenBack: { licenses: 1, owedMicros: 3_500_000, appliedMicros: 3_500_000, absorbedMicros: 0 } });

  // The talent reads the line (no client, no purchase); the console shows it with what was absorbed.
  const mine = await callApi(twin(), talentToken, 'GET', `/me/statements/${statementId(NEXT_MONTH, talentId)}`);
  expect(mine.status).toBe(200);
  expect(StatementDetail.parse(mine.json).takenBack).toEqual([
    { licenseId: `lic-${talentId}-${PAID_MONTH}-2`, at: takenBack.at, statementMonth: PAID_MONTH, royaltyMicros: 3_500_000, reason: "The client's payment was refunded" },
  ]);
  expect(mine.text).not.toContain(client.id);
  expect(mine.text).not.toContain(client.paymentIntentId);
  const csv = await callApi(twin(), talentToken, 'GET', `/me/statements/${statementId(NEXT_MONTH, talentId)}/csv`);
  expect(csv.text).toContain(`"taken back","${takenBack.at.slice(0, 10)}","lic-${talentId}-${PAID_MONTH}-2"`);
  expect(csv.text).toContain('"-3.500000"');
  const admin = AdminStatement.parse((await callApi(twin(), adminToken, 'GET', `/admin/statements/${statementId(NEXT_MONTH, talentId)}`)).json);
  expect(admin.takenBack.map((t) => [t.licenseId, t.royaltyMicros])).toEqual([[`lic-${talentId}-${PAID_MONTH}-2`, 3_500_000]]);

  // The payout run transfers the net amount; the first month's transfer stays as it was.
  const second = await payoutOf(NEXT_MONTH);
  expect(second).toMatchObject({ amountCents: 1050 });
  const stripe = await stripeClient();
  expect((await stripe.transfers.list({ transfer_group: transferGroupOf(NEXT_MONTH), limit: 100 })).data.filter((t) => t.metadata?.statementId === statementId(NEXT_MONTH, talentId)).map((t) => t.amount)).toEqual([1050]);
  expect((await stripe.transfers.retrieve(paid.transferId!)).amount).toBe(1050);

  // Nothing else of the pack was taken back, and the line is claimed once.
  await twin().idle();
  expect(await royalties.openTakenBack(talentId, '9999-12-31T00:00:00.000Z')).toEqual([]);
  expect((await royalties.claimedTakenBack(talentId, NEXT_MONTH)).length).toBe(1);
});
