import * as http from 'node:http';
import Stripe from 'stripe';
import { PLANS } from '../../../events/plans';
import { creditPriceId, planCatalog, planPriceId, startStripe, type StripeEmulator } from '../../../infra/local/emulators/stripe';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { useTwin } from '../../support/twin';

jest.setTimeout(60_000);

/** A webhook endpoint of the test's own: keeps each request's raw body and signature; answers with `status()`. */
async function receiver(status: () => number = () => 200) {
  const received: Array<{ signature: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ signature: String(req.headers['stripe-signature']), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/stripe`,
    received,
    /** Every delivery, verified as the product verifies it (throws on a bad signature). */
    events: (secret: string) => received.map((r) => Stripe.webhooks.constructEvent(r.body, r.signature, secret)),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}
type Receiver = Awaited<ReturnType<typeof receiver>>;

/** The official client, pointed at an emulator. */
function client(endpoint: string, key: string, config: Stripe.StripeConfig = {}): Stripe {
  const url = new URL(endpoint);
  return new Stripe(key, { host: url.hostname, port: Number(url.port), protocol: 'http', ...config });
}

/** The hosted checkout page's form, posted as the browser posts it. */
function pay(url: string, number: string, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Ada Client', number, expiry: '12 / 34', cvc: '123', ...extra }),
  });
}

/** A form of a hosted portal page. */
const portalPost = (url: string, action: string, form: Record<string, string> = {}) =>
  fetch(`${url}/${action}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

const plan = (id: string) => PLANS.find((p) => p.id === id)!;
const objectOf = (e: Stripe.Event) => e.data.object as unknown as { id: string; object: string; [k: string]: unknown };
/** A date far from month ends, so one month later is the same day of the next month. */
const JAN_15_2030 = Date.UTC(2030, 0, 15, 12) / 1000;
const monthAfter = (t: number, months = 1) => {
  const d = new Date(t * 1000);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime() / 1000;
};
const DAY = 86_400;

describe('Stripe emulator on the shared twin, through the official client', () => {
  const twin = useTwin();
  const marker = fileMarker('stripe');
  let stripe: Stripe;
  let hooks: Receiver;
  let endpoint: Stripe.WebhookEndpoint;
  /** Verified events about one object (by id anywhere in it), in order of arrival. */
  const eventsAbout = (id: string) => hooks.events(endpoint.secret!).filter((e) => JSON.stringify(e.data.object).includes(id));
  const waitFor = (id: string, type: string, test: (e: Stripe.Event) => boolean = () => true) =>
    eventually(() => eventsAbout(id).find((e) => e.type === type && test(e)), { what: `${type} about ${id}`, timeoutMs: 10_000 });

  beforeAll(async () => {
    const config = await twin().stripe.config();
    stripe = client(twin().urls.stripe, config.secretKey);
    hooks = await receiver();
    endpoint = await stripe.webhookEndpoints.create({ url: hooks.url, enabled_events: ['*'], description: marker });
  });
  afterAll(async () => {
    if (endpoint) await stripe.webhookEndpoints.del(endpoint.id);
    await hooks?.close();
  });

  /** A test clock at `frozen` and a customer on it (each test its own, so advancing one moves nobody else). */
  async function clockedCustomer(name: string, frozen = JAN_15_2030) {
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: frozen, name: `${marker}-${name}` });
    const customer = await stripe.customers.create({ email: `${marker}-${name}@example.com`, name: 'Ada Client', test_clock: clock.id, metadata: { account: `${marker}-${name}` } });
    return { clock, customer };
  }

  /** Subscribes the customer to a plan through Checkout and its hosted page. */
  async function subscribe(customer: Stripe.Customer, planId: string, card = '4242 4242 4242 4242') {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: customer.metadata.account,
      metadata: { account: customer.metadata.account },
      subscription_data: { metadata: { account: customer.metadata.account } },
      line_items: [{ price: planPriceId(planId), quantity: 1 }],
      success_url: 'http://127.0.0.1:4000/portal?checkout={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1:4000/pricing',
    });
    const paid = await pay(session.url!, card);
    expect(paid.status).toBe(303);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    return { session: done, subscription: done.subscription as Stripe.Subscription };
  }

  /** Advances a test clock and waits until it is ready again, as a Stripe integration does. */
  async function advance(clock: Stripe.TestHelpers.TestClock, to: number) {
    const advancing = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: to });
    expect(advancing.status).toBe('advancing');
    return eventually(
      async () => {
        const c = await stripe.testHelpers.testClocks.retrieve(clock.id);
        return c.status === 'ready' && c;
      },
      { what: `test clock ${clock.id} to be ready` },
    );
  }

  it('serves the plans of events/plans.ts as products and prices, with fixed ids and lookup keys', async () => {
    expect(twin().urls.stripe).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const p of PLANS.filter((x) => x.monthlyPriceCents > 0)) {
      const monthly = await stripe.prices.retrieve(planPriceId(p.id), { expand: ['product'] });
      expect(monthly).toMatchObject({ unit_amount: p.monthlyPriceCents, currency: 'usd', type: 'recurring', recurring: { interval: 'month', interval_count: 1 }, lookup_key: `humanly_${p.id}_monthly`, livemode: false });
      expect((monthly.product as Stripe.Product).name).toBe(`Humanly ${p.name}`);
      const credit = await stripe.prices.retrieve(creditPriceId(p.id));
      expect(credit).toMatchObject({ unit_amount: p.extraCreditCents, type: 'one_time', recurring: null });
    }
    // The Free plan is sold by nobody.
    await expect(stripe.prices.retrieve(planPriceId('free'))).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing' });
    const byKey = await stripe.prices.list({ lookup_keys: ['humanly_pro_monthly', 'humanly_pro_credit'] });
    expect(byKey.data.map((p) => p.id).sort()).toEqual([creditPriceId('pro'), planPriceId('pro')].sort());
  });

  it('checkout in subscription mode: the hosted page takes 4242, the session completes, the subscription and its paid invoice exist, and every event is signed as Stripe signs it', async () => {
    const { customer } = await clockedCustomer('sub');
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: 'account-7',
      metadata: { account: 'account-7', marker },
      line_items: [{ price: planPriceId('starter'), quantity: 1 }],
      success_url: 'http://127.0.0.1:4000/portal?checkout={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1:4000/pricing',
    });
    expect(session).toMatchObject({ object: 'checkout.session', status: 'open', payment_status: 'unpaid', mode: 'subscription', amount_total: plan('starter').monthlyPriceCents, subscription: null });
    expect(session.url).toBe(`${twin().urls.stripe}/c/pay/${session.id}`);

    const page = await fetch(session.url!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<label for="number">Card number</label>');
    expect(html).toContain('<label for="expiry">');
    expect(html).toContain('<label for="cvc">CVC</label>');
    expect(html).toContain('$35.00');
    expect(html).toContain('name="viewport"');

    const paid = await pay(session.url!, '4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://127.0.0.1:4000/portal?checkout=${session.id}`);

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription', 'invoice', 'line_items'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', customer: customer.id, client_reference_id: 'account-7' });
    expect(done.line_items!.data).toEqual([expect.objectContaining({ quantity: 1, amount_total: 3500, price: expect.objectContaining({ id: planPriceId('starter') }) })]);
    const sub = done.subscription as Stripe.Subscription;
    expect(sub).toMatchObject({ status: 'active', customer: customer.id, cancel_at_period_end: false, test_clock: expect.any(String) });
    expect(sub.items.data[0]).toMatchObject({ price: { id: planPriceId('starter') }, current_period_start: JAN_15_2030, current_period_end: monthAfter(JAN_15_2030) });
    const invoice = done.invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: 'paid', billing_reason: 'subscription_create', amount_paid: 3500, amount_remaining: 0, customer: customer.id });
    expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id);

    // The invoice's payment leads to its charge (Stripe's invoice_payments).
    const payments = await stripe.invoicePayments.list({ invoice: invoice.id });
    const pi = await stripe.paymentIntents.retrieve(String(payments.data[0].payment.payment_intent), { expand: ['latest_charge'] });
    expect(pi).toMatchObject({ status: 'succeeded', amount: 3500 });
    expect((pi.latest_charge as Stripe.Charge).payment_method_details?.card?.last4).toBe('4242');

    const completed = await waitFor(session.id, 'checkout.session.completed');
    expect(completed).toMatchObject({ object: 'event', livemode: false, api_version: Stripe.API_VERSION, id: expect.stringMatching(/^evt_/), created: expect.any(Number) });
    expect(objectOf(completed)).toMatchObject({ id: session.id, client_reference_id: 'account-7', metadata: { account: 'account-7', marker }, subscription: sub.id, status: 'complete' });
    expect(objectOf(await waitFor(sub.id, 'customer.subscription.created'))).toMatchObject({ id: sub.id, customer: customer.id });
    expect(objectOf(await waitFor(invoice.id, 'invoice.paid'))).toMatchObject({ id: invoice.id, status: 'paid' });

    // Signed with the endpoint's secret and no other.
    const raw = hooks.received.find((r) => r.body.includes(session.id) && r.body.includes('checkout.session.completed'))!;
    expect(raw.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() => Stripe.webhooks.constructEvent(raw.body, raw.signature, 'whsec_not_the_secret')).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => Stripe.webhooks.constructEvent(raw.body.replace('account-7', 'account-8'), raw.signature, endpoint.secret!)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    // A paid session is paid once.
    expect((await pay(session.url!, '4242 4242 4242 4242')).status).toBe(410);
  });

  it('renews through the test clock: invoice.paid for the next period, once per period', async () => {
    const { clock, customer } = await clockedCustomer('renew');
    const { subscription } = await subscribe(customer, 'pro');
    const firstEnd = subscription.items.data[0].current_period_end;
    expect(firstEnd).toBe(monthAfter(JAN_15_2030));

    await advance(clock, firstEnd + 3600);
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    expect(renewed.status).toBe('active');
    expect(renewed.items.data[0]).toMatchObject({ current_period_start: firstEnd, current_period_end: monthAfter(JAN_15_2030, 2) });
    const invoices = await stripe.invoices.list({ subscription: subscription.id });
    expect(invoices.data.map((i) => [i.billing_reason, i.status, i.amount_paid])).toEqual([
      ['subscription_cycle', 'paid', plan('pro').monthlyPriceCents],
      ['subscription_create', 'paid', plan('pro').monthlyPriceCents],
    ]);
    const cycle = invoices.data[0];
    // The line carries the period the invoice pays for; the invoice's own period is the one that ended, as on Stripe.
    expect(cycle.lines.data[0].period).toEqual({ start: firstEnd, end: monthAfter(JAN_15_2030, 2) });
    expect(cycle).toMatchObject({ period_start: JAN_15_2030, period_end: firstEnd, created: firstEnd });
    const paidEvent = await waitFor(cycle.id, 'invoice.paid');
    expect(paidEvent.created).toBe(firstEnd);

    // Two more months: two more renewals, no more (and each paid once).
    await advance(clock, monthAfter(JAN_15_2030, 3) + 3600);
    const all = await stripe.invoices.list({ subscription: subscription.id });
    expect(all.data.filter((i) => i.billing_reason === 'subscription_cycle').map((i) => i.lines.data[0].period.start)).toEqual([
      monthAfter(JAN_15_2030, 3),
      monthAfter(JAN_15_2030, 2),
      firstEnd,
    ]);
    await eventually(() => eventsAbout(subscription.id).filter((e) => e.type === 'invoice.paid').length === 4, { what: 'four invoice.paid events' });
  });

  it('a failed renewal (4000 0000 0000 0341) goes past_due, is retried 3, 5 and 7 days later, then the subscription is deleted', async () => {
    const { clock, customer } = await clockedCustomer('fail');
    const { subscription } = await subscribe(customer, 'starter', '4000 0000 0000 0341');
    expect(subscription.status).toBe('active');
    const end = subscription.items.data[0].current_period_end;

    await advance(clock, end + 60);
    const failing = (await stripe.invoices.list({ subscription: subscription.id, status: 'open' })).data[0];
    expect(failing).toMatchObject({ billing_reason: 'subscription_cycle', attempt_count: 1, attempted: true, amount_paid: 0, next_payment_attempt: end + 3 * DAY });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    const failed = await waitFor(failing.id, 'invoice.payment_failed');
    expect(objectOf(failed)).toMatchObject({ attempt_count: 1, next_payment_attempt: end + 3 * DAY });
    const pastDue = await waitFor(subscription.id, 'customer.subscription.updated', (e) => objectOf(e).status === 'past_due');
    expect(pastDue.data.previous_attributes).toMatchObject({ status: 'active' });

    await advance(clock, end + 15 * DAY + 60);
    const ended = await stripe.subscriptions.retrieve(subscription.id);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: end + 15 * DAY, cancellation_details: { reason: 'payment_failed' } });
    expect(await stripe.invoices.retrieve(failing.id)).toMatchObject({ status: 'open', attempt_count: 4, next_payment_attempt: null });
    expect(eventsAbout(failing.id).filter((e) => e.type === 'invoice.payment_failed').length).toBeGreaterThanOrEqual(1);
    await eventually(() => eventsAbout(failing.id).filter((e) => e.type === 'invoice.payment_failed').length === 4, { what: 'four invoice.payment_failed events' });
    await waitFor(subscription.id, 'customer.subscription.deleted');
    // No invoice is made for a period after the end.
    await advance(clock, monthAfter(JAN_15_2030, 2) + 60);
    expect((await stripe.invoices.list({ subscription: subscription.id })).data).toHaveLength(2);
  });

  it('payment mode: a declined card shows the decline and changes nothing; 4242 pays for the quantity bought', async () => {
    const customer = await stripe.customers.create({ email: `${marker}-pack@example.com` });
    const quantity = 25;
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      customer: customer.id,
      line_items: [{ price: creditPriceId('starter'), quantity }],
      payment_intent_data: { metadata: { pack: `${marker}-pack` } },
      metadata: { pack: `${marker}-pack` },
      success_url: 'http://127.0.0.1:4000/portal?pack={CHECKOUT_SESSION_ID}',
    });
    const amount = plan('starter').extraCreditCents! * quantity;
    expect(session.amount_total).toBe(amount);

    const declined = await pay(session.url!, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    const declinedPage = await declined.text();
    expect(declinedPage).toContain('role="alert">Your card was declined.');
    expect(declinedPage).toContain('aria-invalid="true" aria-describedby="number-error"');
    const poor = await pay(session.url!, '4000 0000 0000 9995');
    expect(poor.status).toBe(402);
    expect(await poor.text()).toContain('Your card has insufficient funds.');
    const invalid = await pay(session.url!, '4242 4242 4242 4241');
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain('Your card number is invalid.');
    const afterDeclines = await stripe.checkout.sessions.retrieve(session.id);
    expect(afterDeclines).toMatchObject({ status: 'open', payment_status: 'unpaid' });
    expect((await stripe.charges.list({ customer: customer.id })).data.map((c) => c.status)).toEqual(['failed', 'failed']);
    const declines = async () => eventsAbout(String(afterDeclines.payment_intent)).filter((e) => e.type === 'payment_intent.payment_failed');
    await eventually(async () => (await declines()).length === 2, { what: 'two payment_intent.payment_failed events' });
    expect((await declines()).map((e) => (objectOf(e).last_payment_error as Stripe.PaymentIntent.LastPaymentError).decline_code)).toEqual(['generic_decline', 'insufficient_funds']);

    const paid = await pay(session.url!, '4242424242424242');
    expect(paid.headers.get('location')).toBe(`http://127.0.0.1:4000/portal?pack=${session.id}`);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', subscription: null });
    expect(done.payment_intent).toMatchObject({ status: 'succeeded', amount, amount_received: amount, metadata: { pack: `${marker}-pack` }, customer: customer.id });
    expect(objectOf(await waitFor(session.id, 'checkout.session.completed'))).toMatchObject({ payment_status: 'paid', payment_intent: (done.payment_intent as Stripe.PaymentIntent).id });
  });

  /** A paid credit pack's PaymentIntent (its charge is what is refunded or disputed). */
  async function boughtPack(name: string, quantity: number, card = '4242 4242 4242 4242') {
    const customer = await stripe.customers.create({ email: `${marker}-${name}@example.com` });
    const session = await stripe.checkout.sessions.create({ mode: 'payment', customer: customer.id, line_items: [{ price: creditPriceId('pro'), quantity }], success_url: 'http://127.0.0.1:4000/done' });
    expect((await pay(session.url!, card)).status).toBe(303);
    return stripe.paymentIntents.retrieve(String((await stripe.checkout.sessions.retrieve(session.id)).payment_intent));
  }

  it('refunds part of a charge, then the rest; charge.refunded says what changed; a third refund is refused', async () => {
    const pi = await boughtPack('refund', 10);
    const chargeId = String(pi.latest_charge);
    const amount = plan('pro').extraCreditCents! * 10;

    const partial = await stripe.refunds.create({ payment_intent: pi.id, amount: 105, reason: 'requested_by_customer', metadata: { marker } });
    expect(partial).toMatchObject({ object: 'refund', status: 'succeeded', amount: 105, charge: chargeId, payment_intent: pi.id, reason: 'requested_by_customer' });
    expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ amount_refunded: 105, refunded: false });
    const first = await waitFor(chargeId, 'charge.refunded', (e) => objectOf(e).amount_refunded === 105);
    expect(first.data.previous_attributes).toMatchObject({ amount_refunded: 0, refunded: false });

    await expect(stripe.refunds.create({ charge: chargeId, amount })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, param: 'amount' });
    const rest = await stripe.refunds.create({ charge: chargeId });
    expect(rest.amount).toBe(amount - 105);
    expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ amount_refunded: amount, refunded: true });
    await waitFor(chargeId, 'charge.refunded', (e) => objectOf(e).refunded === true);
    await expect(stripe.refunds.create({ charge: chargeId })).rejects.toMatchObject({ code: 'charge_already_refunded', statusCode: 400 });
    expect((await stripe.refunds.list({ charge: chargeId })).data.map((r) => r.amount)).toEqual([amount - 105, 105]);
  });

  it('a dispute opened by the bank, then closed as lost; a disputed charge cannot be refunded', async () => {
    const pi = await boughtPack('dispute', 4);
    const chargeId = String(pi.latest_charge);
    const opened = await twin().stripe.openDispute({ paymentIntent: pi.id, reason: 'fraudulent' });
    expect(opened).toMatchObject({ object: 'dispute', status: 'needs_response', charge: chargeId, amount: pi.amount, reason: 'fraudulent' });
    expect(objectOf(await waitFor(chargeId, 'charge.dispute.created'))).toMatchObject({ id: opened.id, status: 'needs_response' });
    expect((await stripe.charges.retrieve(chargeId)).disputed).toBe(true);
    await expect(stripe.refunds.create({ charge: chargeId })).rejects.toMatchObject({ code: 'charge_disputed' });

    const closed = await stripe.disputes.close(opened.id);
    expect(closed.status).toBe('lost');
    expect(objectOf(await waitFor(opened.id, 'charge.dispute.closed'))).toMatchObject({ id: opened.id, status: 'lost' });
    await expect(stripe.disputes.close(opened.id)).rejects.toMatchObject({ statusCode: 400 });

    // Stripe's dispute card: the payment succeeds, then a fraud dispute opens by itself.
    const auto = await boughtPack('dispute-card', 1, '4000 0000 0000 0259');
    expect(auto.status).toBe('succeeded');
    expect((await stripe.disputes.list({ payment_intent: auto.id })).data).toEqual([expect.objectContaining({ reason: 'fraudulent', status: 'needs_response' })]);
    // Evidence Stripe's test mode treats as winning wins it.
    const won = await stripe.disputes.update((await stripe.disputes.list({ payment_intent: auto.id })).data[0].id, { evidence: { uncategorized_text: 'winning_evidence' } });
    expect(won.status).toBe('won');
  });

  it('the billing portal: cancel at period end and undo it, an upgrade invoiced now with proration, a downgrade at the period end, a new card', async () => {
    const { clock, customer } = await clockedCustomer('portal');
    const { subscription } = await subscribe(customer, 'starter');
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://127.0.0.1:4000/portal' });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer: customer.id, return_url: 'http://127.0.0.1:4000/portal' });
    expect(portal.url).toBe(`${twin().urls.stripe}/p/session/${portal.id}`);
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('Humanly Starter');
    expect(page).toContain('href="http://127.0.0.1:4000/portal"');
    expect(page).toContain('<label for="price">Change plan</label>');

    const cancel = await portalPost(portal.url, 'cancel');
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe(`/p/session/${portal.id}?done=canceled`);
    const canceling = await stripe.subscriptions.retrieve(subscription.id);
    expect(canceling).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: subscription.items.data[0].current_period_end });
    const update = await waitFor(subscription.id, 'customer.subscription.updated', (e) => objectOf(e).cancel_at_period_end === true);
    expect(update.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
    expect(await (await fetch(`${portal.url}?done=canceled`)).text()).toContain('Your plan ends on');
    await portalPost(portal.url, 'renew');
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(false);

    // An upgrade at the period's start: the whole difference, invoiced and paid now.
    expect((await portalPost(portal.url, 'switch', { price: planPriceId('pro') })).status).toBe(303);
    const upgraded = await stripe.subscriptions.retrieve(subscription.id);
    expect(upgraded.items.data[0].price.id).toBe(planPriceId('pro'));
    const proration = (await stripe.invoices.list({ subscription: subscription.id })).data[0];
    expect(proration).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_paid: plan('pro').monthlyPriceCents - plan('starter').monthlyPriceCents });
    expect(proration.lines.data.map((l) => [l.amount, l.parent?.subscription_item_details?.proration])).toEqual([
      [-plan('starter').monthlyPriceCents, true],
      [plan('pro').monthlyPriceCents, true],
    ]);

    // A downgrade waits for the period's end, through a subscription schedule.
    await portalPost(portal.url, 'switch', { price: planPriceId('starter') });
    const waiting = await stripe.subscriptions.retrieve(subscription.id, { expand: ['schedule'] });
    expect(waiting.items.data[0].price.id).toBe(planPriceId('pro'));
    expect((waiting.schedule as Stripe.SubscriptionSchedule).phases.map((p) => p.items[0].price)).toEqual([planPriceId('pro'), planPriceId('starter')]);
    expect(await (await fetch(portal.url)).text()).toContain('Changes to Humanly Starter');
    // A subscription a schedule manages is cancelled through the schedule, as on Stripe.
    await expect(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })).rejects.toMatchObject({ statusCode: 400, param: 'cancel_at_period_end' });

    // A new card, then the renewal: the starter price, paid with the new card.
    expect((await portalPost(portal.url, 'payment-method', { name: 'Ada Client', number: '5555 5555 5555 4444', expiry: '01/33', cvc: '321' })).status).toBe(303);
    const badCard = await portalPost(portal.url, 'payment-method', { name: 'Ada Client', number: '5555 5555 5555 4444', expiry: '01/20', cvc: '321' });
    expect(badCard.status).toBe(400);
    expect(await badCard.text()).toContain('role="alert">Your card&#39;s expiration year is in the past.');
    await advance(clock, subscription.items.data[0].current_period_end + 60);
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    expect(renewed).toMatchObject({ status: 'active', schedule: null });
    expect(renewed.items.data[0].price.id).toBe(planPriceId('starter'));
    const cycle = (await stripe.invoices.list({ subscription: subscription.id, limit: 1 })).data[0];
    expect(cycle).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: plan('starter').monthlyPriceCents });
    const payment = (await stripe.invoicePayments.list({ invoice: cycle.id })).data[0];
    const charge = (await stripe.paymentIntents.retrieve(String(payment.payment.payment_intent), { expand: ['latest_charge'] })).latest_charge as Stripe.Charge;
    expect(charge.payment_method_details?.card).toMatchObject({ brand: 'mastercard', last4: '4444' });

    // Cancel at period end through the API: the subscription ends at the period's end, no invoice after it.
    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    await advance(clock, renewed.items.data[0].current_period_end + 60);
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'canceled', ended_at: renewed.items.data[0].current_period_end });
    await waitFor(subscription.id, 'customer.subscription.deleted');
    // Its invoices: the first, the upgrade's, one renewal; none after the end.
    expect((await stripe.invoices.list({ subscription: subscription.id })).data.map((i) => i.billing_reason)).toEqual(['subscription_cycle', 'subscription_update', 'subscription_create']);
  });

  it("cancelling in the portal drops a downgrade waiting for the period's end", async () => {
    const { customer } = await clockedCustomer('portal-cancel');
    const { subscription } = await subscribe(customer, 'pro');
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id });
    await portalPost(portal.url, 'switch', { price: planPriceId('starter') });
    const scheduled = String((await stripe.subscriptions.retrieve(subscription.id)).schedule);
    expect(scheduled).toMatch(/^sub_sched_/);
    await portalPost(portal.url, 'cancel');
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ cancel_at_period_end: true, schedule: null });
    expect(await stripe.subscriptionSchedules.retrieve(scheduled)).toMatchObject({ status: 'released', released_subscription: subscription.id });
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('Your plan ends on');
    expect(page).not.toContain('Changes to');
  });

  it('lists page with has_more and starting_after; events are listed and retrieved', async () => {
    const emails = [1, 2, 3].map((n) => `${marker}-list${n}@example.com`);
    const made: Stripe.Customer[] = [];
    for (const email of emails) made.push(await stripe.customers.create({ email, metadata: { marker } }));
    const mine = async (params: Stripe.CustomerListParams) => (await stripe.customers.list({ limit: 100, ...params })).data.filter((c) => c.metadata.marker === marker && emails.includes(c.email!));
    expect((await mine({})).map((c) => c.id)).toEqual(made.map((c) => c.id).reverse());
    const first = await stripe.customers.list({ email: emails[1], limit: 1 });
    expect(first).toMatchObject({ object: 'list', has_more: false, url: '/v1/customers' });
    expect(first.data.map((c) => c.id)).toEqual([made[1].id]);
    const two = await stripe.prices.list({ limit: 2 });
    expect(two.has_more).toBe(true);
    const next = await stripe.prices.list({ limit: 2, starting_after: two.data[1].id });
    expect(next.data.map((p) => p.id)).not.toContain(two.data[0].id);
    const every: string[] = [];
    for await (const p of stripe.prices.list({ limit: 2 })) every.push(p.id);
    expect(new Set(every).size).toBe(every.length);
    expect(every).toEqual(expect.arrayContaining(PLANS.filter((p) => p.monthlyPriceCents > 0).map((p) => planPriceId(p.id))));

    const created = await waitFor(made[0].id, 'customer.created');
    expect(await stripe.events.retrieve(created.id)).toEqual(created);
    const listed = await stripe.events.list({ type: 'customer.created', limit: 100 });
    expect(listed.data.map((e) => e.id)).toContain(created.id);
    expect(listed.data.every((e) => e.type === 'customer.created')).toBe(true);
  });
});

describe('Stripe emulator of its own: idempotency, errors and webhook faults, through the official client', () => {
  // Its own emulator: API faults take any call, and other files share the twin's.
  let emulator: StripeEmulator;
  let stripe: Stripe;
  let hooks: Receiver;
  let answer = 200;
  let endpoint: Stripe.WebhookEndpoint;

  beforeAll(async () => {
    emulator = await startStripe({ catalog: planCatalog(), webhookRetryDelaysMs: [20, 40, 80] });
    stripe = client(emulator.endpoint, emulator.secretKey);
    hooks = await receiver(() => answer);
    endpoint = emulator.addWebhookEndpoint({ url: hooks.url, secret: 'whsec_twin_configured_secret' });
  });
  afterEach(() => {
    emulator.clear();
    answer = 200;
  });
  afterAll(async () => {
    await hooks?.close();
    await emulator?.stop();
  });
  const received = (id: string) => hooks.events(endpoint.secret!).filter((e) => objectOf(e).id === id);

  it('replays an idempotent request (same key, same body) and refuses the key with another body', async () => {
    const post = (key: string, body: string) =>
      fetch(`${emulator.endpoint}/v1/customers`, { method: 'POST', headers: { authorization: `Bearer ${emulator.secretKey}`, 'idempotency-key': key, 'content-type': 'application/x-www-form-urlencoded' }, body });
    const first = await post('signup-42', 'email=one%40example.com&metadata[account]=42');
    const again = await post('signup-42', 'email=one%40example.com&metadata[account]=42');
    const firstBody = await first.json();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    const other = await post('signup-42', 'email=two%40example.com');
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ error: expect.objectContaining({ type: 'idempotency_error', message: expect.stringContaining("Try using a key other than 'signup-42'") }) });
    expect((await stripe.customers.list({ email: 'one@example.com' })).data.map((c) => c.id)).toEqual([firstBody.id]);

    // Through the client: the same key gives the same customer; another body is StripeIdempotencyError.
    const a = await stripe.customers.create({ email: 'three@example.com' }, { idempotencyKey: 'signup-43' });
    const b = await stripe.customers.create({ email: 'three@example.com' }, { idempotencyKey: 'signup-43' });
    expect(b.id).toBe(a.id);
    await expect(stripe.customers.create({ email: 'four@example.com' }, { idempotencyKey: 'signup-43' })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    // A key longer than Stripe's 255 characters is refused.
    await expect(stripe.customers.create({ email: 'five@example.com' }, { idempotencyKey: 'k'.repeat(256) })).rejects.toMatchObject({ statusCode: 400 });
  });

  it("an answer lost after the call ran: the client's retry with the same key gets the first result, and one customer exists", async () => {
    const retrying = client(emulator.endpoint, emulator.secretKey, { maxNetworkRetries: 2 });
    emulator.inject({ kind: 'lose-answer' });
    const customer = await retrying.customers.create({ email: 'lost-answer@example.com' });
    expect(customer.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect((await stripe.customers.list({ email: 'lost-answer@example.com' })).data.map((c) => c.id)).toEqual([customer.id]);

    // A 500 before the call ran saves nothing: the retry runs it.
    emulator.inject({ kind: 'http-5xx' });
    const after500 = await retrying.customers.create({ email: 'after-500@example.com' });
    expect((await stripe.customers.list({ email: 'after-500@example.com' })).data.map((c) => c.id)).toEqual([after500.id]);
    const once = client(emulator.endpoint, emulator.secretKey, { maxNetworkRetries: 0 });
    emulator.inject({ kind: 'http-5xx' });
    await expect(once.customers.create({ email: 'x@example.com' })).rejects.toMatchObject({ type: 'StripeAPIError', statusCode: 500 });
    emulator.inject({ kind: 'http-429' });
    await expect(once.customers.list()).rejects.toMatchObject({ type: 'StripeRateLimitError', statusCode: 429, code: 'rate_limit' });
  });

  it("answers errors in Stripe's shape and statuses", async () => {
    await expect(client(emulator.endpoint, 'sk_test_wrongwrongwrongwrong').customers.list()).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
    const anonymous = await fetch(`${emulator.endpoint}/v1/customers`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('You did not provide an API key') });

    await expect(stripe.customers.create({ emial: 'typo@example.com' } as Stripe.CustomerCreateParams)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'parameter_unknown',
      param: 'emial',
      message: 'Received unknown parameter: emial',
    });
    await expect(stripe.checkout.sessions.create({ line_items: [{ price: planPriceId('pro'), quantity: 1 }] } as Stripe.Checkout.SessionCreateParams)).rejects.toMatchObject({
      code: 'parameter_missing',
      param: 'mode',
      message: 'Missing required param: mode.',
    });
    await expect(stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price: planPriceId('pro'), quantity: 1 }] })).rejects.toMatchObject({
      param: 'line_items',
      message: expect.stringContaining('recurring price'),
    });
    await expect(stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price: 'price_nope', quantity: 1 }] })).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'line_items[0][price]',
      message: "No such price: 'price_nope'",
    });
    await expect(stripe.subscriptions.retrieve('sub_nope')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' });

    const raw = await fetch(`${emulator.endpoint}/v1/checkout/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'mode=payment&line_items[0][price]=price_humanly_pro_credit&line_items[0][quantity]=many',
    });
    expect(raw.status).toBe(400);
    expect(raw.headers.get('request-id')).toMatch(/^req_/);
    expect(await raw.json()).toEqual({ error: { message: 'Invalid integer: many', param: 'line_items[0][quantity]', request_log_url: expect.any(String), type: 'invalid_request_error' } });
    const nowhere = await fetch(`${emulator.endpoint}/v1/nowhere`, { headers: { authorization: `Bearer ${emulator.secretKey}` } });
    expect(nowhere.status).toBe(404);
    expect((await nowhere.json()).error.message).toContain('Unrecognized request URL (GET: /v1/nowhere)');

    // A card error is a 402 StripeCardError with the decline code.
    const customer = await stripe.customers.create({ email: 'declines@example.com' });
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: planPriceId('starter'), quantity: 1 }] });
    await pay(session.url!, '4000 0000 0000 0341');
    const sub = (await stripe.subscriptions.list({ customer: customer.id })).data[0];
    emulator.advanceClock({ to: sub.items.data[0].current_period_end + 60 });
    const open = (await stripe.invoices.list({ customer: customer.id, status: 'open' })).data[0];
    await expect(stripe.invoices.pay(open.id)).rejects.toMatchObject({ type: 'StripeCardError', statusCode: 402, code: 'card_declined', decline_code: 'generic_decline' });
  });

  it('tries a refused delivery again with back-off, under the same event id', async () => {
    answer = 500;
    const customer = await stripe.customers.create({ email: 'retried@example.com' });
    await eventually(() => emulator.deliveries({ objectId: customer.id, type: 'customer.created' })[0]?.attempts.length >= 2, { what: 'two attempts' });
    answer = 200;
    const delivery = await eventually(() => {
      const d = emulator.deliveries({ objectId: customer.id, type: 'customer.created' })[0];
      return d.status === 'delivered' && d;
    });
    expect(delivery.attempts.map((a) => a.status).slice(0, 2)).toEqual([500, 500]);
    expect(delivery.attempts.at(-1)!.status).toBe(200);
    const gaps = delivery.attempts.slice(1).map((a, i) => a.at - delivery.attempts[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(20);
    expect(new Set(received(customer.id).map((e) => e.id)).size).toBe(1);
    expect(received(customer.id).length).toBe(delivery.attempts.length);
  });

  it('faults: a lost delivery, a duplicate delivery, deliveries out of order', async () => {
    emulator.inject({ kind: 'lose-delivery', types: ['customer.created'], objectIncludes: 'lost@example.com' });
    const lost = await stripe.customers.create({ email: 'lost@example.com' });
    const kept = await stripe.customers.create({ email: 'kept@example.com' });
    await eventually(() => received(kept.id).length === 1, { what: 'the kept customer.created' });
    expect(emulator.deliveries({ objectId: lost.id })).toEqual([expect.objectContaining({ status: 'lost', attempts: [] })]);
    expect(received(lost.id)).toEqual([]);
    // The event exists all the same.
    expect((await stripe.events.list({ type: 'customer.created' })).data.map((e) => objectOf(e).id)).toContain(lost.id);

    emulator.inject({ kind: 'duplicate-delivery', objectIncludes: 'twice@example.com' });
    const twice = await stripe.customers.create({ email: 'twice@example.com' });
    await eventually(() => received(twice.id).length === 2, { what: 'two deliveries' });
    expect(new Set(received(twice.id).map((e) => e.id)).size).toBe(1);

    emulator.inject({ kind: 'out-of-order', times: 2, types: ['customer.created'], objectIncludes: 'order-' });
    const a = await stripe.customers.create({ email: 'order-a@example.com' });
    expect(emulator.deliveries({ objectId: a.id })[0].status).toBe('held');
    const b = await stripe.customers.create({ email: 'order-b@example.com' });
    await eventually(() => received(a.id).length === 1 && received(b.id).length === 1, { what: 'both deliveries' });
    const order = hooks.received.map((r) => JSON.parse(r.body).data.object.id).filter((id: string) => id === a.id || id === b.id);
    expect(order).toEqual([b.id, a.id]);
  });

  it('a burst fault makes every event of a payment at once, twice each and newest first', async () => {
    // An endpoint that answers nothing until every delivery expected has arrived: only deliveries made at once all reach it.
    const arrived: Array<{ id: string; type: string }> = [];
    const waiting: http.ServerResponse[] = [];
    let expected = Number.POSITIVE_INFINITY;
    const answerAllOnce = () => arrived.length >= expected && waiting.splice(0).forEach((res) => res.writeHead(200).end());
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        arrived.push({ id: event.id, type: event.type });
        waiting.push(res);
        answerAllOnce();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const own = emulator.addWebhookEndpoint({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, enabledEvents: ['charge.succeeded', 'payment_intent.succeeded', 'checkout.session.completed'] });
    try {
      const customer = await stripe.customers.create({ email: 'burst@example.com' });
      const session = await stripe.checkout.sessions.create({ mode: 'payment', customer: customer.id, line_items: [{ price: creditPriceId('starter'), quantity: 50 }] });
      emulator.inject({ kind: 'burst', copies: 2, order: 'reversed', objectIncludes: customer.id });
      expect((await pay(session.url!, '4242 4242 4242 4242')).status).toBe(200);
      const events = (await stripe.events.list({ limit: 20 })).data.filter((e) => own.enabled_events.includes(e.type) && JSON.stringify(e.data.object).includes(customer.id));
      expect(events.map((e) => e.type).sort()).toEqual(['charge.succeeded', 'checkout.session.completed', 'payment_intent.succeeded']);
      expected = 2 * events.length;
      answerAllOnce();
      await eventually(() => emulator.deliveries().filter((d) => d.endpoint === own.id && d.status === 'delivered').length === expected, { what: 'every delivery answered' });
      // Newest first (the list is newest first too), each twice; the copy is marked.
      const newestFirst = events.map((e) => e.id);
      expect(arrived.map((a) => a.id)).toEqual(newestFirst.flatMap((id) => [id, id]));
      const ours = emulator.deliveries().filter((d) => d.endpoint === own.id);
      expect(ours.filter((d) => d.duplicate)).toHaveLength(events.length);
      expect(() => emulator.inject({ kind: 'burst', copies: 0 })).toThrow(/copies must be a whole number from 1 to 10/);
    } finally {
      emulator.clear();
      await stripe.webhookEndpoints.del(own.id);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it("the emulator's clock renews subscriptions of customers on no test clock", async () => {
    const customer = await stripe.customers.create({ email: 'own-clock@example.com' });
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: planPriceId('enterprise'), quantity: 1 }] });
    const page = await pay(session.url!, '4242 4242 4242 4242');
    // Without a success URL the page says the payment is done.
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('your payment has been made');
    const sub = (await stripe.subscriptions.list({ customer: customer.id })).data[0];
    const end = sub.items.data[0].current_period_end;
    const { now } = emulator.advanceClock({ to: end + 10 });
    expect(now).toBe(end + 10);
    const invoices = await stripe.invoices.list({ customer: customer.id });
    expect(invoices.data.map((i) => [i.billing_reason, i.status, i.amount_paid])).toEqual([
      ['subscription_cycle', 'paid', plan('enterprise').monthlyPriceCents],
      ['subscription_create', 'paid', plan('enterprise').monthlyPriceCents],
    ]);
    await eventually(() => received(invoices.data[0].id).some((e) => e.type === 'invoice.paid'), { what: 'the renewal invoice.paid' });
    expect(() => emulator.advanceClock({ to: end })).toThrow(/forward only/);
  });
});
