// Talent payouts on the twin (docs/payouts.md): talent onboard on the Stripe emulator's hosted
// page; the console's payout run transfers each statement at or above the minimum once (a rerun
// transfers nothing), carries a smaller one into the next month's payout, waits for an account
// that is not set up, shows a refused transfer in the run's reconciliation and retries it once the
// platform's balance is back; and a talent reaches only their own payouts, never naming an account.
import { PAYOUT_MESSAGES, transferGroupOf } from '../../../events/payout-values';
import { MyPayoutsResponse, PayoutRun, StatementPayout } from '../../../events/payouts';
import { StatementDetail } from '../../../events/royalties';
import { statementId } from '../../../events/royalty-values';
import { csvRecords } from '../../support/csv';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { putClosedStatement } from '../../support/statements';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { stripeOf } from '../payments/money';
import { payee, submitOnboarding, type Payee } from './payees';
import { OURS_TO_FIX_MESSAGE } from '../../../functions/payouts/views';

jest.setTimeout(240_000);
const twin = useTwin();
const run = fileMarker('pay');
const PASSWORD = 'Str0ng!Passw0rd-pay';
// Far-past months no other test file closes or pays: a run pays every statement of its month.
const MONTH = '2011-03';
const NEXT = '2011-04';
const FAILING = '2011-05';
const LATE = '2011-06';

let admin: string;
const asAdmin = (method: string, path: string, body?: unknown) => callApi(twin(), admin, method, `/admin${path}`, body);
const stripe = () => stripeOf(twin());
const talent = (who: string) => payee(twin(), who, { prefix: 'pay', run, domain: 'payouts.example', password: PASSWORD });
type Talent = Payee;

/** Sets up payouts as the talent does: the portal's button, then Stripe's hosted page filled in. */
async function onboard(t: Talent): Promise<void> {
  const started = await callApi(twin(), t.token, 'POST', '/me/payouts/onboarding');
  expect(started.status).toBe(200);
  const url = String(started.json.url);
  expect((await fetch(url)).status).toBe(200);
  const submitted = await submitOnboarding(url, t);
  expect(submitted.status).toBe(303);
  expect(submitted.headers.get('location')).toContain('/talent-portal?payouts=return');
  // Back in the portal: payouts active, the bank's last four digits, nothing due at Stripe.
  await eventually(
    async () => {
      const { account } = MyPayoutsResponse.parse((await callApi(twin(), t.token, 'GET', '/me/payouts')).json);
      return account.state === 'active' && account.bankLast4 === '6789' && account;
    },
    { what: "the talent's payout account active" },
  );
}

/** A founding talent's closed statement: 35% of `dollars`. */
const statement = (t: Talent, month: string, dollars: number) =>
  putClosedStatement(documentClient(twin()), twin().physicalName('GenerationsTable'), { talentId: t.talentId, talentName: t.name, month, royaltyPlan: 'founding-35', values: [dollars * 1_000_000] });

const payoutOf = (r: PayoutRun, t: Talent, month: string) => r.payouts.find((p) => p.statementId === statementId(month, t.talentId));

let paid: Talent;
let small: Talent;
let notSetUp: Talent;
let refused: Talent;
let late: Talent;

beforeAll(async () => {
  admin = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  [paid, small, notSetUp, refused, late] = await Promise.all([talent('ada'), talent('bo'), talent('cy'), talent('di'), talent('ed')]);
  await Promise.all([onboard(paid), onboard(small), onboard(refused)]);
  // $40 at 35% = $14.00 (paid); $10 = $3.50 (carried), then $20 = $7.00 next month: $10.50 paid.
  await statement(paid, MONTH, 40);
  await statement(small, MONTH, 10);
  await statement(small, NEXT, 20);
  await statement(notSetUp, MONTH, 40);
  await statement(refused, FAILING, 40);
  await statement(late, LATE, 40);
});

describe('the payout run', () => {
  it('transfers each statement at or above the minimum once, carries a smaller one into the next month, waits for an account; a rerun transfers nothing', async () => {
    const first = await asAdmin('POST', `/payout-runs/${MONTH}`);
    expect(first.status).toBe(200);
    const run1 = PayoutRun.parse(first.json);
    expect(payoutOf(run1, paid, MONTH)).toMatchObject({ state: 'paid', amountCents: 1400, statementCents: 1400, carriedInCents: 0, transferId: expect.stringMatching(/^tr_/) });
    expect(payoutOf(run1, small, MONTH)).toMatchObject({ state: 'carried', amountCents: 350 });
    expect(payoutOf(run1, notSetUp, MONTH)).toMatchObject({ state: 'awaiting-account', amountCents: 1400 });
    expect(run1.reconciliation).toEqual({ state: 'balanced', differences: [] });
    expect(run1.totals).toMatchObject({ statementsCents: 3150, transferredCents: 1400, carriedCents: 350, awaitingCents: 1400, stripeTransfersCents: 1400 });

    // At Stripe: one transfer to the talent's account, keyed and grouped by the statement and month.
    const transfers = (await (await stripe()).transfers.list({ transfer_group: transferGroupOf(MONTH), limit: 100 })).data;
    expect(transfers.map((t) => [t.amount, t.metadata.statementId])).toEqual([[1400, statementId(MONTH, paid.talentId)]]);

    // The statement shows Paid with the date and the transfer's reference.
    const mine = StatementDetail.parse((await callApi(twin(), paid.token, 'GET', `/me/statements/${statementId(MONTH, paid.talentId)}`)).json);
    expect(mine.payout).toMatchObject({ status: 'paid', reference: transfers[0]!.id, paidAt: expect.any(String) });

    // A rerun (the console's, as the close's event would) pays nothing twice.
    const again = PayoutRun.parse((await asAdmin('POST', `/payout-runs/${MONTH}`)).json);
    expect(payoutOf(again, paid, MONTH)).toEqual(payoutOf(run1, paid, MONTH));
    expect((await (await stripe()).transfers.list({ transfer_group: transferGroupOf(MONTH), limit: 100 })).data).toHaveLength(1);

    // Next month: $7.00 + the $3.50 carried = $10.50 transferred.
    const run2 = PayoutRun.parse((await asAdmin('POST', `/payout-runs/${NEXT}`)).json);
    expect(payoutOf(run2, small, NEXT)).toMatchObject({ state: 'paid', statementCents: 700, carriedInCents: 350, amountCents: 1050 });
    expect(run2.reconciliation.state).toBe('balanced');
    const mineNow = MyPayoutsResponse.parse((await callApi(twin(), small.token, 'GET', '/me/payouts')).json);
    expect(mineNow.payouts.map((p) => [p.month, p.state, p.amountCents])).toEqual([
      [NEXT, 'paid', 1050],
      [MONTH, 'carried', 350],
    ]);
    expect(mineNow.minimumCents).toBe(1000);

    // The year's earnings for the talent's taxes.
    const csv = await callApi(twin(), small.token, 'GET', '/me/payouts/earnings.csv?year=2011');
    expect(csv.status).toBe(200);
    const rows = csvRecords(csv.text);
    expect(rows.map((r) => [r.month, r.royalty_usd, r.payout_state])).toEqual([
      [MONTH, '3.50', 'carried'],
      [NEXT, '7.00', 'paid'],
      ['2011 total', '10.50', 'paid in the year'],
    ]);
  });

  it('a refused transfer shows on the run and its reconciliation, and the console retries it once fixed', async () => {
    const connectOf = async () => {
      const accounts = (await (await stripe()).accounts.list({ limit: 100 })).data;
      return accounts.find((a) => a.metadata?.talentId === refused.talentId)!.id;
    };
    await twin().stripe.inject({ kind: 'insufficient-balance', times: 1, destination: await connectOf() });
    const failed = PayoutRun.parse((await asAdmin('POST', `/payout-runs/${FAILING}`)).json);
    const payout = payoutOf(failed, refused, FAILING)!;
    expect(payout).toMatchObject({ state: 'failed', amountCents: 1400, attempts: 1 });
    expect(payout.failure).toContain("platform's Stripe balance");
    expect(failed.reconciliation.state).toBe('differences');
    expect(failed.reconciliation.differences).toEqual([expect.stringContaining(`${statementId(FAILING, refused.talentId)}: payout of $14.00 failed`)]);
    expect(failed.totals).toMatchObject({ failedCents: 1400, transferredCents: 0, stripeTransfersCents: 0 });

    // The talent sees it too, as a delay of ours: the platform's balance is not theirs to fix.
    const theirs = MyPayoutsResponse.parse((await callApi(twin(), refused.token, 'GET', '/me/payouts')).json);
    expect(payout.failure).toContain("platform's Stripe balance");
    expect(theirs.payouts[0]).toMatchObject({ state: 'failed', failure: OURS_TO_FIX_MESSAGE });

    // A rerun of the month does not retry by itself; the console's retry does, with a new key.
    expect(payoutOf(PayoutRun.parse((await asAdmin('POST', `/payout-runs/${FAILING}`)).json), refused, FAILING)).toMatchObject({ state: 'failed' });
    const retried = await asAdmin('POST', `/payouts/${statementId(FAILING, refused.talentId)}/retry`);
    expect(retried.status).toBe(200);
    expect(StatementPayout.parse(retried.json)).toMatchObject({ state: 'paid', attempts: 2, transferId: expect.stringMatching(/^tr_/) });
    const after = PayoutRun.parse((await asAdmin('GET', `/payout-runs/${FAILING}`)).json);
    expect(after.reconciliation).toEqual({ state: 'balanced', differences: [] });
    // Retrying a paid payout is refused, naming why.
    const twice = await asAdmin('POST', `/payouts/${statementId(FAILING, refused.talentId)}/retry`);
    expect(twice).toMatchObject({ status: 409, json: { error: PAYOUT_MESSAGES.alreadyPaid } });

    // The accounting CSV lists it paid with the transfer.
    const csv = await asAdmin('GET', `/payout-runs/${FAILING}/csv`);
    const row = csvRecords(csv.text).find((r) => r.statement === statementId(FAILING, refused.talentId));
    expect(row).toMatchObject({ state: 'paid', amount_usd: '14.00', transfer: expect.stringMatching(/^tr_/) });

    // The console's history of the talent: the account, the failure, the payment.
    const history = await asAdmin('GET', `/talent/${refused.talentId}/payout-history`);
    const lines = (history.json.entries as Array<{ what: string }>).map((e) => e.what).join('\n');
    expect(lines).toContain('Payout account created');
    expect(lines).toMatch(/Transfer of \$14\.00 for May 2011 failed/);
    expect(lines).toMatch(/Paid \$14\.00 for May 2011/);
  });

  it('records a payout made outside Stripe with a reference and a reason, and names what is missing', async () => {
    const id = statementId(MONTH, notSetUp.talentId);
    const missing = await asAdmin('POST', `/payouts/${id}/manual`, { reference: '' });
    expect(missing.status).toBe(400);
    const done = await asAdmin('POST', `/payouts/${id}/manual`, { reference: `WIRE-${run}`, reason: 'Paid by bank wire: no Stripe in their country' });
    expect(done.status).toBe(200);
    expect(StatementPayout.parse(done.json)).toMatchObject({ state: 'manual', reference: `WIRE-${run}`, amountCents: 1400 });
    const r = PayoutRun.parse((await asAdmin('GET', `/payout-runs/${MONTH}`)).json);
    expect(r.totals).toMatchObject({ manualCents: 1400, awaitingCents: 0 });
    expect((await asAdmin('POST', `/payouts/${id}/manual`, { reference: 'again', reason: 'twice' })).status).toBe(409);
  });

  it('a payout waiting for its account emails the talent to set up payouts, and is paid once Stripe activates the account', async () => {
    const waiting = PayoutRun.parse((await asAdmin('POST', `/payout-runs/${LATE}`)).json);
    expect(payoutOf(waiting, late, LATE)).toMatchObject({ state: 'awaiting-account', amountCents: 1400 });
    const address = `ed.${run}@payouts.example`;
    const mail = await eventually(async () => (await twin().emails()).find((m) => m.to.includes(address) && m.subject === 'Set up payouts to receive your Humanly royalties'), { what: 'the set up payouts email' });
    expect(mail.text).toContain('$14.00');
    // Onboarding ends with Stripe's account.updated: the waiting payout is transferred.
    await onboard(late);
    const done = await eventually(
      async () => MyPayoutsResponse.parse((await callApi(twin(), late.token, 'GET', '/me/payouts')).json).payouts.find((p) => p.month === LATE && p.state === 'paid'),
      { what: 'the waiting payout paid' },
    );
    expect(done).toMatchObject({ amountCents: 1400, transferId: expect.stringMatching(/^tr_/) });
    expect((await twin().emails()).filter((m) => m.to.includes(address) && m.subject.startsWith('Set up payouts'))).toHaveLength(1);
  });
});

describe('access', () => {
  it('a talent reads only their own payouts, never names an account, and cannot run or retry payouts', async () => {
    // Another talent's statement through the talent's own route: theirs only (there is no id to pass).
    const mine = MyPayoutsResponse.parse((await callApi(twin(), notSetUp.token, 'GET', '/me/payouts')).json);
    expect(mine.payouts.every((p) => p.talentId === notSetUp.talentId)).toBe(true);
    expect(JSON.stringify(mine)).not.toMatch(/acct_/);
    // A body naming an account is refused: the account is always the caller's own.
    const named = await callApi(twin(), notSetUp.token, 'POST', '/me/payouts/onboarding', { account: 'acct_someone' });
    expect(named).toMatchObject({ status: 400, json: { error: PAYOUT_MESSAGES.accountFromBrowser } });
    // The earnings CSV names a bad year.
    for (const year of ['', 'twenty', '20111']) {
      expect(await callApi(twin(), notSetUp.token, 'GET', `/me/payouts/earnings.csv?year=${year}`)).toMatchObject({ status: 400, json: { error: PAYOUT_MESSAGES.badYear } });
    }
    // The console's routes are for admins only.
    for (const [method, path] of [
      ['POST', `/admin/payouts/${statementId(FAILING, refused.talentId)}/retry`],
      ['POST', `/admin/payout-runs/${MONTH}`],
      ['GET', `/admin/payout-runs/${MONTH}`],
      ['GET', `/admin/talent/${paid.talentId}/payout-history`],
    ] as const) {
      expect([401, 403]).toContain((await callApi(twin(), notSetUp.token, method, path)).status);
    }
  });
});
