// Every console action that moves money records the administrator who took it (docs/payouts.md
// "Who did it", docs/payments.md "Refunds and disputes", docs/royalties.md): a payout run started
// from the console, a retried payout, a payout marked paid outside Stripe, a refund and a credit
// grant each keep the admin's Cognito sub and email with the time, and the answers the console
// reads (the month's payout run, the statement, the client's billing and ledger) show them.
import { randomUUID } from 'node:crypto';
import { AdminUserDetail } from '../../../events/accounts';
import { AdminBillingResponse } from '../../../events/payments';
import { PayoutRun, StatementPayout, MyPayoutsResponse } from '../../../events/payouts';
import { AdminStatement } from '../../../events/royalties';
import { statementId } from '../../../events/royalty-values';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { putClosedStatement } from '../../support/statements';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { newClient, pay, stores, stripeOf } from '../payments/money';
import { payee, submitOnboarding, type Payee } from '../payouts/payees';

jest.setTimeout(240_000);
const twin = useTwin();
const run = fileMarker('actors');
const PASSWORD = 'Str0ng!Passw0rd-actors';
// Far-past months no other test file closes or pays: a run pays every statement of its month.
const PAID_MONTH = '2013-02';
const FAILING_MONTH = '2013-05';

let admin: string;
/** The admin as the API records them: the id token's email and Cognito sub. */
let who: { email: string; sub: string };
const asAdmin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callApi(twin(), admin, method, `/admin${path}`, body, headers);
const stripe = () => stripeOf(twin());
const talent = (name: string) => payee(twin(), name, { prefix: 'act', run, domain: 'actors.example', password: PASSWORD });
type Talent = Payee;

/** Sets up payouts as the talent does: the portal's button, then Stripe's hosted page filled in. */
async function onboard(t: Talent): Promise<void> {
  const started = await callApi(twin(), t.token, 'POST', '/me/payouts/onboarding');
  expect(started.status).toBe(200);
  const submitted = await submitOnboarding(String(started.json.url), t);
  expect(submitted.status).toBe(303);
  await eventually(async () => MyPayoutsResponse.parse((await callApi(twin(), t.token, 'GET', '/me/payouts')).json).account.state === 'active', {
    what: `the payout account of ${t.talentId} active`,
  });
}

/** A founding talent's closed statement: 35% of $40 = $14.00. */
const statement = (t: Talent, month: string) =>
  putClosedStatement(documentClient(twin()), twin().physicalName('GenerationsTable'), { talentId: t.talentId, talentName: t.name, month, royaltyPlan: 'founding-35', values: [40_000_000] });

const payoutOf = (r: PayoutRun, t: Talent, month: string) => r.payouts.find((p) => p.statementId === statementId(month, t.talentId));
const statementAudit = async (t: Talent, month: string) => AdminStatement.parse((await asAdmin('GET', `/statements/${statementId(month, t.talentId)}`)).json).audit;

let paid: Talent;
let refused: Talent;
let outside: Talent;

beforeAll(async () => {
  admin = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  const claims = JSON.parse(Buffer.from(admin.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string; email: string };
  who = { email: claims.email, sub: claims.sub };
  expect(who.email).toBe(twin().admin.email);
  [paid, refused, outside] = await Promise.all([talent('ana'), talent('ben'), talent('cia')]);
  await Promise.all([onboard(paid), onboard(refused)]);
  await Promise.all([statement(paid, PAID_MONTH), statement(outside, PAID_MONTH), statement(refused, FAILING_MONTH)]);
});

describe('payouts', () => {
  it('a run started from the console records the admin on the month and on each payout it paid, and on the statement', async () => {
    const started = await asAdmin('POST', `/payout-runs/${PAID_MONTH}`);
    expect(started.status).toBe(200);
    const ran = PayoutRun.parse(started.json);
    expect(ran.runs).toEqual([{ at: expect.any(String), by: who.email, bySub: who.sub }]);
    expect(payoutOf(ran, paid, PAID_MONTH)).toMatchObject({ state: 'paid', actions: [{ action: 'run', at: expect.any(String), by: who.email, bySub: who.sub }] });

    // The console reads it again the same way; the statement's audit names the admin too.
    const read = PayoutRun.parse((await asAdmin('GET', `/payout-runs/${PAID_MONTH}`)).json);
    expect(read.runs).toEqual(ran.runs);
    expect(payoutOf(read, paid, PAID_MONTH)?.actions).toEqual(payoutOf(ran, paid, PAID_MONTH)?.actions);
    expect(await statementAudit(paid, PAID_MONTH)).toEqual([
      { at: expect.any(String), by: who.email, bySub: who.sub, action: 'marked-paid', detail: expect.stringMatching(/^Stripe transfer tr_\w+ of \$14\.00, by a payout run from the console$/) },
    ]);

    // The talent's own view of the payout never names the admin.
    const mine = MyPayoutsResponse.parse((await callApi(twin(), paid.token, 'GET', '/me/payouts')).json);
    expect(mine.payouts[0]?.actions).toBeUndefined();
    expect(JSON.stringify((await callApi(twin(), paid.token, 'GET', '/me/payouts')).json)).not.toContain(who.email);
  });

  it('a retry records the admin on the payout and on the statement it paid', async () => {
    const accounts = (await (await stripe()).accounts.list({ limit: 100 })).data;
    await twin().stripe.inject({ kind: 'insufficient-balance', times: 1, destination: accounts.find((a) => a.metadata?.talentId === refused.talentId)!.id });
    const failed = payoutOf(PayoutRun.parse((await asAdmin('POST', `/payout-runs/${FAILING_MONTH}`)).json), refused, FAILING_MONTH);
    expect(failed).toMatchObject({ state: 'failed', actions: [{ action: 'run', by: who.email, bySub: who.sub }] });

    const retried = await asAdmin('POST', `/payouts/${statementId(FAILING_MONTH, refused.talentId)}/retry`);
    expect(retried.status).toBe(200);
    const after = StatementPayout.parse(retried.json);
    expect(after).toMatchObject({ state: 'paid', attempts: 2 });
    expect(after.actions).toEqual([
      { action: 'run', at: expect.any(String), by: who.email, bySub: who.sub },
      { action: 'retried', at: expect.any(String), by: who.email, bySub: who.sub },
    ]);
    const read = PayoutRun.parse((await asAdmin('GET', `/payout-runs/${FAILING_MONTH}`)).json);
    expect(payoutOf(read, refused, FAILING_MONTH)?.actions).toEqual(after.actions);
    expect(await statementAudit(refused, FAILING_MONTH)).toEqual([expect.objectContaining({ by: who.email, bySub: who.sub, action: 'marked-paid', detail: expect.stringContaining('retried from the console') })]);
  });

  it('a payout marked paid outside Stripe records the admin on the payout and on the statement', async () => {
    const id = statementId(PAID_MONTH, outside.talentId);
    const done = await asAdmin('POST', `/payouts/${id}/manual`, { reference: `WIRE-${run}`, reason: 'Paid by bank wire' });
    expect(done.status).toBe(200);
    const marked = StatementPayout.parse(done.json);
    // Awaiting its account after the console's run, then marked paid: both actions, in order.
    expect(marked.actions).toEqual([
      { action: 'run', at: expect.any(String), by: who.email, bySub: who.sub },
      { action: 'marked-paid', at: expect.any(String), by: who.email, bySub: who.sub },
    ]);
    const read = PayoutRun.parse((await asAdmin('GET', `/payout-runs/${PAID_MONTH}`)).json);
    expect(payoutOf(read, outside, PAID_MONTH)).toMatchObject({ state: 'manual', actions: marked.actions });
    expect(await statementAudit(outside, PAID_MONTH)).toEqual([
      { at: expect.any(String), by: who.email, bySub: who.sub, action: 'marked-paid', detail: `Paid outside Stripe (WIRE-${run}): Paid by bank wire` },
    ]);
  });
});

describe("a client's billing and credits", () => {
  it('a refund records the admin on the payment, and the billing the console reads shows who and when', async () => {
    const client = await newClient(twin(), run, 'refunded');
    expect((await asAdmin('PATCH', `/users/${client.id}`, { plan: 'starter' })).status).toBe(200);
    const checkout = await callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'credits', pack: 50, quantity: 1 });
    expect(checkout.status).toBe(201);
    expect((await pay(String(checkout.json.url), '4242 4242 4242 4242')).status).toBe(303);
    const payment = await eventually(async () => (await stores(twin()).payments.paymentsOf(client.id))[0], { what: 'the pack payment recorded', timeoutMs: 60_000 });

    const before = Date.now();
    const refund = await asAdmin('POST', `/payments/${payment.paymentIntentId}/refund`, { reason: `Goodwill ${run}`, amountCents: 500 }, { 'idempotency-key': randomUUID() });
    expect(refund.status).toBe(201);
    const billing = AdminBillingResponse.parse((await asAdmin('GET', `/users/${client.id}/billing`)).json);
    const refunds = billing.payments.find((p) => p.id === payment.paymentIntentId)?.refunds;
    expect(refunds).toEqual([{ at: expect.any(String), by: who.email, bySub: who.sub, amountCents: 500, reason: `Goodwill ${run}` }]);
    expect(Date.parse(refunds![0]!.at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('a credit grant records the admin on the ledger entry the console reads', async () => {
    const client = await newClient(twin(), run, 'granted');
    const granted = await asAdmin('POST', `/users/${client.id}/credits`, { credits: 7, category: 'goodwill', reason: `Sorry ${run}` }, { 'idempotency-key': randomUUID() });
    expect(granted.status).toBe(201);
    const detail = AdminUserDetail.parse((await asAdmin('GET', `/users/${client.id}`)).json);
    expect(detail.ledger.find((e) => e.kind === 'grant' && e.reason === `Sorry ${run}`)).toMatchObject({ credits: 7, by: who.email, bySub: who.sub, at: expect.any(String) });
    // The client's own ledger names no admin's sub.
    const mine = await callApi(twin(), client.token, 'GET', '/me/ledger');
    expect(JSON.stringify(mine.json)).not.toContain(who.sub);
  });
});
