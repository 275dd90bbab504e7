// What the payment tests share on the twin: a client account with its token, the official `stripe`
// client on the emulator, customers that follow a test clock, the hosted checkout page paid as a
// browser pays it, and events signed as Stripe signs them (for replays and forgeries).
//
// A test customer follows a test clock only when it is created with one, and our checkout route
// creates the account's customer itself; so a test creates the clocked customer first and writes
// the account's customer mapping through the payments store, which the route then uses.
import { createHmac } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { accountStore } from '../../../functions/accounts/store';
import { creditLedger } from '../../../functions/accounts/credits';
import { paymentsStore } from '../../../functions/payments/store';
import { seedUser } from '../../../infra/local/provision';
import { eventually } from '../../support/eventually';
import { callApi, documentClient, idToken, type TestTwin } from '../../support/twin';

const PASSWORD = 'Str0ng!Passw0rd-pay';
const CARD_OK = '4242 4242 4242 4242';
/** Pays at checkout, fails every charge made without the customer (renewals and their retries). */
export const CARD_FAILS_RENEWALS = '4000 0000 0000 0341';
export const DAY = 86_400;
/** A time far from month ends, so one month later is the same day of the next month. */
export const JAN_15_2030 = Date.UTC(2030, 0, 15, 12) / 1000;
export const monthAfter = (t: number, months = 1) => {
  const d = new Date(t * 1000);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime() / 1000;
};

export function stores(twin: TestTwin) {
  const doc = documentClient(twin);
  const accountsTable = twin.physicalName('AccountsTable');
  return {
    payments: paymentsStore(doc, twin.physicalName('PaymentsTable')),
    accounts: accountStore(doc, accountsTable),
    ledger: creditLedger(doc, accountsTable),
  };
}

/** The official client on the twin's emulator, with the secret key the functions use. */
export async function stripeOf(twin: TestTwin): Promise<Stripe> {
  const { secretKey } = await twin.stripe.config();
  const url = new URL(twin.urls.stripe);
  return new Stripe(secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
}

export interface TestClient {
  id: string;
  email: string;
  token: string;
}

/** A client of the pool and its account (Free, 10 credits), signed in on the site's app client. */
export async function newClient(twin: TestTwin, marker: string, who: string): Promise<TestClient> {
  const email = `${who}.${marker}@people.example`;
  const user = await seedUser(twin.urls.cognito, twin.userPoolId, { email, password: PASSWORD, groups: ['client'], name: 'Ada Client', attributes: { 'custom:role': 'client' } });
  await stores(twin).accounts.create({ id: user.sub!, email, full_name: 'Ada Client', role: 'client' });
  return { id: user.sub!, email, token: await idToken(twin, email, PASSWORD, 'web') };
}

/**
 * A test clock at `frozen` and the client's Stripe customer on it, mapped to the account through
 * the payments store (as the checkout route would have mapped the customer it creates).
 */
export async function clockedCustomer(twin: TestTwin, stripe: Stripe, client: TestClient, marker: string, frozen = JAN_15_2030) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: frozen, name: `${marker}-${client.id}` });
  const customer = await stripe.customers.create({ email: client.email, name: 'Ada Client', test_clock: clock.id, metadata: { accountId: client.id } });
  expect(await stores(twin).payments.linkCustomer(client.id, customer.id)).toBe(customer.id);
  return { clock, customer };
}

/** The hosted checkout page's form, posted as the browser posts it. */
export function pay(url: string, number: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Ada Client', number, expiry: '12 / 34', cvc: '123' }),
  });
}

/** Starts a checkout through our route and pays it on the emulator's page; answers the session id. */
export async function checkoutAndPay(twin: TestTwin, client: TestClient, body: unknown, card = CARD_OK): Promise<string> {
  const started = await callApi(twin, client.token, 'POST', '/me/checkout-sessions', body);
  expect(started.status).toBe(201);
  const paid = await pay(started.json.url, card);
  expect(paid.status).toBe(303);
  return started.json.id as string;
}

/** Advances a test clock and waits until it is ready again. */
export async function advance(stripe: Stripe, clock: Stripe.TestHelpers.TestClock, to: number) {
  await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: to });
  return eventually(
    async () => {
      const c = await stripe.testHelpers.testClocks.retrieve(clock.id);
      return c.status === 'ready' && c;
    },
    { what: `test clock ${clock.id} to be ready`, timeoutMs: 30_000 },
  );
}

/** Waits until the checkout's verified event has been applied (the portal's `applied`). */
export function checkoutApplied(twin: TestTwin, client: TestClient, sessionId: string) {
  return eventually(
    async () => {
      const status = await callApi(twin, client.token, 'GET', `/me/checkout-sessions/${sessionId}`);
      return status.json?.state === 'applied' && status.json;
    },
    { what: `checkout ${sessionId} to be applied`, timeoutMs: 30_000 },
  );
}

/** The signing secret of our webhook route, as the twin's Secrets Manager holds it for the function. */
export async function webhookSecret(twin: TestTwin): Promise<string> {
  const sm = new SecretsManagerClient({
    endpoint: twin.sdkEnv.AWS_ENDPOINT_URL_SECRETS_MANAGER,
    region: twin.sdkEnv.AWS_REGION,
    credentials: { accessKeyId: twin.sdkEnv.AWS_ACCESS_KEY_ID, secretAccessKey: twin.sdkEnv.AWS_SECRET_ACCESS_KEY },
  });
  return (await sm.send(new GetSecretValueCommand({ SecretId: twin.physicalName('StripeWebhookSecret') }))).SecretString!;
}

/** Posts `payload` to our webhook route signed with `secret` as Stripe signs (`t=<unix>,v1=<HMAC-SHA256 of "t.payload">`). */
export async function postSigned(twin: TestTwin, payload: string, secret: string): Promise<{ status: number; json: unknown }> {
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
  const res = await fetch(`${twin.urls.api}/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': `t=${t},v1=${v1}` },
    body: payload,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

/** Every event of the emulator about an object (its id anywhere in the event's object), oldest first. */
export async function eventsAbout(stripe: Stripe, id: string, type?: string): Promise<Stripe.Event[]> {
  const out: Stripe.Event[] = [];
  let scanned = 0;
  // Newest first; a test's events are among the latest of the shared emulator.
  for await (const e of stripe.events.list({ limit: 100, ...(type ? { type } : {}) })) {
    if (JSON.stringify(e.data.object).includes(id)) out.push(e);
    if (++scanned >= 5000) break;
  }
  return out.reverse();
}

/** Our webhook route's deliveries of an object's events (the emulator's log), by the route's address. */
export async function routeDeliveries(twin: TestTwin, objectId: string) {
  return (await twin.stripe.deliveries({ objectId })).filter((d) => d.url === `${twin.urls.api}/webhooks/stripe`);
}
