// The events of one payment at once on the twin (docs/payments.md#concurrency): the emulator posts
// a checkout's, a renewal's or a refund's events together, as Stripe does, and they read and
// write the same profile, ledger balance, payment and email records. Every delivery must be
// applied at its first attempt (a 2xx the first time), never answered 5xx and left for Stripe's
// retry a minute or more later.
import type Stripe from 'stripe';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, useTwin } from '../../support/twin';
import { JAN_15_2030, advance, checkoutAndPay, checkoutApplied, clockedCustomer, eventsAbout, monthAfter, newClient, stores, stripeOf, type TestClient } from './money';

jest.setTimeout(240_000);
const twin = useTwin();
const marker = fileMarker('race');

let stripe: Stripe;
beforeAll(async () => {
  stripe = await stripeOf(twin());
});

const balance = (client: TestClient) => stores(twin()).ledger.balance(client.id);
const ROUTE = () => `${twin().urls.api}/webhooks/stripe`;

/** Every delivery to our route of the events about `customerId` once they have all been made, by event. */
async function deliveriesOf(customerId: string, atLeast: number) {
  return eventually(
    async () => {
      const events = await eventsAbout(stripe, customerId);
      const ids = new Set(events.map((e) => e.id));
      const objects = [...new Set(events.map((e) => (e.data.object as { id: string }).id))];
      const all = (await Promise.all(objects.map((objectId) => twin().stripe.deliveries({ objectId })))).flat();
      const ours = all.filter((d) => d.url === ROUTE() && ids.has(d.eventId));
      const settled = ours.length >= atLeast && ours.every((d) => d.status === 'delivered' || d.status === 'failed' || d.attempts.some((a) => a.status >= 500));
      return settled && ours;
    },
    { what: `at least ${atLeast} deliveries about ${customerId} made`, timeoutMs: 60_000 },
  );
}

/** The deliveries that were not applied the first time they were made: answered 5xx or not at all. */
const notAppliedAtFirst = (deliveries: Awaited<ReturnType<typeof deliveriesOf>>) =>
  deliveries.filter((d) => !(d.attempts[0] && d.attempts[0].status >= 200 && d.attempts[0].status < 300)).map((d) => `${d.type} ${d.eventId}: ${d.attempts.map((a) => a.status).join(', ')}`);

it("a plan checkout's events, delivered at once, are each applied at their first delivery", async () => {
  const client = await newClient(twin(), marker, 'plan');
  const { customer } = await clockedCustomer(twin(), stripe, client, marker);
  const sessionId = await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' });
  await checkoutApplied(twin(), client, sessionId);
  // checkout.session.completed, customer.subscription.created and .updated, invoice.paid at least.
  const deliveries = await deliveriesOf(customer.id, 4);
  expect(notAppliedAtFirst(deliveries)).toEqual([]);
  expect(await balance(client)).toBe(90);
  expect((await callApi(twin(), client.token, 'GET', '/me/billing')).json).toMatchObject({ plan: 'starter', subscription: { state: 'active' } });
  // The email of a plan going live, once, however many of its events raced to send it.
  await eventually(async () => (await twin().emails()).filter((m) => m.to.includes(client.email) && /plan is active/i.test(m.subject)).length === 1, { what: 'the plan-active email' });
  expect((await twin().emails()).filter((m) => m.to.includes(client.email) && /plan is active/i.test(m.subject))).toHaveLength(1);
});

it('a plan checkout whose every event is delivered twice at once is applied once, every delivery at its first attempt', async () => {
  const client = await newClient(twin(), marker, 'twice');
  const { customer } = await clockedCustomer(twin(), stripe, client, marker);
  await twin().stripe.inject({ kind: 'duplicate-delivery', times: 50, objectIncludes: customer.id });
  const sessionId = await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'pro' });
  await checkoutApplied(twin(), client, sessionId);
  const deliveries = await deliveriesOf(customer.id, 8);
  expect(deliveries.some((d) => d.duplicate)).toBe(true);
  expect(notAppliedAtFirst(deliveries)).toEqual([]);
  expect(await balance(client)).toBe(10 + 300);
  const grants = (await stores(twin()).ledger.entries(client.id, { limit: 20 })).entries.filter((e) => e.kind === 'grant' && e.reason === 'Pro plan credits');
  expect(grants).toHaveLength(1);
});

it("a credit pack's events and a renewal's events at once are applied at their first delivery", async () => {
  const client = await newClient(twin(), marker, 'renew');
  const { clock, customer } = await clockedCustomer(twin(), stripe, client, marker);
  await checkoutApplied(twin(), client, await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' }));
  await checkoutApplied(twin(), client, await checkoutAndPay(twin(), client, { kind: 'credits', pack: 50, quantity: 1 }));
  expect(await balance(client)).toBe(10 + 80 + 50);
  await advance(stripe, clock, monthAfter(JAN_15_2030) + 3600);
  await eventually(async () => (await balance(client)) === 10 + 80 + 50 + 80, { what: 'the renewal credits' });
  const deliveries = await deliveriesOf(customer.id, 8);
  expect(notAppliedAtFirst(deliveries)).toEqual([]);
});

it('two partial refunds of one purchase at once are both applied at their first delivery, each taking back its share once', async () => {
  const client = await newClient(twin(), marker, 'refunds');
  const { customer } = await clockedCustomer(twin(), stripe, client, marker);
  await checkoutApplied(twin(), client, await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' }));
  const sessionId = await checkoutAndPay(twin(), client, { kind: 'credits', pack: 50, quantity: 1 });
  await checkoutApplied(twin(), client, sessionId);
  const paymentIntent = (await stripe.checkout.sessions.retrieve(sessionId)).payment_intent as string;
  const amount = (await stripe.paymentIntents.retrieve(paymentIntent)).amount;
  // Two refunds of a quarter each, made together: their charge.refunded events arrive together.
  await Promise.all([stripe.refunds.create({ payment_intent: paymentIntent, amount: amount / 4 }), stripe.refunds.create({ payment_intent: paymentIntent, amount: amount / 4 })]);
  await eventually(async () => (await balance(client)) === 10 + 80 + 25, { what: 'half of the pack taken back' });
  const deliveries = await deliveriesOf(customer.id, 6);
  expect(deliveries.filter((d) => d.type === 'charge.refunded')).toHaveLength(2);
  expect(notAppliedAtFirst(deliveries)).toEqual([]);
});
