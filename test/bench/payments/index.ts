/**
 * Payments benchmark on the twin (docs/payments.md): clients pay through the Stripe emulator as
 * the integration tests do (an account of the user pool, `POST /me/checkout-sessions`, the hosted
 * checkout page posted with test card 4242), in three phases:
 *   at once          each client buys the Starter plan, then a pack of 50 credits; every event
 *                    of a payment is delivered at once (the emulator's `burst` fault);
 *   twice, reversed  the same with other clients, every event delivered twice, newest first;
 *   renewals         the emulator's own clock moved a month: the first phase's subscriptions
 *                    renew together, their events delivered at once.
 * Printed per phase: the webhook's answers of 500 and more (target 0), counted from the
 * emulator's delivery records; the time from the payment (the hosted page's answer, or the clock
 * moved) to the credits showing in `GET /me`, p50 and p95 (target p95 < 2 s); their ratios to a
 * baseline measured just before the phase (a `GET /me` round trip and a raw DynamoDB Local put),
 * since the machine is shared; and whether every account holds exactly the credits it paid for.
 *
 *   npm run bench:payments [-- --payments 50]
 *   npm run bench:payments -- --quick       (3 plans, 3 packs, 3 renewals: CI runs it)
 *
 * The twin is a fast one: its Stripe emulator tries a refused delivery again after 50 ms, 100 ms,
 * 200 ms ... (about 3 s in all), where Stripe waits about an hour; on Stripe, each answer of 500
 * would keep a client's credits away for that long. The second phase's clients follow a test clock
 * of their own (as `clockedCustomer` in test/integration/payments/money.ts makes them), so moving
 * the emulator's clock renews the first phase's subscriptions only.
 * Exits non-zero when a payment's credits never show, or an account holds other credits than it
 * paid for.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { accountStore } from '../../../functions/accounts/store';
import { paymentsStore } from '../../../functions/payments/store';
import { planById } from '../../../events/plans';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import type { StripeFault } from '../../../infra/local/emulators/stripe/webhooks';
import { seedUser } from '../../../infra/local/provision';
import { inParallel, randomLoopback } from '../../support/callers';
import { callApi, type TestTwin } from '../../support/twin';
import { benchTwin } from '../twin';
import { eventually } from '../../support/eventually';

const QUICK = process.argv.includes('--quick');
const arg = (name: string, full: number, quick: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i > 0 ? Number(process.argv[i + 1]) : QUICK ? quick : full;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number, got ${process.argv[i + 1]}`);
  return value;
};
/** Clients a phase: each buys a plan, then a pack (and the first phase's renew). */
const PAYMENTS = arg('payments', 50, 3);
/** Clients paying at the same time (the twin runs each function in one worker). */
const PAYERS = 2;
const PLAN = 'starter';
const PLAN_CREDITS = planById(PLAN).monthlyCredits;
const PACK = 50;
const CARD_OK = '4242 4242 4242 4242';
const PASSWORD = 'Str0ng!Passw0rd-bench';
const TARGET_P95_MS = 2000;
/** Beyond this, a payment's credits are counted as never shown. */
const VISIBLE_WITHIN_MS = 60_000;
/** Round trips of each baseline, measured before each phase. */
const BASELINE_SAMPLES = QUICK ? 10 : 30;
const STAMP = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

interface Client {
  id: string;
  email: string;
  token: string;
  /** The plan checkout's subscription, once paid. */
  subscriptionId?: string;
}

type Kind = 'plan checkouts' | 'credit packs' | 'renewals';

interface Measure {
  kind: Kind;
  /** Milliseconds from the payment to GET /me showing its credits; undefined when they never showed. */
  ms: number | undefined;
  /** Renewals: milliseconds from the clock's move to our route accepting the invoice.paid (the emulator's record). */
  acceptedMs?: number;
}

interface Baseline {
  getMeMs: number;
  putMs: number;
}

interface Phase {
  name: string;
  measures: Measure[];
  baseline: Baseline;
  answers: number;
  fiveHundreds: number;
  noAnswer: number;
  failed: number;
  deliveries: number;
  exact: number;
  accounts: number;
  wrong: string[];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const millis = (ms: number) => `${ms.toFixed(1)} ms`;
const ratio = (a: number, b: number) => (a / b).toFixed(1);
const count = (n: number) => n.toLocaleString('en-US');

const documentClient = (twin: TestTwin) =>
  DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: twin.urls.dynamodb, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } }));

/** The account's balance and plan as `GET /me` shows them. */
async function me(twin: TestTwin, client: Client): Promise<{ balance: number; plan: string | undefined }> {
  const answer = await callApi(twin, client.token, 'GET', '/me');
  if (answer.status !== 200) throw new Error(`GET /me answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return { balance: answer.json.credits?.balance ?? 0, plan: answer.json.plan?.id };
}

/** A client of the pool and its account (Free, its first credits), signed in on the site's app client, as money.ts makes them. */
async function newClient(twin: TestTwin, n: number): Promise<Client> {
  const email = `bench.payments.${STAMP}.${n}@clients.example`;
  const user = await seedUser(twin.urls.cognito, twin.userPoolId, { email, password: PASSWORD, groups: ['client'], name: 'Ada Client', attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin), twin.physicalName('AccountsTable')).create({ id: user.sub!, email, full_name: 'Ada Client', role: 'client' });
  // Each client signs in from an address of its own: the user pool's WAF counts sign-ins per address.
  const cognito = new CognitoIdentityProviderClient({
    endpoint: twin.urls.cognito,
    region: TWIN_REGION,
    credentials: { ...TWIN_CREDENTIALS },
    requestHandler: { httpAgent: new http.Agent({ localAddress: randomLoopback() }) },
  });
  const out = await cognito.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin.clientIds.web, AuthParameters: { USERNAME: email, PASSWORD } }));
  return { id: user.sub!, email, token: out.AuthenticationResult!.IdToken! };
}

/** The hosted checkout page's form, posted as the browser posts it. */
function pay(url: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Ada Client', number: CARD_OK, expiry: '12 / 34', cvc: '123' }),
  });
}

/** Waits until GET /me shows at least `balance` credits (and the plan, when given); the milliseconds since `from`, or undefined if never. */
async function creditsShown(twin: TestTwin, client: Client, balance: number, from: number, plan?: string): Promise<number | undefined> {
  let at: number | undefined;
  await eventually(
    async () => {
      const now = await me(twin, client);
      if (at === undefined && now.balance >= balance) at = performance.now();
      return at !== undefined && (!plan || now.plan === plan);
    },
    { timeoutMs: VISIBLE_WITHIN_MS, maxIntervalMs: 50, what: `the credits of ${client.id} in GET /me` },
  ).catch(() => undefined);
  return at === undefined ? undefined : at - from;
}

/**
 * After the clock moved: each client's renewal timed to its credits in GET /me. The renewals
 * happen together, so a client's GET /me is asked only once our route has accepted a delivery of
 * its renewal's invoice.paid (or the delivery's retries are over), not 50 at a time from the start.
 */
async function renewalShown(twin: TestTwin, stripe: Stripe, client: Client, balance: number, from: { perf: number; epoch: number }): Promise<Measure> {
  const webhookUrl = `${twin.urls.api}/webhooks/stripe`;
  const [invoice] = (await stripe.invoices.list({ subscription: client.subscriptionId!, limit: 1 })).data;
  if (invoice?.billing_reason !== 'subscription_cycle') throw new Error(`the subscription ${client.subscriptionId} did not renew when the clock moved (its latest invoice: ${invoice?.billing_reason})`);
  const accepted = await eventually(
    async () => {
      const ours = (await twin.stripe.deliveries({ type: 'invoice.paid', objectId: invoice.id })).filter((d) => d.url === webhookUrl);
      const at = Math.min(...ours.flatMap((d) => d.attempts.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.at)));
      return Number.isFinite(at) ? { at } : ours.some((d) => d.status === 'failed') && { at: undefined };
    },
    { timeoutMs: VISIBLE_WITHIN_MS, maxIntervalMs: 50, what: `our route to accept the invoice.paid of ${invoice.id}` },
  ).catch(() => ({ at: undefined }));
  return {
    kind: 'renewals',
    ms: accepted.at === undefined ? undefined : await creditsShown(twin, client, balance, from.perf),
    acceptedMs: accepted.at === undefined ? undefined : accepted.at - from.epoch,
  };
}

/** Starts a checkout through our route and pays it on the hosted page; the session and when the page answered. */
async function checkoutAndPay(twin: TestTwin, client: Client, body: unknown): Promise<{ sessionId: string; paidAt: number }> {
  const started = await callApi(twin, client.token, 'POST', '/me/checkout-sessions', body);
  if (started.status !== 201) throw new Error(`POST /me/checkout-sessions ${JSON.stringify(body)} answered ${started.status}: ${JSON.stringify(started.json)}`);
  const paid = await pay(started.json.url);
  const paidAt = performance.now();
  if (paid.status !== 303) throw new Error(`the hosted checkout page answered ${paid.status} to card 4242: ${(await paid.text()).slice(0, 300)}`);
  return { sessionId: started.json.id, paidAt };
}

/** A client buys the plan, then a pack; each timed from its payment to its credits in GET /me. */
async function buyPlanThenPack(twin: TestTwin, stripe: Stripe, client: Client): Promise<{ measures: Measure[]; expected: number }> {
  const before = (await me(twin, client)).balance;
  const plan = await checkoutAndPay(twin, client, { kind: 'plan', plan: PLAN });
  const planMs = await creditsShown(twin, client, before + PLAN_CREDITS, plan.paidAt, PLAN);
  client.subscriptionId = (await stripe.checkout.sessions.retrieve(plan.sessionId)).subscription as string;
  const measures: Measure[] = [{ kind: 'plan checkouts', ms: planMs }];
  if (planMs === undefined) return { measures, expected: before + PLAN_CREDITS };
  const pack = await checkoutAndPay(twin, client, { kind: 'credits', pack: PACK, quantity: 1 });
  measures.push({ kind: 'credit packs', ms: await creditsShown(twin, client, before + PLAN_CREDITS + PACK, pack.paidAt) });
  return { measures, expected: before + PLAN_CREDITS + PACK };
}

/** Medians of a `GET /me` round trip and of a raw put to DynamoDB Local, one after another. */
async function measureBaseline(twin: TestTwin, client: Client, table: string): Promise<Baseline> {
  const doc = documentClient(twin);
  const getMe: number[] = [];
  const puts: number[] = [];
  for (let i = 0; i < BASELINE_SAMPLES; i++) {
    let t = performance.now();
    await me(twin, client);
    getMe.push(performance.now() - t);
    t = performance.now();
    await doc.send(new PutCommand({ TableName: table, Item: { id: `baseline-${i}`, at: Date.now() } }));
    puts.push(performance.now() - t);
  }
  return { getMeMs: percentile(getMe, 50), putMs: percentile(puts, 50) };
}

/** Waits until no delivery to our route is waiting for an attempt (each delivered, or its retries over). */
async function deliveriesSettled(twin: TestTwin, webhookUrl: string): Promise<void> {
  await eventually(async () => !(await twin.stripe.deliveries()).some((d) => d.url === webhookUrl && (d.status === 'pending' || d.status === 'held')), {
    timeoutMs: 60_000,
    what: 'every delivery to the webhook route made or given up',
  });
  await twin.idle();
}

/** Our route's answers between `from` and `to` (ms since the epoch), from the emulator's delivery records. */
async function answersBetween(twin: TestTwin, webhookUrl: string, from: number, to: number) {
  const ours = (await twin.stripe.deliveries()).filter((d) => d.url === webhookUrl && d.attempts.some((a) => a.at >= from && a.at <= to));
  const attempts = ours.flatMap((d) => d.attempts.filter((a) => a.at >= from && a.at <= to));
  return {
    deliveries: ours.length,
    answers: attempts.length,
    fiveHundreds: attempts.filter((a) => a.status >= 500).length,
    noAnswer: attempts.filter((a) => a.status === 0).length,
    failed: ours.filter((d) => d.status === 'failed').length,
  };
}

async function runPhase(
  twin: TestTwin,
  name: string,
  fault: StripeFault,
  baselineClient: Client,
  baselineTable: string,
  work: () => Promise<Array<{ client: Client; measures: Measure[]; expected: number }>>,
): Promise<Phase> {
  const webhookUrl = `${twin.urls.api}/webhooks/stripe`;
  await deliveriesSettled(twin, webhookUrl);
  const baseline = await measureBaseline(twin, baselineClient, baselineTable);
  await twin.stripe.inject(fault);
  const from = Date.now();
  const results = await work();
  await deliveriesSettled(twin, webhookUrl);
  const to = Date.now();
  await twin.stripe.clear();
  // Every account holds exactly what it paid for: nothing granted twice, nothing missing.
  const wrong: string[] = [];
  for (const r of results) {
    const { balance } = await me(twin, r.client);
    if (balance !== r.expected) wrong.push(`${r.client.id}: ${balance} credits, ${r.expected} expected`);
  }
  return {
    name,
    measures: results.flatMap((r) => r.measures),
    baseline,
    ...(await answersBetween(twin, webhookUrl, from, to)),
    exact: results.length - wrong.length,
    accounts: results.length,
    wrong,
  };
}

function report(phase: Phase): boolean {
  const label = phase.name.padEnd(16);
  const shown = phase.measures.filter((m) => m.ms !== undefined).map((m) => m.ms!);
  const missing = phase.measures.length - shown.length;
  console.log(
    `${label} webhook answers >= 500: ${count(phase.fiveHundreds)} of ${count(phase.answers)} answers (target 0; ${count(phase.deliveries)} deliveries, no answer ${phase.noAnswer}, failed after every retry ${phase.failed})`,
  );
  if (shown.length === 0) {
    console.log(`${label} payment -> credits in GET /me: never shown for any of ${phase.measures.length} payments`);
    return false;
  }
  const p50 = percentile(shown, 50);
  const p95 = percentile(shown, 95);
  console.log(
    `${label} payment -> credits in GET /me p50 ${seconds(p50)}, p95 ${seconds(p95)} (target p95 < ${seconds(TARGET_P95_MS)}; ${shown.length} payments${missing ? `, ${missing} never shown` : ''}; max ${seconds(Math.max(...shown))})`,
  );
  const kinds = [...new Set(phase.measures.map((m) => m.kind))];
  if (kinds.length > 1) {
    const byKind = kinds.map((k) => {
      const ms = phase.measures.filter((m) => m.kind === k && m.ms !== undefined).map((m) => m.ms!);
      return ms.length ? `${k} p50 ${seconds(percentile(ms, 50))}, p95 ${seconds(percentile(ms, 95))}` : `${k}: never shown`;
    });
    console.log(`${label}   ${byKind.join('; ')}`);
  }
  const accepted = phase.measures.filter((m) => m.acceptedMs !== undefined).map((m) => m.acceptedMs!);
  if (accepted.length) console.log(`${label}   of which to our route accepting the invoice.paid p50 ${seconds(percentile(accepted, 50))}, p95 ${seconds(percentile(accepted, 95))}`);
  const { getMeMs, putMs } = phase.baseline;
  console.log(
    `${label} ratio to a GET /me round trip (p50 ${millis(getMeMs)}): p50 ${ratio(p50, getMeMs)}, p95 ${ratio(p95, getMeMs)}; to a DynamoDB Local put (p50 ${millis(putMs)}): p50 ${ratio(p50, putMs)}, p95 ${ratio(p95, putMs)}`,
  );
  console.log(`${label} accounts holding exactly the credits paid for: ${phase.exact} of ${phase.accounts}`);
  for (const w of phase.wrong) console.log(`${label}   ${w}`);
  if (!QUICK && p95 >= TARGET_P95_MS) console.log(`${label} NOTE: p95 is over its ${seconds(TARGET_P95_MS)} target on this run`);
  return missing === 0 && phase.wrong.length === 0;
}

async function main(): Promise<void> {
  console.log(
    `Payments bench: ${PAYMENTS} plan checkouts (${planById(PLAN).name}, ${PLAN_CREDITS} credits) and ${PAYMENTS} packs of ${PACK} credits a phase, ${PAYMENTS} renewals; ` +
      `card 4242 on the twin's Stripe emulator, ${PAYERS} clients paying at a time${QUICK ? ' [quick]' : ''}`,
  );
  const twin = await benchTwin();
  let ok = true;
  try {
    const url = new URL(twin.urls.stripe);
    const stripe = new Stripe((await twin.stripe.config()).secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
    const baselineTable = `bench-baseline-${STAMP}`;
    await new DynamoDBClient({ endpoint: twin.urls.dynamodb, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } }).send(
      new CreateTableCommand({ TableName: baselineTable, AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], BillingMode: 'PAY_PER_REQUEST' }),
    );

    const [warm, ...clients] = await inParallel(
      Array.from({ length: 1 + 2 * PAYMENTS }, (_, n) => n),
      4,
      (n) => newClient(twin, n),
    );
    const atOnce = clients.slice(0, PAYMENTS);
    const reversed = clients.slice(PAYMENTS);
    // The warm-up's and the second phase's customers follow a test clock that is never moved
    // (money.ts's clockedCustomer): moving the emulator's own clock renews the first phase's alone.
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000), name: `bench-${STAMP}` });
    const payments = paymentsStore(documentClient(twin), twin.physicalName('PaymentsTable'));
    await inParallel([warm, ...reversed], 4, async (client) => {
      const customer = await stripe.customers.create({ email: client.email, name: 'Ada Client', test_clock: clock.id, metadata: { accountId: client.id } });
      await payments.linkCustomer(client.id, customer.id);
    });
    // The functions' first invocations (their init phase) would weigh on the first phase only.
    await buyPlanThenPack(twin, stripe, warm);

    const pay = (list: Client[]) => () => inParallel(list, PAYERS, async (client) => ({ client, ...(await buyPlanThenPack(twin, stripe, client)) }));
    const phases: Phase[] = [];
    phases.push(await runPhase(twin, 'at once', { kind: 'burst' }, warm, baselineTable, pay(atOnce)));
    phases.push(await runPhase(twin, 'twice, reversed', { kind: 'burst', copies: 2, order: 'reversed' }, warm, baselineTable, pay(reversed)));
    phases.push(
      await runPhase(twin, 'renewals', { kind: 'burst' }, warm, baselineTable, async () => {
        const renewing = atOnce.filter((c) => c.subscriptionId);
        const before = new Map(await Promise.all(renewing.map(async (c) => [c.id, (await me(twin, c)).balance] as const)));
        // A month and a day: every subscription of the emulator's own clock renews once, in one turn.
        await twin.stripe.advanceClock({ days: 32 });
        const movedAt = { perf: performance.now(), epoch: Date.now() };
        return Promise.all(
          renewing.map(async (client) => {
            const expected = before.get(client.id)! + PLAN_CREDITS;
            return { client, measures: [await renewalShown(twin, stripe, client, expected, movedAt)], expected };
          }),
        );
      }),
    );

    console.log('');
    for (const phase of phases) ok = report(phase) && ok;
  } finally {
    await twin.stop();
  }
  if (!ok) {
    console.error("some payment's credits never showed in GET /me, or an account holds other credits than it paid for");
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
