// Upgrades priced right on the twin (docs/payments.md#allowances): a plan switched up within a
// period is charged Stripe's proration at once, and grants as many of the new plan's credits as
// that charge collected pays for at the new plan's rate; a charge Stripe does not collect (under
// its minimum) grants none, so switching up an hour before the renewal and back down buys nothing.
import type Stripe from 'stripe';
import { planById } from '../../../events/plans';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, useTwin } from '../../support/twin';
import { JAN_15_2030, advance, checkoutAndPay, checkoutApplied, clockedCustomer, monthAfter, newClient, stores, stripeOf, type TestClient } from './money';

jest.setTimeout(240_000);
const twin = useTwin();
const marker = fileMarker('upgr');

let stripe: Stripe;
beforeAll(async () => {
  stripe = await stripeOf(twin());
});

const balance = (client: TestClient) => stores(twin()).ledger.balance(client.id);
const grants = async (client: TestClient) => (await stores(twin()).ledger.entries(client.id, { limit: 50 })).entries.filter((e) => e.kind === 'grant');

/** A Starter subscriber on a test clock, its subscription and the clock. */
async function starterSubscriber(who: string) {
  const client = await newClient(twin(), marker, who);
  const { clock } = await clockedCustomer(twin(), stripe, client, marker);
  await checkoutApplied(twin(), client, await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' }));
  const subId = (await stores(twin()).payments.subscriptionOf(client.id))!.subscriptionId;
  return { client, clock, sub: await stripe.subscriptions.retrieve(subId) };
}

/** Switches the plan as the billing portal does: at once, the proration invoiced now. */
async function switchTo(sub: Stripe.Subscription, plan: 'pro' | 'enterprise') {
  await stripe.subscriptions.update(sub.id, { items: [{ id: sub.items.data[0].id, price: `price_humanly_${plan}_monthly` }], proration_behavior: 'always_invoice' });
  return eventually(async () => (await stripe.invoices.list({ subscription: sub.id, status: 'paid' })).data.find((i) => i.billing_reason === 'subscription_update'), {
    what: 'the upgrade invoice paid',
  });
}

it('Starter to Enterprise an hour before the renewal: charged cents, not collected, no credits granted; the plan is Enterprise', async () => {
  const { client, clock, sub } = await starterSubscriber('late');
  await advance(stripe, clock, monthAfter(JAN_15_2030) - 3600);
  const invoice = await switchTo(sub, 'enterprise');
  // An hour of Enterprise less an hour of Starter: under Stripe's 50-cent minimum, so nothing is collected.
  expect(invoice.amount_due).toBeGreaterThan(0);
  expect(invoice.amount_due).toBeLessThan(50);
  expect(invoice.amount_paid).toBe(0);
  await eventually(async () => (await callApi(twin(), client.token, 'GET', '/me/billing')).json.plan === 'enterprise', { what: 'the account on Enterprise' });
  // The upgrade's events have all been applied (the invoice's delivery answered) before counting.
  await eventually(async () => (await twin().stripe.deliveries({ objectId: invoice.id! })).filter((d) => d.type === 'invoice.paid').every((d) => d.status === 'delivered') || undefined, {
    what: 'the upgrade invoice delivered',
  });
  expect((await grants(client)).map((g) => g.reason)).not.toContain('Enterprise plan upgrade credits');
  expect(await balance(client)).toBe(10 + 80);
});

it('Starter to Enterprise with half the period left: the credits the prorated charge buys at Enterprise\'s rate, within the 820 the period lacks', async () => {
  const { client, clock, sub } = await starterSubscriber('half');
  const periodEnd = sub.items.data[0].current_period_end;
  const periodStart = sub.items.data[0].current_period_start;
  await advance(stripe, clock, periodStart + Math.floor((periodEnd - periodStart) / 2));
  const invoice = await switchTo(sub, 'enterprise');
  const enterprise = planById('enterprise');
  const paidFor = Math.floor((invoice.amount_paid * enterprise.monthlyCredits) / enterprise.monthlyPriceCents);
  expect(invoice.amount_paid).toBeGreaterThan(10_000);
  expect(paidFor).toBeLessThan(820);
  await eventually(async () => (await balance(client)) === 10 + 80 + paidFor, { what: 'the upgrade credits' });
  const upgrade = (await grants(client)).find((g) => g.reason === 'Enterprise plan upgrade credits');
  expect(upgrade).toMatchObject({ credits: paidFor });
  // Each is worth what was paid for it: Enterprise's rate, rounded down.
  const lots = await stores(twin()).ledger.lots(client.id);
  expect(lots.find((l) => l.source === `invoice:${invoice.id}`)).toMatchObject({ kind: 'paid', valueMicros: Math.floor((invoice.amount_paid * 10_000) / paidFor) });
});
