// Refunds and disputes on the twin (docs/payments.md#refunds-and-disputes): a client buys credit
// packs through Checkout on the Stripe emulator's page; the console refunds through Stripe and the
// credits go back only when Stripe's verified `charge.refunded` event lands, in proportion, from
// that purchase's own lot, never below zero; credits already spent flag the account; a lost
// dispute takes back the rest.
import Stripe from 'stripe';
import { AdminBillingResponse, AdminRefundResponse } from '../../../events/payments';
import { creditLedger } from '../../../functions/accounts/credits';
import { accountStore } from '../../../functions/accounts/store';
import { ALREADY_REFUNDED_MESSAGE, amountTooLargeMessage, DISPUTED_MESSAGE, PAYMENT_NOT_FOUND_MESSAGE } from '../../../functions/payments/routes/refund-payment/service';
import { paymentsStore, type StoredPayment } from '../../../functions/payments/store';
import { seedUser } from '../../../infra/local/provision';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { checkoutAndPay, checkoutApplied, clockedCustomer, newClient } from './money';

jest.setTimeout(240_000);
const twin = useTwin();
const run = fileMarker('refunds');
const PASSWORD = 'Str0ng!Passw0rd-refunds';
/** A Starter client's pack of 50 credits at 40 cents each. */
const PACK_CENTS = 2000;

let adminToken: string;
let stripe: Stripe;

const tables = () => {
  const doc = documentClient(twin());
  return {
    accounts: accountStore(doc, twin().physicalName('AccountsTable')),
    ledger: creditLedger(doc, twin().physicalName('AccountsTable')),
    payments: paymentsStore(doc, twin().physicalName('PaymentsTable')),
  };
};

interface Client {
  id: string;
  email: string;
  token: string;
}

/** A client in the pool with their account (10 Free credits), on Starter as an admin set it. */
async function starterClient(name: string): Promise<Client> {
  const email = `${name}.${run}@people.example`;
  const { sub } = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], attributes: { 'custom:role': 'client' } });
  await tables().accounts.create({ id: sub!, email, full_name: `${name} ${run}`, role: 'client' });
  const plan = await callApi(twin(), adminToken, 'PATCH', `/admin/users/${sub}`, { plan: 'starter' });
  expect(plan.status).toBe(200);
  return { id: sub!, email, token: await idToken(twin(), email, PASSWORD, 'web') };
}

/** Buys one pack of 50 credits through Checkout, paid with 4242 on the emulator's page; answers the payment once its event was applied. */
async function buyPack(client: Client): Promise<StoredPayment> {
  const before = new Set((await tables().payments.paymentsOf(client.id)).map((p) => p.paymentIntentId));
  const checkout = await callApi(twin(), client.token, 'POST', '/me/checkout-sessions', { kind: 'credits', pack: 50, quantity: 1 });
  expect(checkout.status).toBe(201);
  const paid = await fetch(checkout.json.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Ada Client', number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' }),
  });
  expect(paid.status).toBe(303);
  return eventually(async () => (await tables().payments.paymentsOf(client.id)).find((p) => !before.has(p.paymentIntentId)), {
    what: `the pack payment of ${client.email} recorded by its checkout event`,
    timeoutMs: 60_000,
  });
}

/** Spends credits as a generation does: reserved, then committed (oldest lots first). */
async function spend(client: Client, credits: number): Promise<void> {
  const generationId = `gen-${run}-${client.id.slice(0, 8)}-${credits}`;
  await tables().ledger.reserve(client.id, { credits, key: `reserve:${generationId}`, generationId, reason: 'Test generation' });
  await tables().ledger.commit(client.id, { credits, key: `commit:${generationId}`, generationId, reason: 'Test generation' });
}

const balanceOf = (client: Client) => tables().ledger.balance(client.id);
const payment = async (id: string) => (await tables().payments.getPayment(id))!;
const chargeOf = async (paymentIntentId: string) => (await stripe.charges.list({ payment_intent: paymentIntentId, limit: 1 })).data[0];
const refund = (paymentIntentId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  callApi(twin(), adminToken, 'POST', `/admin/payments/${paymentIntentId}/refund`, body, headers);
const billingOf = async (client: Client) => {
  const answer = await callApi(twin(), adminToken, 'GET', `/admin/users/${client.id}/billing`);
  expect(answer.status).toBe(200);
  return AdminBillingResponse.parse(answer.json);
};

beforeAll(async () => {
  adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  const url = new URL(twin().urls.stripe);
  stripe = new Stripe((await twin().stripe.config()).secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
});

describe('refunds from the console', () => {
  it('take back unspent credits only once Stripe confirms, reading the refunded total then', async () => {
    const client = await starterClient('partial');
    const bought = await buyPack(client);
    expect(bought).toMatchObject({ kind: 'credits', amountCents: PACK_CENTS, credits: 50 });
    expect(await balanceOf(client)).toBe(60);
    const charge = await chargeOf(bought.paymentIntentId);

    // The first refund's event is lost on its way: the refund happened at Stripe, the credits stay.
    await twin().stripe.inject({ kind: 'lose-delivery', times: 1, types: ['charge.refunded'], objectIncludes: charge.id });
    const first = await refund(bought.paymentIntentId, { reason: `Asked by the client ${run}`, amountCents: 500 }, { 'idempotency-key': `first-${run}` });
    expect(first.status).toBe(201);
    expect(AdminRefundResponse.parse(first.json)).toMatchObject({ amountCents: 500, remainingCents: 1500, message: expect.stringContaining('when Stripe confirms') });
    await eventually(async () => (await twin().stripe.deliveries({ type: 'charge.refunded', objectId: charge.id })).find((d) => d.status === 'lost'), {
      what: 'the lost charge.refunded delivery',
    });
    expect(await balanceOf(client)).toBe(60);
    expect(await payment(bought.paymentIntentId)).toMatchObject({ refundedCents: 0, creditsTakenBack: 0 });

    // The same click again (same key) refunds nothing more at Stripe.
    const again = await refund(bought.paymentIntentId, { reason: `Asked by the client ${run}`, amountCents: 500 }, { 'idempotency-key': `first-${run}` });
    expect(again.status).toBe(201);
    expect(again.json.refundId).toBe(first.json.refundId);
    expect((await chargeOf(bought.paymentIntentId)).amount_refunded).toBe(500);

    // The second refund's event reads the charge as it is now: $10 of $20 refunded, 25 credits.
    const second = await refund(bought.paymentIntentId, { reason: `Second part ${run}`, amountCents: 500 });
    expect(second.status).toBe(201);
    const applied = await eventually(async () => {
      const p = await payment(bought.paymentIntentId);
      return p.creditsTakenBack > 0 ? p : undefined;
    }, { what: 'the credits taken back after the refund event' });
    expect(applied).toMatchObject({ refundedCents: 1000, status: 'partially_refunded', creditsTakenBack: 25, creditsShortfall: 0 });
    expect(await balanceOf(client)).toBe(35);

    const billing = await billingOf(client);
    expect(billing.spentRefundedCredits).toBe(0);
    const listed = billing.payments.find((p) => p.id === bought.paymentIntentId);
    expect(listed).toMatchObject({ status: 'partially_refunded', refundedCents: 1000, credits: 50, creditsTakenBack: 25, receiptUrl: expect.any(String) });
    // Who asked for each refund, once each (the repeated click is the same refund).
    expect(listed?.refunds?.map((r) => [r.by, r.amountCents, r.reason])).toEqual([
      [twin().admin.email, 500, `Asked by the client ${run}`],
      [twin().admin.email, 500, `Second part ${run}`],
    ]);

    // More than is left: refused, naming the most that can be refunded.
    const tooMuch = await refund(bought.paymentIntentId, { reason: `Too much ${run}`, amountCents: 1001 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.error).toBe(amountTooLargeMessage(1000));
  });

  it('never go below zero: credits already spent are the shortfall, and the account is flagged', async () => {
    const client = await starterClient('spent');
    const bought = await buyPack(client);
    // 10 Free credits are the oldest: spending 55 leaves 5 of the pack.
    await spend(client, 55);
    expect(await balanceOf(client)).toBe(5);

    const answer = await refund(bought.paymentIntentId, { reason: `Whole refund ${run}` });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ amountCents: PACK_CENTS, remainingCents: 0 });
    const applied = await eventually(async () => {
      const p = await payment(bought.paymentIntentId);
      return p.creditsTakenBack + p.creditsShortfall > 0 ? p : undefined;
    }, { what: 'the whole refund applied' });
    expect(applied).toMatchObject({ status: 'refunded', refundedCents: PACK_CENTS, creditsTakenBack: 5, creditsShortfall: 45 });
    expect(await balanceOf(client)).toBe(0);

    const billing = await billingOf(client);
    expect(billing.spentRefundedCredits).toBe(45);
    expect(billing.payments.find((p) => p.id === bought.paymentIntentId)).toMatchObject({ status: 'refunded', creditsShortfall: 45 });
    expect((await tables().payments.flaggedAccounts()).find((f) => f.accountId === client.id)).toEqual({ accountId: client.id, spentCredits: 45 });

    const twice = await refund(bought.paymentIntentId, { reason: `Again ${run}` });
    expect(twice.status).toBe(409);
    expect(twice.json.error).toBe(ALREADY_REFUNDED_MESSAGE);
  });

  it('take back the credits a running generation holds: its release drops them, its commits spend the others first (decision 049)', async () => {
    const client = await starterClient('reserved');
    const bought = await buyPack(client);
    expect(await balanceOf(client)).toBe(60);
    // A generation of 60 images holds everything: the 10 Free credits (oldest) and the 50 of the pack.
    const generationId = `gen-${run}-reserved`;
    await tables().ledger.reserve(client.id, { credits: 60, key: `gen:${generationId}:reserve`, generationId, reason: 'Test generation' });
    expect(await balanceOf(client)).toBe(0);

    expect((await refund(bought.paymentIntentId, { reason: `Refund while generating ${run}` })).status).toBe(201);
    const applied = await eventually(async () => {
      const p = await payment(bought.paymentIntentId);
      return p.creditsTakenBack + p.creditsShortfall > 0 ? p : undefined;
    }, { what: 'the whole refund applied' });
    // Claimed from the generation, not spent: nothing is a shortfall and the account is not flagged.
    expect(applied).toMatchObject({ status: 'refunded', creditsTakenBack: 50, creditsShortfall: 0 });
    expect((await tables().payments.flaggedAccounts()).find((f) => f.accountId === client.id)).toBeUndefined();
    expect(await tables().ledger.reservation(client.id, generationId)).toMatchObject({ open: 60, takenBack: 50 });

    // The generation delivers 4 images (paid with the Free credits) and releases the rest.
    for (let i = 0; i < 4; i++) {
      const commit = await tables().ledger.commitOne(client.id, { key: `gen:${generationId}:commit:${i}`, generationId, reason: 'Image' }, () => []);
      expect(commit.claimed).toBeUndefined();
    }
    const released = await tables().ledger.release(client.id, { credits: 56, key: `gen:${generationId}:release`, generationId, reason: 'Generation: credits returned' });
    expect(released).toMatchObject({ entry: { kind: 'release', credits: 6 } });
    expect(released.claimed?.reduce((n, l) => n + l.credits, 0)).toBe(50);
    // Only the 6 Free credits left come back: the refunded 50 never return.
    expect(await balanceOf(client)).toBe(6);
  });

  it('do not count credits that expired unspent as spent: no shortfall, no flag', async () => {
    const client = await newClient(twin(), run, 'expired');
    await clockedCustomer(twin(), stripe, client, run);
    const sessionId = await checkoutAndPay(twin(), client, { kind: 'plan', plan: 'starter' });
    await checkoutApplied(twin(), client, sessionId);
    const invoicePaid = await eventually(async () => (await tables().payments.paymentsOf(client.id)).find((p) => p.kind === 'subscription' && p.credits > 0), {
      what: 'the first invoice of the plan recorded',
      timeoutMs: 60_000,
    });
    // Long after: the daily sweep expires the invoice's 80 plan credits, never spent.
    const later = creditLedger(documentClient(twin()), twin().physicalName('AccountsTable'), () => new Date('2031-06-01T00:00:00.000Z'));
    const swept = await later.expire(client.id);
    expect(swept.expired.filter((l) => l.source === invoicePaid.source).reduce((n, l) => n + l.credits, 0)).toBe(80);

    expect((await refund(invoicePaid.paymentIntentId, { reason: `Refund of expired credits ${run}` })).status).toBe(201);
    // Asked back: all 80, none on the balance, none spent.
    const applied = await eventually(async () => {
      const p = await tables().payments.chargedPayment(invoicePaid.paymentIntentId);
      return p && p.creditsClaimed > 0 ? p : undefined;
    }, { what: 'the refund of the invoice applied' });
    expect(applied).toMatchObject({ status: 'refunded', creditsClaimed: 80, creditsTakenBack: 0, creditsShortfall: 0 });
    expect((await tables().payments.flaggedAccounts()).find((f) => f.accountId === client.id)).toBeUndefined();
  });

  it('answer 404 for a payment we never recorded, and refuse a body without a reason', async () => {
    const missing = await refund('pi_neverpaid', { reason: `Nothing ${run}` });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toBe(PAYMENT_NOT_FOUND_MESSAGE);
    const noReason = await refund('pi_neverpaid', { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.json.fields).toEqual({ reason: 'Give a reason for the refund.' });
  });
});

describe('disputes', () => {
  it('an open dispute keeps the credits; a lost one takes back what is unspent', async () => {
    const client = await starterClient('dispute');
    const bought = await buyPack(client);
    await spend(client, 20);
    expect(await balanceOf(client)).toBe(40);

    const dispute = await twin().stripe.openDispute({ paymentIntent: bought.paymentIntentId, reason: 'fraudulent' });
    await eventually(async () => ((await payment(bought.paymentIntentId)).status === 'disputed' ? true : undefined), { what: 'the payment marked disputed' });
    expect(await balanceOf(client)).toBe(40);
    const refused = await refund(bought.paymentIntentId, { reason: `During a dispute ${run}` });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe(DISPUTED_MESSAGE);

    await stripe.disputes.close(dispute.id);
    const lost = await eventually(async () => {
      const p = await payment(bought.paymentIntentId);
      return p.status === 'dispute_lost' && p.creditsTakenBack + p.creditsShortfall > 0 ? p : undefined;
    }, { what: 'the lost dispute applied' });
    // 20 spent: the Free 10 first, then 10 of the pack; its other 40 go back.
    expect(lost).toMatchObject({ creditsTakenBack: 40, creditsShortfall: 10 });
    expect(await balanceOf(client)).toBe(0);
    expect((await billingOf(client)).spentRefundedCredits).toBe(10);
  });
});
