// Erasure of a paying client on the twin (docs/payments.md#erasure, decision 019): a client
// subscribes through the hosted checkout, an admin erases them, and the official `stripe` client
// finds their subscription canceled and their customer deleted at the emulator; our payment items
// keep the money without the person; advancing the clock past the renewal charges nothing, and
// every event about them (the cancellation, a late invoice, a refund) is answered 200, recorded
// and applied to nothing.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import type { ErasureResult } from '../../../events/erasure';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { documentClient, idToken, useTwin } from '../../support/twin';
import { JAN_15_2030, advance, checkoutAndPay, checkoutApplied, clockedCustomer, eventsAbout, monthAfter, newClient, postSigned, routeDeliveries, stores, stripeOf, webhookSecret } from './money';

jest.setTimeout(240_000);
const twin = useTwin();
const marker = fileMarker('erasepay');

async function erase(email: string) {
  const token = await idToken(twin(), twin().admin.email, twin().admin.password);
  const res = await fetch(`${twin().urls.api}/admin/erasures`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ email, confirm: email }),
  });
  return { status: res.status, json: (await res.json()) as ErasureResult };
}

/** Every item of the Payments table, whole. */
async function paymentItems(): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient(twin()).send(new ScanCommand({ TableName: twin().physicalName('PaymentsTable'), ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Stripe's answer for a deleted customer: `deleted: true`, or 404 (the emulator forgets it). */
const customerGone = (stripe: Stripe, id: string) =>
  stripe.customers.retrieve(id).then(
    (c) => (c as Stripe.DeletedCustomer).deleted === true,
    (err: { statusCode?: number }) => err.statusCode === 404,
  );

it('cancels the subscription and deletes the customer at Stripe, keeps the payments without the person, and later events charge and change nothing', async () => {
  const stripe = await stripeOf(twin());
  const client = await newClient(twin(), marker, 'subscriber');
  const { clock, customer } = await clockedCustomer(twin(), stripe, client, marker);
  await checkoutApplied(twin(), client, await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' }));
  const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
  expect(subscription.status).toBe('active');
  const [paid] = await stores(twin()).payments.paymentsOf(client.id);
  expect(paid).toMatchObject({ amountCents: 3500, receiptUrl: expect.any(String) });
  const firstPaid = (await eventsAbout(stripe, customer.id, 'invoice.paid'))[0];

  const erased = await erase(client.email);
  expect(erased.status).toBe(201);
  expect(erased.json.removed).toMatchObject({ subscriptionsCanceled: 1, stripeCustomersDeleted: 1, paymentsAnonymised: 1, accounts: 1 });

  // At Stripe: the subscription ended now, the customer (and its card) gone.
  expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'canceled' });
  expect(await customerGone(stripe, customer.id)).toBe(true);

  // Ours: the payment keeps its money and ids, not the person; the customer stays known as erased.
  const ours = () => paymentItems().then((items) => items.filter((i) => JSON.stringify(i).includes(client.id) || JSON.stringify(i).includes(customer.id)));
  const kept = await ours();
  for (const item of kept) {
    expect(JSON.stringify(item)).not.toContain(client.email);
    expect(JSON.stringify(item)).not.toContain('Ada Client');
  }
  const payment = kept.find((i) => i.pk === `PAYMENT#${paid.paymentIntentId}`)!;
  expect(payment).toMatchObject({ amountCents: 3500, invoiceId: paid.invoiceId, chargeId: paid.chargeId, at: paid.at, erasedAt: erased.json.erasedAt });
  expect(payment.receiptUrl).toBeUndefined();
  expect(kept.find((i) => i.pk === `CUSTOMER#${customer.id}`)).toMatchObject({ accountId: client.id, erased: true });
  expect(kept.find((i) => i.pk === `ACCOUNT#${client.id}` && i.sk === 'CUSTOMER')).toBeUndefined();
  expect(kept.find((i) => i.pk === `ACCOUNT#${client.id}` && i.sk === 'SUBSCRIPTION')).toMatchObject({ state: 'ended', status: 'canceled' });

  // The cancellation's own event: answered 200, recorded as expected.
  await eventually(
    async () => {
      const deliveries = (await routeDeliveries(twin(), subscription.id)).filter((d) => d.type === 'customer.subscription.deleted');
      return deliveries.length > 0 && deliveries.every((d) => d.status === 'delivered') && deliveries;
    },
    { what: 'the deletion of the subscription delivered to our route' },
  );
  expect((await ours()).find((i) => String(i.pk).startsWith('ERASED_EVENT#') && i.objectId === subscription.id)).toMatchObject({ object: 'subscription', expected: true });

  // Past the renewal: no invoice, no charge.
  await advance(stripe, clock, monthAfter(JAN_15_2030) + 3600);
  expect((await stripe.invoices.list({ subscription: subscription.id })).data.map((i) => i.id)).toEqual([paid.invoiceId]);
  expect((await eventsAbout(stripe, subscription.id, 'invoice.paid')).map((e) => (e.data.object as Stripe.Invoice).id)).toEqual([paid.invoiceId]);

  // A late delivery of the paid invoice (a new event id): 200, nothing granted or recorded again.
  const late = { ...firstPaid, id: `evt_late_${marker}` };
  expect(await postSigned(twin(), JSON.stringify(late), await webhookSecret(twin()))).toEqual({ status: 200, json: { received: true } });
  expect((await ours()).find((i) => String(i.pk).startsWith('ERASED_EVENT#') && i.objectId === paid.invoiceId)).toMatchObject({ object: 'invoice', expected: false });

  // A refund of the erased client's payment: 200, recorded with its event, the payment unchanged.
  await stripe.refunds.create({ payment_intent: paid.paymentIntentId, amount: 1000 });
  await eventually(
    async () => (await ours()).find((i) => String(i.pk).startsWith('ERASED_EVENT#') && i.objectId === paid.paymentIntentId),
    { what: 'the refund event recorded as about an erased client' },
  );
  expect((await ours()).find((i) => i.pk === `PAYMENT#${paid.paymentIntentId}`)).toMatchObject({ refundedCents: 0, creditsTakenBack: 0 });

  // Nothing granted to the erased account, and no delivery about them ever answered 5xx.
  expect((await stores(twin()).ledger.entries(client.id, { limit: 10 })).entries).toEqual([]);
  await twin().idle();
  const objects = [subscription.id, customer.id, paid.invoiceId!, paid.paymentIntentId, paid.chargeId!];
  const deliveries = (await Promise.all(objects.map((id) => routeDeliveries(twin(), id)))).flat();
  expect(deliveries.length).toBeGreaterThan(0);
  expect(deliveries.filter((d) => d.attempts.some((a) => a.status >= 500)).map((d) => `${d.type} ${d.eventId}: ${d.attempts.map((a) => a.status).join(',')}`)).toEqual([]);
});
