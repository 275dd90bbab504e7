// The payout run follows the monthly close on the twin (docs/payouts.md "The payout run"): the
// RoyaltyClose state machine, run for a month, announces Royalties.MonthClosed as its last step,
// and the run-payouts trigger transfers the month's statement to the talent's account, once,
// however often the close runs again.
import Stripe from 'stripe';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { seedUser } from '../../../infra/local/provision';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { ONBOARDING_TEST_VALUES } from '../../../infra/local/emulators/stripe';
import { transferGroupOf } from '../../../events/payout-values';
import { MyPayoutsResponse } from '../../../events/payouts';
import { statementId } from '../../../events/royalty-values';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { putClosedStatement } from '../../support/statements';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';

jest.setTimeout(300_000);
const twin = useTwin();
const run = fileMarker('acl');
const PASSWORD = 'Str0ng!Passw0rd-acl';
// A far-past month of this file's own.
const MONTH = '2011-09';
const talentId = `acl-${run}`;
const email = `acl.${run}@payouts.example`;
let token: string;

const sfn = () => new SFNClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
function closeMachineArn(): string {
  const machine = Object.values(twin().template.Resources).find((r) => r.Type === 'AWS::StepFunctions::StateMachine' && String(r.Properties?.StateMachineName).endsWith('-RoyaltyClose'));
  return twin().functions()[0].arn.replace(/^arn:aws:lambda:([^:]+):([^:]+):.*$/, `arn:aws:states:$1:$2:stateMachine:${String(machine!.Properties!.StateMachineName)}`);
}
async function close(month: string): Promise<void> {
  const { executionArn } = await sfn().send(new StartExecutionCommand({ stateMachineArn: closeMachineArn(), name: `acl-${run}-${Date.now()}`, input: JSON.stringify({ month }) }));
  await eventually(async () => (await sfn().send(new DescribeExecutionCommand({ executionArn }))).status !== 'RUNNING' || undefined, { timeoutMs: 120_000, what: 'the close to end' });
}
const transfersOfMonth = async () => {
  const url = new URL(twin().urls.stripe);
  const stripe = new Stripe((await twin().stripe.config()).secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
  return (await stripe.transfers.list({ transfer_group: transferGroupOf(MONTH), limit: 100 })).data;
};

beforeAll(async () => {
  await createAcceptedTalent(twin(), { email, talentId, firstName: 'Flo', lastName: 'Close', founding: true, marker: run });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
  token = await idToken(twin(), email, PASSWORD, 'web');
  const url = String((await callApi(twin(), token, 'POST', '/me/payouts/onboarding')).json.url);
  const form = { first_name: 'Flo', last_name: 'Close', dob: '1991-05-06', ssn_last_4: ONBOARDING_TEST_VALUES.ssnLast4, routing_number: ONBOARDING_TEST_VALUES.routingNumber, account_number: ONBOARDING_TEST_VALUES.accountNumber };
  const submitted = await fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  expect(submitted.status).toBe(303);
  // The month's statement as the close writes it ($40 at 35% = $14.00); the close checks it and announces the month.
  await putClosedStatement(documentClient(twin()), twin().physicalName('GenerationsTable'), { talentId, talentName: 'Flo Close', month: MONTH, royaltyPlan: 'founding-35', values: [40_000_000] });
});

it('the close announces the month and the payout run transfers its statement once, however often the close runs', async () => {
  await close(MONTH);
  const paid = await eventually(
    async () => MyPayoutsResponse.parse((await callApi(twin(), token, 'GET', '/me/payouts')).json).payouts.find((p) => p.statementId === statementId(MONTH, talentId) && p.state === 'paid'),
    { timeoutMs: 60_000, what: 'the statement paid after the close' },
  );
  expect(paid).toMatchObject({ amountCents: 1400, transferId: expect.stringMatching(/^tr_/) });
  await close(MONTH);
  await twin().idle();
  expect((await transfersOfMonth()).map((t) => [t.id, t.amount])).toEqual([[paid.transferId, 1400]]);
});
