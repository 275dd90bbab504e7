// Events in any order on the twin (docs/payments.md#ordering): the emulator holds a customer's
// deliveries and sends them newest first; each event reads the object's current state from Stripe,
// so the account ends where Stripe is. Plan switches: an upgrade grants the new plan's allowance
// less what the period already gave, at most what its prorated charge pays for; cancelling at the
// period's end ends in Free.
import type Stripe from 'stripe';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, useTwin } from '../../support/twin';
import { JAN_15_2030, advance, checkoutAndPay, checkoutApplied, clockedCustomer, monthAfter, newClient, routeDeliveries, stores, stripeOf, type TestClient } from './money';

jest.setTimeout(240_000);
const twin = useTwin();
const marker = fileMarker('order');

let stripe: Stripe;
beforeAll(async () => {
  stripe = await stripeOf(twin());
});

const balance = (client: TestClient) => stores(twin()).ledger.balance(client.id);
const billing = async (client: TestClient) => (await callApi(twin(), client.token, 'GET', '/me/billing')).json;
const OUR_EVENTS = ['checkout.session.completed', 'customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted', 'invoice.paid'];

it('a checkout whose events arrive newest first ends Starter with its 80 credits, applied once', async () => {
  const client = await newClient(twin(), marker, 'reversed');
  const { customer } = await clockedCustomer(twin(), stripe, client, marker);
  // The checkout's first three events (subscription created, invoice paid, subscription active) are held, then sent newest first.
  await twin().stripe.inject({ kind: 'out-of-order', times: 3, types: OUR_EVENTS, objectIncludes: customer.id });
  const sessionId = await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' });
  await checkoutApplied(twin(), client, sessionId);
  const sub = (await stripe.checkout.sessions.retrieve(sessionId)).subscription as string;
  await eventually(
    async () => {
      const ours = [...(await routeDeliveries(twin(), sessionId)), ...(await routeDeliveries(twin(), sub))];
      return ours.length >= 2 && ours.every((d) => d.status === 'delivered') && ours;
    },
    { what: 'the held deliveries made' },
  );
  expect(await balance(client)).toBe(90);
  expect(await billing(client)).toMatchObject({ plan: 'starter', subscription: { id: sub, plan: 'starter', state: 'active' } });
});

it('an upgrade grants what its prorated charge pays for, within the new plan less what the period gave; cancelling at the period end, with its events reversed, ends in Free', async () => {
  const client = await newClient(twin(), marker, 'switches');
  const { clock, customer } = await clockedCustomer(twin(), stripe, client, marker);
  await checkoutApplied(twin(), client, await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' }));
  expect(await balance(client)).toBe(90);
  const subId = (await stores(twin()).payments.subscriptionOf(client.id))!.subscriptionId;
  const sub = await stripe.subscriptions.retrieve(subId);

  // Upgrade to Pro mid-period, invoiced at once with proration (as the billing portal does).
  await advance(stripe, clock, JAN_15_2030 + 10 * 86_400);
  await stripe.subscriptions.update(subId, { items: [{ id: sub.items.data[0].id, price: 'price_humanly_pro_monthly' }], proration_behavior: 'always_invoice' });
  // 21 of the period's 31 days left: Pro's remaining time less Starter's unused time, and as many credits as that buys at Pro's rate.
  const upgradeInvoice = await eventually(
    async () => (await stripe.invoices.list({ subscription: subId, status: 'paid' })).data.find((i) => i.billing_reason === 'subscription_update'),
    { what: 'the upgrade invoice paid' },
  );
  expect(upgradeInvoice.amount_paid).toBe(Math.round((10_900 * 21) / 31) - Math.round((3_500 * 21) / 31));
  const upgradeCredits = Math.floor((upgradeInvoice.amount_paid * 300) / 10_900);
  expect(upgradeCredits).toBeLessThan(220);
  await eventually(async () => (await balance(client)) === 10 + 80 + upgradeCredits, { what: 'the upgrade credits, in proportion to what was paid' });
  expect(await billing(client)).toMatchObject({ plan: 'pro', subscription: { plan: 'pro', state: 'active' } });
  const upgrade = (await stores(twin()).ledger.entries(client.id, { limit: 20 })).entries.find((e) => e.reason === 'Pro plan upgrade credits');
  expect(upgrade).toMatchObject({ kind: 'grant', credits: upgradeCredits });

  // Cancel at the period's end; the update and the deletion at the period's end arrive reversed.
  await twin().stripe.inject({ kind: 'out-of-order', times: 2, types: ['customer.subscription.updated', 'customer.subscription.deleted'], objectIncludes: customer.id });
  await stripe.subscriptions.update(subId, { cancel_at_period_end: true });
  await advance(stripe, clock, monthAfter(JAN_15_2030) + 3600);
  await eventually(async () => (await billing(client)).plan === 'free', { what: 'the account on Free' });
  expect(await billing(client)).toMatchObject({ plan: 'free', subscription: { id: subId, state: 'ended' } });
  // Nothing was renewed: the credits granted stay (until they expire).
  expect(await balance(client)).toBe(10 + 80 + upgradeCredits);
});
