// Renewals on the twin (docs/payments.md#events): each test's customer follows a test clock of its
// own; advancing it renews the subscription at the emulator, whose signed events reach our route.
// A paid renewal grants the period's allowance once however often its event is sent; a failed one
// emails the client, keeps the plan through Stripe's retries and ends in Free, granting nothing.
import type Stripe from 'stripe';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, useTwin } from '../../support/twin';
import {
  CARD_FAILS_RENEWALS,
  DAY,
  JAN_15_2030,
  advance,
  checkoutAndPay,
  checkoutApplied,
  clockedCustomer,
  eventsAbout,
  monthAfter,
  newClient,
  postSigned,
  routeDeliveries,
  stores,
  stripeOf,
  webhookSecret,
  type TestClient,
} from './money';

jest.setTimeout(240_000);
const twin = useTwin();
const marker = fileMarker('renew');

let stripe: Stripe;
let secret: string;
beforeAll(async () => {
  stripe = await stripeOf(twin());
  secret = await webhookSecret(twin());
});

const balance = (client: TestClient) => stores(twin()).ledger.balance(client.id);
const billing = async (client: TestClient) => (await callApi(twin(), client.token, 'GET', '/me/billing')).json;
const emailsTo = async (client: TestClient) => (await twin().emails()).filter((m) => m.to.includes(client.email));
const grantsOf = async (client: TestClient) => (await stores(twin()).ledger.entries(client.id, { limit: 100 })).entries.filter((e) => e.kind === 'grant');

it('advancing the clock renews once, however often the renewal event is delivered or sent again', async () => {
  const client = await newClient(twin(), marker, 'renews');
  const { clock, customer } = await clockedCustomer(twin(), stripe, client, marker);
  await checkoutApplied(twin(), client, await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' }));
  expect(await balance(client)).toBe(90);

  // Every invoice.paid of this customer is delivered twice (same event, same id).
  await twin().stripe.inject({ kind: 'duplicate-delivery', times: 100, types: ['invoice.paid'], objectIncludes: customer.id });
  await advance(stripe, clock, monthAfter(JAN_15_2030) + 3600);
  const renewal = await eventually(
    async () => (await eventsAbout(stripe, customer.id, 'invoice.paid')).find((e) => (e.data.object as Stripe.Invoice).billing_reason === 'subscription_cycle'),
    { what: 'the renewal invoice.paid' },
  );
  const invoice = renewal.data.object as Stripe.Invoice;
  // Both deliveries answered 200, the second as a replay.
  await eventually(
    async () => {
      const ours = (await routeDeliveries(twin(), invoice.id!)).filter((d) => d.eventId === renewal.id);
      return ours.length === 2 && ours.every((d) => d.status === 'delivered') && ours;
    },
    { what: `both deliveries of ${renewal.id} to our route` },
  );
  expect(await balance(client)).toBe(170);
  // Sent again by hand, signed again: a replay.
  expect(await postSigned(twin(), JSON.stringify(renewal, null, 2), secret)).toEqual({ status: 200, json: { received: true, replayed: true } });
  expect(await balance(client)).toBe(170);

  const grants = (await grantsOf(client)).filter((e) => e.credits === 80);
  expect(grants).toHaveLength(2);
  // The renewed period's credits expire at the end of the period after it.
  const lot = (await stores(twin()).ledger.lots(client.id)).find((l) => l.source === `invoice:${invoice.id}`);
  expect(lot).toMatchObject({ credits: 80, kind: 'paid', valueMicros: 437_500, expiresAt: '2030-04-15T12:00:00.000Z' });
  expect((await billing(client)).subscription).toMatchObject({ state: 'active', currentPeriodEnd: '2030-03-15T12:00:00.000Z' });
  const payments = await stores(twin()).payments.paymentsOf(client.id);
  expect(payments.map((p) => [p.invoiceId, p.amountCents, p.credits])).toEqual(
    expect.arrayContaining([
      [invoice.id, 3500, 80],
      [expect.any(String), 3500, 80],
    ]),
  );
  expect(payments).toHaveLength(2);
});

it('a failed renewal emails the client, keeps the plan through the retries, then ends in Free and grants nothing for the unpaid period', async () => {
  const client = await newClient(twin(), marker, 'fails');
  const { clock } = await clockedCustomer(twin(), stripe, client, marker);
  await checkoutApplied(twin(), client, await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' }, CARD_FAILS_RENEWALS));
  expect(await balance(client)).toBe(90);
  const renewal = monthAfter(JAN_15_2030);

  // The renewal's first attempt fails: past due, still Starter, an email with the portal link.
  await advance(stripe, clock, renewal + 3600);
  const failed = await eventually(
    async () => {
      const mails = (await emailsTo(client)).filter((m) => m.subject === 'Your Humanly payment did not go through');
      return mails.length === 1 && mails;
    },
    { what: 'the payment failed email' },
  );
  expect(failed[0].text).toContain(`${twin().urls.web.replace(/\/$/, '')}/client-portal?billing=portal`);
  expect(failed[0].text).toContain('We could not take the $35 payment for your Starter plan.');
  expect(failed[0].text).toContain('February 18, 2030');
  await eventually(async () => (await billing(client)).subscription?.state === 'past_due', { what: 'the subscription past due' });
  expect(await billing(client)).toMatchObject({ plan: 'starter', subscription: { state: 'past_due' } });

  // The second attempt, three days later, fails too: a second email; the plan stays.
  await advance(stripe, clock, renewal + 3 * DAY + 7200);
  await eventually(async () => (await emailsTo(client)).filter((m) => m.subject === 'Your Humanly payment did not go through').length === 2, { what: 'a second payment failed email' });
  expect((await billing(client)).plan).toBe('starter');

  // The last retry fails: the subscription ends, the account is Free, one "plan ended" email.
  await advance(stripe, clock, renewal + 16 * DAY);
  await eventually(async () => (await billing(client)).plan === 'free', { what: 'the account on Free' });
  expect(await billing(client)).toMatchObject({ plan: 'free', subscription: { state: 'ended' }, hasBillingAccount: true });
  const ended = await eventually(
    async () => {
      const mails = (await emailsTo(client)).filter((m) => m.subject === 'Your Humanly Starter plan has ended');
      return mails.length === 1 && mails;
    },
    { what: 'the plan ended email' },
  );
  expect(ended[0].text).toContain('your account is on the Free plan now');
  // Nothing granted for the unpaid period: still the first period's 80 and the 10.
  expect(await balance(client)).toBe(90);
  expect((await grantsOf(client)).map((g) => g.credits).sort()).toEqual([10, 80]);
  expect((await emailsTo(client)).filter((m) => m.subject === 'Your Humanly payment did not go through').length).toBeGreaterThanOrEqual(3);
  expect((await emailsTo(client)).filter((m) => m.subject === 'Your Humanly Starter plan has ended')).toHaveLength(1);
});
