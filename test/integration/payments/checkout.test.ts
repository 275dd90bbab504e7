// Money in through Checkout on the twin (docs/payments.md): our routes, the Stripe emulator's
// hosted page paid with a test card, and the signed webhook route verifying and applying the
// events. The redirect back grants nothing; only a verified event does, once.
import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import { NO_BILLING_ACCOUNT_MESSAGE, UPGRADE_FIRST_MESSAGE, USE_PORTAL_MESSAGE } from '../../../events/payment-values';
import { PLAN_CHECKOUT_OPENING_MESSAGE } from '../../../functions/payments/routes/create-checkout-session/service';
import { planById } from '../../../events/plans';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, useTwin } from '../../support/twin';
import {
  checkoutAndPay,
  checkoutApplied,
  clockedCustomer,
  eventsAbout,
  newClient,
  pay,
  postSigned,
  stores,
  stripeOf,
  webhookSecret,
  type TestClient,
} from './money';

jest.setTimeout(180_000);
const twin = useTwin();
const marker = fileMarker('pay');

let stripe: Stripe;
let secret: string;
beforeAll(async () => {
  stripe = await stripeOf(twin());
  secret = await webhookSecret(twin());
});

const balance = (client: TestClient) => stores(twin()).ledger.balance(client.id);
const billing = async (client: TestClient) => (await callApi(twin(), client.token, 'GET', '/me/billing')).json;
const emailsTo = async (client: TestClient) => (await twin().emails()).filter((m) => m.to.includes(client.email));

describe('a plan through Checkout', () => {
  it('the redirect grants nothing; the verified events make the account Starter with 80 credits, once however often they are sent; a forged one changes nothing', async () => {
    const client = await newClient(twin(), marker, 'starter');
    const { customer } = await clockedCustomer(twin(), stripe, client, marker);
    // Stripe's deliveries of this customer's events are lost: only what we send below arrives.
    await twin().stripe.inject({ kind: 'lose-delivery', times: 1000, objectIncludes: customer.id });

    const started = await callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'starter' });
    expect(started.status).toBe(201);
    const sessionId = started.json.id as string;
    const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['line_items'] });
    // Priced and addressed by the server: the plan's monthly price, the account's own customer.
    expect(session).toMatchObject({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: client.id,
      metadata: { accountId: client.id, kind: 'plan', plan: 'starter' },
      amount_total: 3500,
      success_url: `${twin().urls.web.replace(/\/$/, '')}/client-portal?checkout={CHECKOUT_SESSION_ID}`,
      cancel_url: `${twin().urls.web.replace(/\/$/, '')}/pricing?checkout=cancelled`,
    });
    expect(session.line_items!.data[0].price!.id).toBe('price_humanly_starter_monthly');
    expect((await callApi(twin(), client.token, 'GET', `/me/checkout-sessions/${sessionId}`)).json).toEqual({ id: sessionId, kind: 'plan', plan: 'starter', state: 'open' });

    const paid = await pay(started.json.url, '4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toContain(`/client-portal?checkout=${sessionId}`);
    // Back on the portal: paid at Stripe, not applied by us.
    expect((await callApi(twin(), client.token, 'GET', `/me/checkout-sessions/${sessionId}`)).json.state).toBe('confirming');
    expect(await balance(client)).toBe(10);
    expect(await billing(client)).toMatchObject({ plan: 'free', hasBillingAccount: true, extraCreditCents: null });

    const events = await eventually(
      async () => {
        const all = await eventsAbout(stripe, customer.id);
        const wanted = ['checkout.session.completed', 'customer.subscription.created', 'invoice.paid'];
        return wanted.every((t) => all.some((e) => e.type === t)) && all.filter((e) => wanted.includes(e.type));
      },
      { what: `the checkout's events about ${customer.id}` },
    );
    const invoicePaid = events.find((e) => e.type === 'invoice.paid')!;
    const payload = (e: Stripe.Event) => JSON.stringify(e, null, 2);

    // Forged: no signature, another secret, or a body changed under a real signature: 400, nothing applied.
    const noSignature = await fetch(`${twin().urls.api}/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload(invoicePaid) });
    expect(noSignature.status).toBe(400);
    expect(((await noSignature.json()) as { error: string }).error).toMatch(/no Stripe-Signature header/);
    const otherSecret = await postSigned(twin(), payload(invoicePaid), 'whsec_not_ours');
    expect(otherSecret).toEqual({ status: 400, json: { error: 'The Stripe-Signature header does not match this body: the event was not applied.' } });
    const t = Math.floor(Date.now() / 1000);
    const realSignature = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload(invoicePaid)}`).digest('hex')}`;
    const changed = await fetch(`${twin().urls.api}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': realSignature },
      body: payload(invoicePaid).replace(customer.id, 'cus_someone_else'),
    });
    expect(changed.status).toBe(400);
    expect(await balance(client)).toBe(10);

    // The real events, signed as Stripe signs them, in the order Stripe made them: none was
    // recorded applied by a refused delivery, so none answers as a replay.
    for (const e of events) expect(await postSigned(twin(), payload(e), secret)).toEqual({ status: 200, json: { received: true } });
    expect(await checkoutApplied(twin(), client, sessionId)).toEqual({ id: sessionId, kind: 'plan', plan: 'starter', state: 'applied' });
    expect(await balance(client)).toBe(90);
    const me = await billing(client);
    expect(me).toEqual({
      plan: 'starter',
      subscription: { id: expect.stringMatching(/^sub_/), plan: 'starter', state: 'active', currentPeriodEnd: '2030-02-15T12:00:00.000Z' },
      hasBillingAccount: true,
      extraCreditCents: 40,
    });
    const lots = await stores(twin()).ledger.lots(client.id);
    const invoiceId = (invoicePaid.data.object as Stripe.Invoice).id!;
    // The period's 80 credits: paid, worth $35 / 80, expiring at the end of the following period.
    expect(lots).toContainEqual(expect.objectContaining({ credits: 80, kind: 'paid', valueMicros: 437_500, source: `invoice:${invoiceId}`, expiresAt: '2030-03-15T12:00:00.000Z' }));

    // Sent again, each is a replay: nothing changes.
    for (const e of events) expect(await postSigned(twin(), payload(e), secret)).toEqual({ status: 200, json: { received: true, replayed: true } });
    expect(await balance(client)).toBe(90);
    const payments = await stores(twin()).payments.paymentsOf(client.id);
    expect(payments).toEqual([expect.objectContaining({ kind: 'subscription', amountCents: 3500, credits: 80, invoiceId, status: 'paid', chargeId: expect.stringMatching(/^ch_/) })]);
    // One "plan active" email, whose link leads to the portal.
    const active = (await emailsTo(client)).filter((m) => m.subject === 'Your Humanly Starter plan is active');
    expect(active).toHaveLength(1);
    expect(active[0].text).toContain('It gives you 80 credits a month');
    expect(active[0].text).toContain('February 15, 2030');

    // A subscriber choosing a plan again is sent to the billing portal.
    const again = await callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'pro' });
    expect(again).toMatchObject({ status: 409, json: { error: USE_PORTAL_MESSAGE } });
  });
});

describe('credit packs', () => {
  it('a Free client is told to upgrade first; a Starter client buys packs at $0.40 a credit, granted once as paid credits that never expire', async () => {
    const free = await newClient(twin(), marker, 'free');
    expect(await callApi(twin(), free.token, 'POST', '/me/checkout-sessions', { kind: 'credits', pack: 50, quantity: 1 })).toMatchObject({ status: 409, json: { error: UPGRADE_FIRST_MESSAGE } });
    // Bad bodies name what is wrong.
    expect((await callApi(twin(), free.token, 'POST', '/me/checkout-sessions', { kind: 'credits', pack: 51, quantity: 1 })).json.error).toMatch(/pack must be one of 50, 100, 250, 500 credits/);
    expect((await callApi(twin(), free.token, 'POST', '/me/checkout-sessions', { kind: 'credits', pack: 50, quantity: 11 })).json.error).toMatch(/quantity can be at most 10/);
    expect((await callApi(twin(), free.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'starter', price: 'price_cheap' })).json.error).toMatch(/price is not a field this request accepts/);

    const client = await newClient(twin(), marker, 'packs');
    const plan = await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' });
    await checkoutApplied(twin(), client, plan);
    expect(await balance(client)).toBe(90);

    const sessionId = await checkoutAndPay(twin(), client, { kind: 'credits', pack: 50, quantity: 2 });
    const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['line_items'] });
    expect(session).toMatchObject({ mode: 'payment', amount_total: 4000, metadata: { accountId: client.id, kind: 'credits', credits: '100' } });
    expect(session.line_items!.data).toEqual([expect.objectContaining({ quantity: 100, price: expect.objectContaining({ id: 'price_humanly_starter_credit' }) })]);
    expect(session.cancel_url).toBe(`${twin().urls.web.replace(/\/$/, '')}/client-portal?checkout=cancelled`);
    expect(await checkoutApplied(twin(), client, sessionId)).toEqual({ id: sessionId, kind: 'credits', credits: 100, state: 'applied' });
    expect(await balance(client)).toBe(190);
    const lots = await stores(twin()).ledger.lots(client.id);
    const bought = lots.find((l) => l.source === `checkout:${sessionId}`);
    expect(bought).toEqual({ credits: 100, kind: 'paid', valueMicros: 400_000, source: `checkout:${sessionId}` });

    // The completed event sent again changes nothing.
    const [completed] = await eventsAbout(stripe, sessionId, 'checkout.session.completed');
    expect(await postSigned(twin(), JSON.stringify(completed, null, 2), secret)).toEqual({ status: 200, json: { received: true, replayed: true } });
    expect(await balance(client)).toBe(190);
    const payment = (await stores(twin()).payments.paymentsOf(client.id)).find((p) => p.kind === 'credits');
    expect(payment).toMatchObject({ amountCents: 4000, credits: 100, source: `checkout:${sessionId}`, checkoutId: sessionId, paymentIntentId: session.payment_intent });
  });

  it('a declined card changes nothing', async () => {
    const client = await newClient(twin(), marker, 'declined');
    const started = await callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'pro' });
    const declined = await pay(started.json.url, '4000 0000 0000 0002');
    expect(declined.status).not.toBe(303);
    expect((await callApi(twin(), client.token, 'GET', `/me/checkout-sessions/${started.json.id}`)).json.state).toBe('open');
    expect(await balance(client)).toBe(10);
    expect((await billing(client)).plan).toBe('free');
  });
});

describe('whose checkout and portal', () => {
  it("a client starts checkouts and opens the portal for their own account only; another's checkout is 404", async () => {
    const a = await newClient(twin(), marker, 'owner');
    const b = await newClient(twin(), marker, 'stranger');
    const sessionId = await checkoutAndPay(twin(), a, { kind: 'plan', plan: 'starter' });
    await checkoutApplied(twin(), a, sessionId);

    // Another account's session answers as an unknown one does.
    const theirs = await callApi(twin(), b.token, 'GET', `/me/checkout-sessions/${sessionId}`);
    const unknown = await callApi(twin(), b.token, 'GET', '/me/checkout-sessions/cs_test_unknown');
    expect(theirs).toMatchObject({ status: 404, json: { error: 'There is no checkout with this id on your account.' } });
    expect(unknown).toMatchObject({ status: 404, json: theirs.json });

    // The account comes from the token: a body naming another account is refused, and B's
    // checkout is B's own customer's.
    const naming = await callApi(twin(), b.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'starter', accountId: a.id });
    expect(naming).toMatchObject({ status: 400, json: { error: 'accountId is not a field this request accepts' } });
    expect(await callApi(twin(), b.token, 'POST', '/me/billing-portal-sessions', { customer: 'x' })).toMatchObject({ status: 409, json: { error: NO_BILLING_ACCOUNT_MESSAGE } });
    const mine = await callApi(twin(), b.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'starter' });
    expect(mine.status).toBe(201);
    const { payments } = stores(twin());
    const [customerA, customerB] = [await payments.customerOf(a.id), await payments.customerOf(b.id)];
    expect(customerB).toBeDefined();
    expect(customerB).not.toBe(customerA);
    expect((await stripe.checkout.sessions.retrieve(mine.json.id)).customer).toBe(customerB);
    expect((await stripe.customers.retrieve(customerB!)) as Stripe.Customer).toMatchObject({ email: b.email, metadata: { accountId: b.id } });

    // A's portal is A's customer's, and comes back to the client portal.
    const portal = await callApi(twin(), a.token, 'POST', '/me/billing-portal-sessions');
    expect(portal).toMatchObject({ status: 201, json: { url: expect.stringContaining('/p/session/') } });
    const page = await (await fetch(portal.json.url)).text();
    expect(page).toContain('Starter');
    expect(page).toContain(`${twin().urls.web.replace(/\/$/, '')}/client-portal`);
  });

  it('two checkouts at once for a new account make one Stripe customer, mapped both ways', async () => {
    const client = await newClient(twin(), marker, 'twotabs');
    expect(await billing(client)).toMatchObject({ plan: 'free', hasBillingAccount: false });
    const answers = await Promise.all([
      callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'starter' }),
      callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'pro' }),
    ]);
    // One plan checkout at a time: the other is refused while the first is being made, or replaces it.
    const made = answers.filter((a) => a.status === 201);
    expect(made.length).toBeGreaterThan(0);
    for (const a of answers.filter((x) => x.status !== 201)) expect(a).toMatchObject({ status: 409, json: { error: PLAN_CHECKOUT_OPENING_MESSAGE } });
    const customers = await Promise.all(made.map(async (a) => (await stripe.checkout.sessions.retrieve(a.json.id)).customer));
    expect(new Set(customers).size).toBe(1);
    const { payments } = stores(twin());
    expect(await payments.customerOf(client.id)).toBe(customers[0]);
    expect(await payments.accountOfCustomer(customers[0] as string)).toBe(client.id);
    expect(await billing(client)).toMatchObject({ plan: 'free', hasBillingAccount: true });
  });

  it('two plan checkouts started at once (two tabs) can never both be paid: one live subscription per account', async () => {
    const client = await newClient(twin(), marker, 'onesub');
    const { customer } = await clockedCustomer(twin(), stripe, client, marker);
    const start = (plan: string) => callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan });
    const tabs = await Promise.all([start('starter'), start('starter')]);
    for (const t of tabs) if (t.status !== 201) expect(t).toMatchObject({ status: 409, json: { error: PLAN_CHECKOUT_OPENING_MESSAGE } });
    // Once the first is made, asking again for the same plan answers the same open session.
    const again = await start('starter');
    expect(again.status).toBe(201);
    for (const t of tabs.filter((x) => x.status === 201)) expect(t.json.id).toBe(again.json.id);
    // Each tab pays what it was given; only one payment can go through.
    await Promise.all([...tabs.filter((t) => t.status === 201), again].map((t) => pay(t.json.url, '4242 4242 4242 4242')));
    await checkoutApplied(twin(), client, again.json.id);
    const subscriptions = await stripe.subscriptions.list({ customer: customer.id, status: 'all' });
    expect(subscriptions.data.filter((s) => s.status === 'active')).toHaveLength(1);
    // Another plan now: the portal, as before.
    expect(await start('pro')).toMatchObject({ status: 409, json: { error: USE_PORTAL_MESSAGE } });
  });

  it('two subscriptions paid at once for one account (sessions made outside our route): the older is kept, the newer cancelled at once and refunded in full, its credits never kept', async () => {
    const client = await newClient(twin(), marker, 'twosubs');
    const { customer } = await clockedCustomer(twin(), stripe, client, marker);
    const session = (plan: string) =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        line_items: [{ price: `price_humanly_${plan}_monthly`, quantity: 1 }],
        success_url: 'https://humanly.example/client-portal',
        cancel_url: 'https://humanly.example/pricing',
      });
    const [a, b] = await Promise.all([session('starter'), session('pro')]);
    const paid = await Promise.all([pay(a.url!, '4242 4242 4242 4242'), pay(b.url!, '4242 4242 4242 4242')]);
    expect(paid.map((p) => p.status)).toEqual([303, 303]);
    const settled = await eventually(
      async () => {
        const subs = (await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data;
        const live = subs.filter((s) => s.status === 'active');
        const canceled = subs.filter((s) => s.status === 'canceled');
        if (live.length !== 1 || canceled.length !== 1) return undefined;
        const refunds = (await stripe.refunds.list({ limit: 100 })).data.filter((r) => r.metadata?.subscription === canceled[0].id);
        return refunds.length === 1 && { live: live[0], canceled: canceled[0], refund: refunds[0] };
      },
      { what: 'one subscription kept, the other cancelled and refunded', timeoutMs: 60_000 },
    );
    // The older is kept (both made at the test clock's same second: the lower id).
    expect(settled.live.created < settled.canceled.created || (settled.live.created === settled.canceled.created && settled.live.id < settled.canceled.id)).toBe(true);
    const refundedInvoice = (await stripe.invoices.list({ subscription: settled.canceled.id, status: 'paid' })).data[0];
    expect(settled.refund).toMatchObject({ amount: refundedInvoice.amount_paid, reason: 'duplicate', status: 'succeeded' });
    const keptPlan = settled.live.items.data[0].price.id === 'price_humanly_pro_monthly' ? 'pro' : 'starter';
    await eventually(async () => (await billing(client)).plan === keptPlan && (await balance(client)) === 10 + planById(keptPlan).monthlyCredits, {
      what: `the account on ${keptPlan} with its credits alone`,
      timeoutMs: 60_000,
    });
    expect(await billing(client)).toMatchObject({ plan: keptPlan, subscription: { id: settled.live.id, state: 'active' } });
  });

  it('a plan checkout for another plan replaces the open one, which can no longer be paid', async () => {
    const client = await newClient(twin(), marker, 'switchtab');
    const { customer } = await clockedCustomer(twin(), stripe, client, marker);
    const first = await callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'starter' });
    expect(first.status).toBe(201);
    const second = await callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'pro' });
    expect(second.status).toBe(201);
    expect(second.json.id).not.toBe(first.json.id);
    expect((await stripe.checkout.sessions.retrieve(first.json.id)).status).toBe('expired');
    expect((await pay(first.json.url, '4242 4242 4242 4242')).status).not.toBe(303);
    expect((await pay(second.json.url, '4242 4242 4242 4242')).status).toBe(303);
    await checkoutApplied(twin(), client, second.json.id);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data.map((s) => s.status)).toEqual(['active']);
  });
});
