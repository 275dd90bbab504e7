// The console's billing views on the twin: a client's subscription and payments with Stripe's
// receipts, and the dashboard's revenue (this month's payments less refunds, the monthly price of
// every live subscription, flagged accounts). Admins only.
import { AdminBillingResponse, RevenueResponse } from '../../../events/payments';
import { PLANS } from '../../../events/plans';
import { accountStore } from '../../../functions/accounts/store';
import { revenue } from '../../../functions/payments/routes/get-revenue/service';
import { paymentsStore } from '../../../functions/payments/store';
import { seedUser } from '../../../infra/local/provision';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';

jest.setTimeout(240_000);
const twin = useTwin();
const run = fileMarker('console');
const PASSWORD = 'Str0ng!Passw0rd-console';
const price = (plan: string) => PLANS.find((p) => p.id === plan)!.monthlyPriceCents;

let adminToken: string;
const store = () => paymentsStore(documentClient(twin()), twin().physicalName('PaymentsTable'));

async function client(name: string): Promise<{ id: string; email: string; token: string }> {
  const email = `${name}.${run}@people.example`;
  const { sub } = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: sub!, email, full_name: `${name} ${run}`, role: 'client' });
  return { id: sub!, email, token: await idToken(twin(), email, PASSWORD, 'web') };
}

beforeAll(async () => {
  adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
});

describe("a client's billing in the console", () => {
  it('shows the subscription bought through Checkout, its first invoice paid with a receipt, and no flag', async () => {
    const person = await client('subscriber');
    const empty = await callApi(twin(), adminToken, 'GET', `/admin/users/${person.id}/billing`);
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ payments: [], spentRefundedCredits: 0 });

    const checkout = await callApi(twin(), person.token, 'POST', '/me/checkout-sessions', { kind: 'plan', plan: 'starter' });
    expect(checkout.status).toBe(201);
    const paid = await fetch(checkout.json.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'Ada Client', number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' }),
    });
    expect(paid.status).toBe(303);

    const billing = await eventually(async () => {
      const answer = await callApi(twin(), adminToken, 'GET', `/admin/users/${person.id}/billing`);
      const parsed = AdminBillingResponse.parse(answer.json);
      return parsed.subscription && parsed.payments.length > 0 ? parsed : undefined;
    }, { what: 'the subscription and its first payment in the console', timeoutMs: 60_000 });
    expect(billing.customerId).toMatch(/^cus_/);
    expect(billing.subscription).toMatchObject({ plan: 'starter', state: 'active', id: expect.stringMatching(/^sub_/) });
    expect(Date.parse(billing.subscription!.currentPeriodEnd)).toBeGreaterThan(Date.now());
    expect(billing.payments).toEqual([
      expect.objectContaining({ kind: 'subscription', amountCents: price('starter'), credits: 80, status: 'paid', refundedCents: 0, invoiceId: expect.stringMatching(/^in_/), receiptUrl: expect.any(String) }),
    ]);
    expect(billing.spentRefundedCredits).toBe(0);

    // The dashboard counts it among the live subscriptions.
    const figures = await callApi(twin(), adminToken, 'GET', '/admin/revenue');
    expect(figures.status).toBe(200);
    const parsed = RevenueResponse.parse(figures.json);
    expect(parsed.activeSubscriptions).toBeGreaterThanOrEqual(1);
    expect(parsed.recurringCents).toBeGreaterThanOrEqual(price('starter'));
    expect(parsed.monthToDateCents).toBeGreaterThanOrEqual(price('starter'));
  });

  it('answers 404 for an account that does not exist', async () => {
    const answer = await callApi(twin(), adminToken, 'GET', `/admin/users/00000000-0000-4000-8000-${run.slice(-12).padStart(12, '0')}/billing`);
    expect(answer.status).toBe(404);
    expect(answer.json.error).toBe('Account not found');
  });

  it("is for admins only: a client's token (the site's app client) is refused by the console's authorizer", async () => {
    const person = await client('nosy');
    for (const [method, path, body] of [
      ['GET', `/admin/users/${person.id}/billing`, undefined],
      ['GET', '/admin/revenue', undefined],
      ['POST', '/admin/payments/pi_anything/refund', { reason: 'mine' }],
    ] as const) {
      expect((await callApi(twin(), person.token, method, path, body)).status).toBe(401);
      expect((await callApi(twin(), undefined, method, path, body)).status).toBe(401);
    }
  });
});

describe('revenue', () => {
  it("sums a month's payments less their refunds, and the price of live subscriptions only", async () => {
    // A month of this file's own (far away), so the figures are exactly its payments.
    const month = `${2200 + Math.floor(Math.random() * 7000)}-0${1 + Math.floor(Math.random() * 9)}`;
    const at = `${month}-10T12:00:00.000Z`;
    const base = { kind: 'credits' as const, description: 'Pack', credits: 50, at };
    for (const [i, amountCents] of [2000, 1750, 3500].entries()) {
      await store().recordPayment({ ...base, paymentIntentId: `pi_${run}_${i}`, accountId: `acct-${run}-${i}`, amountCents, source: `checkout:cs_${run}_${i}`, grantKey: `checkout:cs_${run}_${i}` });
    }
    await store().updatePayment(`pi_${run}_1`, { refundedCents: 700, status: 'partially_refunded' });
    await store().updatePayment(`pi_${run}_2`, { refundedCents: 3500, status: 'refunded' });

    const mirrors = [
      { plan: 'starter', state: 'active' },
      { plan: 'pro', state: 'past_due' },
      { plan: 'enterprise', state: 'canceling' },
      { plan: 'pro', state: 'ended' },
    ] as const;
    for (const [i, m] of mirrors.entries()) {
      await store().putSubscription({
        accountId: `acct-${run}-sub${i}`,
        subscriptionId: `sub_${run}_${i}`,
        customerId: `cus_${run}_${i}`,
        plan: m.plan,
        status: m.state === 'ended' ? 'canceled' : m.state === 'canceling' ? 'active' : m.state,
        state: m.state,
        currentPeriodStart: at,
        currentPeriodEnd: at,
        priceCents: price(m.plan),
      });
    }
    const mine = (accountId: string) => accountId.startsWith(`acct-${run}-`);
    const figures = await revenue({
      payments: {
        paymentsInMonth: (m) => store().paymentsInMonth(m),
        subscriptions: async () => (await store().subscriptions()).filter((s) => mine(s.accountId)),
        flaggedAccounts: async () => (await store().flaggedAccounts()).filter((f) => mine(f.accountId)),
      },
      now: () => new Date(at),
    });
    expect(figures).toEqual({
      month,
      monthToDateCents: 2000 + (1750 - 700) + 0,
      recurringCents: price('starter') + price('pro') + price('enterprise'),
      activeSubscriptions: 3,
      flaggedAccounts: 0,
    });
  });
});
