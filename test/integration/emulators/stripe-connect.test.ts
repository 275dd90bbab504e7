import * as http from 'node:http';
import Stripe from 'stripe';
import { startStripe, type StripeEmulator } from '../../../infra/local/emulators/stripe';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { useTwin } from '../../support/twin';

jest.setTimeout(60_000);

/** A webhook endpoint of the test's own: keeps each request's raw body and signature. */
async function receiver() {
  const received: Array<{ signature: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ signature: String(req.headers['stripe-signature']), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/stripe-connect`,
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
function client(endpoint: string, key: string): Stripe {
  const url = new URL(endpoint);
  return new Stripe(key, { host: url.hostname, port: Number(url.port), protocol: 'http' });
}

const SITE = 'http://127.0.0.1:4000';
const RETURN_URL = `${SITE}/talent-portal?payouts=return`;
const REFRESH_URL = `${SITE}/talent-portal?payouts=refresh`;
const GOOD_BANK = '000123456789';

/** The hosted onboarding page's form, posted as the browser posts it. */
function postOnboarding(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
}

const completeForm = (accountNumber = GOOD_BANK) => ({
  first_name: 'Maya',
  last_name: 'Chen',
  dob: '1990-01-15',
  ssn_last_4: '0000',
  routing_number: '110000000',
  account_number: accountNumber,
  action: 'submit',
});

/** A connected account as the payouts wing makes one (controller properties of an Express account). */
function createAccount(stripe: Stripe, talentId: string) {
  return stripe.accounts.create(
    {
      controller: { stripe_dashboard: { type: 'express' }, fees: { payer: 'application' }, losses: { payments: 'application' }, requirement_collection: 'stripe' },
      capabilities: { transfers: { requested: true } },
      business_type: 'individual',
      email: `${talentId}@example.com`,
      metadata: { talentId },
    },
    { idempotencyKey: `connect-account:${talentId}` },
  );
}

function onboardingLink(stripe: Stripe, account: string) {
  return stripe.accountLinks.create({ account, type: 'account_onboarding', refresh_url: REFRESH_URL, return_url: RETURN_URL, collection_options: { fields: 'eventually_due' } });
}

/** Fills the hosted onboarding page in full; answers the active account. */
async function onboard(stripe: Stripe, account: string, accountNumber = GOOD_BANK): Promise<Stripe.Account> {
  const link = await onboardingLink(stripe, account);
  const sent = await postOnboarding(link.url, completeForm(accountNumber));
  expect(sent.status).toBe(303);
  expect(sent.headers.get('location')).toBe(RETURN_URL);
  return stripe.accounts.retrieve(account);
}

const errorOf = async (p: Promise<unknown>): Promise<Stripe.errors.StripeError> => {
  try {
    await p;
  } catch (err) {
    return err as Stripe.errors.StripeError;
  }
  throw new Error('expected the call to fail');
};

const objectOf = (e: Stripe.Event) => e.data.object as unknown as { id: string; object: string; [k: string]: unknown };

describe('Stripe emulator: Connect on the shared twin, through the official client', () => {
  const twin = useTwin();
  const marker = fileMarker('stripe-connect');
  let stripe: Stripe;
  let connectHooks: Receiver;
  let platformHooks: Receiver;
  let connectEndpoint: Stripe.WebhookEndpoint;
  let platformEndpoint: Stripe.WebhookEndpoint;
  const connectEvents = (account: string) => connectHooks.events(connectEndpoint.secret!).filter((e) => e.account === account);
  const waitForConnect = (account: string, type: string, test: (e: Stripe.Event) => boolean = () => true) =>
    eventually(() => connectEvents(account).find((e) => e.type === type && test(e)), { what: `${type} on ${account}`, timeoutMs: 10_000 });

  beforeAll(async () => {
    const config = await twin().stripe.config();
    stripe = client(twin().urls.stripe, config.secretKey);
    connectHooks = await receiver();
    platformHooks = await receiver();
    connectEndpoint = await twin().stripe.addWebhookEndpoint({ url: connectHooks.url, connect: true });
    platformEndpoint = await stripe.webhookEndpoints.create({ url: platformHooks.url, enabled_events: ['*'], description: marker });
  });
  afterAll(async () => {
    if (platformEndpoint) await stripe.webhookEndpoints.del(platformEndpoint.id);
    if (connectEndpoint) await stripe.webhookEndpoints.del(connectEndpoint.id);
    await connectHooks?.close();
    await platformHooks?.close();
  });

  it('onboards a connected account on the hosted page: active, with its bank account, its events signed for Connect endpoints only', async () => {
    const acct = await createAccount(stripe, `${marker}-maya`);
    expect(acct).toMatchObject({ object: 'account', type: 'express', details_submitted: false, payouts_enabled: false, capabilities: { transfers: 'inactive' }, metadata: { talentId: `${marker}-maya` } });
    expect(acct.controller).toMatchObject({ stripe_dashboard: { type: 'express' }, requirement_collection: 'stripe', losses: { payments: 'application' } });
    expect(acct.requirements?.currently_due).toEqual(expect.arrayContaining(['external_account', 'individual.ssn_last_4', 'individual.first_name']));
    expect(acct.requirements?.disabled_reason).toBe('requirements.past_due');
    // The same idempotency key gives the same account.
    expect((await createAccount(stripe, `${marker}-maya`)).id).toBe(acct.id);

    const link = await onboardingLink(stripe, acct.id);
    expect(link.object).toBe('account_link');
    expect(link.expires_at).toBeGreaterThan(link.created);
    const page = await fetch(link.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const label of ['First name', 'Last name', 'Date of birth', 'Last 4 digits of your Social Security number', 'Routing number', 'Account number', 'Save and finish later']) {
      expect(html).toContain(label);
    }

    // A form with fields missing is shown again with what is wrong, and changes nothing.
    const incomplete = await postOnboarding(link.url, { ...completeForm(), ssn_last_4: '12', routing_number: '' });
    expect(incomplete.status).toBe(400);
    const errors = await incomplete.text();
    expect(errors).toContain('Enter the last 4 digits of your Social Security number');
    expect(errors).toContain('Enter the 9-digit routing number');
    expect((await stripe.accounts.retrieve(acct.id)).details_submitted).toBe(false);

    const sent = await postOnboarding(link.url, completeForm());
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(RETURN_URL);
    const active = await stripe.accounts.retrieve(acct.id);
    expect(active).toMatchObject({ details_submitted: true, payouts_enabled: true, capabilities: { transfers: 'active' } });
    expect(active.requirements?.currently_due).toEqual([]);
    expect(active.requirements?.disabled_reason).toBeNull();
    const bank = active.external_accounts!.data[0] as Stripe.BankAccount;
    expect(bank).toMatchObject({ object: 'bank_account', last4: '6789', routing_number: '110000000', status: 'new', account: acct.id });

    // The events happened on the connected account: signed for the Connect endpoint, carrying the account.
    const created = await waitForConnect(acct.id, 'account.external_account.created');
    expect(objectOf(created)).toMatchObject({ id: bank.id, last4: '6789' });
    const updated = await waitForConnect(acct.id, 'account.updated', (e) => (e.data.object as Stripe.Account).details_submitted);
    expect(updated.data.previous_attributes).toMatchObject({ details_submitted: false, payouts_enabled: false });
    // ... and never reach the platform's own endpoint.
    expect(platformHooks.events(platformEndpoint.secret!).filter((e) => JSON.stringify(e).includes(acct.id))).toEqual([]);

    // A used link sends the browser to the refresh URL.
    const again = await fetch(link.url, { redirect: 'manual' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(REFRESH_URL);
    const postedAgain = await postOnboarding(link.url, completeForm());
    expect(postedAgain.headers.get('location')).toBe(REFRESH_URL);
  });

  it('"Save and finish later" keeps what was given and leaves the rest due', async () => {
    const acct = await createAccount(stripe, `${marker}-later`);
    const link = await onboardingLink(stripe, acct.id);
    const sent = await postOnboarding(link.url, { first_name: 'Noor', last_name: 'Haddad', dob: '', ssn_last_4: '', routing_number: '', account_number: '', action: 'later' });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(RETURN_URL);
    const saved = await stripe.accounts.retrieve(acct.id);
    expect(saved).toMatchObject({ details_submitted: false, payouts_enabled: false, capabilities: { transfers: 'inactive' } });
    expect(saved.requirements?.currently_due).toEqual(expect.arrayContaining(['external_account', 'individual.ssn_last_4', 'individual.dob.day', 'tos_acceptance.date']));
    expect(saved.requirements?.currently_due).not.toContain('individual.first_name');
    // A new link shows the saved name.
    const next = await onboardingLink(stripe, acct.id);
    expect(await (await fetch(next.url)).text()).toContain('value="Noor"');
  });

  it('a transfer is listed by its group, announced to the platform, and paid out to the bank account on the connected account', async () => {
    const acct = await createAccount(stripe, `${marker}-paid`);
    await onboard(stripe, acct.id);
    const group = `payouts:${marker}`;
    const tr = await stripe.transfers.create(
      { amount: 4_250, currency: 'usd', destination: acct.id, transfer_group: group, metadata: { statementId: `${marker}-s1`, talentId: `${marker}-paid` } },
      { idempotencyKey: `payout:${marker}-s1` },
    );
    expect(tr).toMatchObject({ object: 'transfer', amount: 4_250, currency: 'usd', destination: acct.id, transfer_group: group, amount_reversed: 0, reversed: false });
    expect((await stripe.transfers.list({ transfer_group: group })).data.map((t) => t.id)).toEqual([tr.id]);
    expect((await stripe.transfers.list({ destination: acct.id })).data.map((t) => t.id)).toEqual([tr.id]);
    expect((await stripe.transfers.retrieve(tr.id)).metadata).toEqual({ statementId: `${marker}-s1`, talentId: `${marker}-paid` });

    // transfer.created is the platform's event.
    await eventually(() => platformHooks.events(platformEndpoint.secret!).find((e) => e.type === 'transfer.created' && objectOf(e).id === tr.id), { what: 'transfer.created' });

    // The connected account's automatic payout: created, then paid, each announced on the account.
    const paid = await waitForConnect(acct.id, 'payout.paid');
    const payout = paid.data.object as Stripe.Payout;
    expect(payout).toMatchObject({ amount: 4_250, currency: 'usd', status: 'paid', automatic: true, failure_code: null });
    await waitForConnect(acct.id, 'payout.created', (e) => objectOf(e).id === payout.id);
    const listed = await stripe.payouts.list({}, { stripeAccount: acct.id });
    expect(listed.data.map((p) => [p.id, p.status])).toEqual([[payout.id, 'paid']]);
    expect((await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: acct.id })).amount).toBe(4_250);
    const connectedBalance = await stripe.balance.retrieve({}, { stripeAccount: acct.id });
    expect(connectedBalance.available).toEqual([expect.objectContaining({ amount: 0, currency: 'usd' })]);
    // The connected account's events are listed on the account, not the platform.
    expect((await stripe.events.list({ type: 'payout.paid' }, { stripeAccount: acct.id })).data.map((e) => objectOf(e).id)).toContain(payout.id);
    expect((await stripe.events.list({ type: 'payout.paid', limit: 100 })).data.map((e) => objectOf(e).id)).not.toContain(payout.id);
  });

  it('a bank account that cannot be paid fails the payout, disables payouts until the talent gives another one', async () => {
    const acct = await createAccount(stripe, `${marker}-bank`);
    await onboard(stripe, acct.id, '000111111116');
    await stripe.transfers.create({ amount: 1_500, currency: 'usd', destination: acct.id, transfer_group: `payouts:${marker}-bank` });
    const failed = await waitForConnect(acct.id, 'payout.failed');
    expect(failed.data.object).toMatchObject({ status: 'failed', failure_code: 'no_account', amount: 1_500 });
    expect((failed.data.object as Stripe.Payout).failure_message).toMatch(/No bank account could be located/);
    await waitForConnect(acct.id, 'account.external_account.updated', (e) => objectOf(e).status === 'errored');
    const disabled = await eventually(async () => {
      const a = await stripe.accounts.retrieve(acct.id);
      return !a.payouts_enabled && a;
    });
    expect(disabled.requirements?.currently_due).toContain('external_account');
    expect((await stripe.balance.retrieve({}, { stripeAccount: acct.id })).available[0].amount).toBe(1_500);

    // Another bank account through a new link: created, the old one deleted, and the waiting balance paid out.
    const old = disabled.external_accounts!.data[0];
    const fixed = await onboard(stripe, acct.id, GOOD_BANK);
    expect(fixed.payouts_enabled).toBe(true);
    expect(fixed.external_accounts!.data.map((b) => (b as Stripe.BankAccount).last4)).toEqual(['6789']);
    await waitForConnect(acct.id, 'account.external_account.created', (e) => objectOf(e).last4 === '6789');
    await waitForConnect(acct.id, 'account.external_account.deleted', (e) => objectOf(e).id === old.id);
    const paid = await waitForConnect(acct.id, 'payout.paid');
    expect(paid.data.object).toMatchObject({ amount: 1_500, status: 'paid' });
  });

  it('refuses a transfer to an account whose transfers capability is not active, and replays that answer for its idempotency key', async () => {
    const acct = await createAccount(stripe, `${marker}-new`);
    const key = `payout:${marker}-refused`;
    const params = { amount: 2_000, currency: 'usd', destination: acct.id, transfer_group: `payouts:${marker}-refused` };
    const refused = await errorOf(stripe.transfers.create(params, { idempotencyKey: key }));
    expect(refused.statusCode).toBe(400);
    expect(refused.code).toBe('insufficient_capabilities_for_transfer');
    expect(refused.message).toMatch(/needs to have at least one of the following capabilities enabled: transfers/);
    await onboard(stripe, acct.id);
    // Stripe saved the answer: the same key answers the same error even once the account can receive.
    const replayed = await errorOf(stripe.transfers.create(params, { idempotencyKey: key }));
    expect(replayed.code).toBe('insufficient_capabilities_for_transfer');
    expect(replayed.headers?.['idempotent-replayed']).toBe('true');
    // A new key makes the transfer; nothing was made before.
    const tr = await stripe.transfers.create(params, { idempotencyKey: `${key}:2` });
    expect((await stripe.transfers.list({ transfer_group: params.transfer_group })).data.map((t) => t.id)).toEqual([tr.id]);
    // An unknown destination is refused by name.
    const unknown = await errorOf(stripe.transfers.create({ ...params, destination: 'acct_nobody' }));
    expect(unknown.message).toBe("No such destination: 'acct_nobody'");
  });

  it('replays a transfer for its idempotency key, once, and refuses the key with other parameters', async () => {
    const acct = await createAccount(stripe, `${marker}-replay`);
    await onboard(stripe, acct.id);
    const params = { amount: 3_000, currency: 'usd', destination: acct.id, transfer_group: `payouts:${marker}-replay`, metadata: { statementId: `${marker}-s2` } };
    const first = await stripe.transfers.create(params, { idempotencyKey: `payout:${marker}-s2` });
    const second = await stripe.transfers.create(params, { idempotencyKey: `payout:${marker}-s2` });
    expect(second.id).toBe(first.id);
    expect((await stripe.transfers.list({ transfer_group: params.transfer_group })).data).toHaveLength(1);
    const other = await errorOf(stripe.transfers.create({ ...params, amount: 3_001 }, { idempotencyKey: `payout:${marker}-s2` }));
    expect(other.type).toBe('StripeIdempotencyError');
  });

  it('serves the Stripe-Account header where Connect reads a connected account, and refuses an unknown account', async () => {
    const acct = await createAccount(stripe, `${marker}-header`);
    const unknown = await errorOf(stripe.balance.retrieve({}, { stripeAccount: 'acct_nobody' }));
    expect(unknown.statusCode).toBe(403);
    expect(unknown.code).toBe('account_invalid');
    const elsewhere = await errorOf(stripe.customers.list({}, { stripeAccount: acct.id }));
    expect(elsewhere.message).toMatch(/Stripe-Account header on GET \/v1\/balance, \/v1\/payouts and \/v1\/events only/);
    // account_update links are for accounts whose platform collects requirements.
    const update = await errorOf(stripe.accountLinks.create({ account: acct.id, type: 'account_update', refresh_url: REFRESH_URL, return_url: RETURN_URL }));
    expect(update.message).toMatch(/account_onboarding/);
  });
});

describe('Stripe emulator: the platform balance and its faults, on an emulator of its own', () => {
  let emulator: StripeEmulator;
  let stripe: Stripe;

  beforeAll(async () => {
    emulator = await startStripe({ webhookRetryDelaysMs: [20, 40, 80] });
    stripe = client(emulator.endpoint, emulator.secretKey);
  });
  afterEach(() => emulator.clear());
  afterAll(async () => {
    await emulator?.stop();
  });

  it('takes transfers from the platform balance and refuses them with balance_insufficient when it is too low or a fault says so', async () => {
    const start = await stripe.balance.retrieve();
    expect(start.available).toEqual([expect.objectContaining({ amount: 100_000_000, currency: 'usd' })]);
    const acct = await createAccount(stripe, 'balance-talent');
    await onboard(stripe, acct.id);

    emulator.inject({ kind: 'insufficient-balance' });
    const key = 'payout:balance-s1';
    const params = { amount: 12_345, currency: 'usd', destination: acct.id, transfer_group: 'payouts:2030-01' };
    const refused = await errorOf(stripe.transfers.create(params, { idempotencyKey: key }));
    expect(refused.statusCode).toBe(400);
    expect(refused.code).toBe('balance_insufficient');
    expect(refused.message).toMatch(/insufficient available funds/);
    expect((await stripe.balance.retrieve()).available[0].amount).toBe(100_000_000);
    // The fault took one transfer; the same key still replays the refusal, a new key goes through.
    expect((await errorOf(stripe.transfers.create(params, { idempotencyKey: key }))).code).toBe('balance_insufficient');
    await stripe.transfers.create(params, { idempotencyKey: `${key}:2` });
    expect((await stripe.balance.retrieve()).available[0].amount).toBe(100_000_000 - 12_345);

    // More than the balance holds is refused, and takes nothing.
    expect((await errorOf(stripe.transfers.create({ ...params, amount: 99_999_999 }))).code).toBe('balance_insufficient');
    expect((await stripe.balance.retrieve()).available[0].amount).toBe(100_000_000 - 12_345);

    // A fault for another destination leaves this one alone.
    emulator.inject({ kind: 'insufficient-balance', destination: 'acct_someone_else' });
    await stripe.transfers.create({ ...params, amount: 5 });
    expect((await stripe.transfers.list({ transfer_group: 'payouts:2030-01' })).data.map((t) => t.amount)).toEqual([5, 12_345]);
  });

  it('an expired link sends the browser to its refresh URL', async () => {
    const acct = await createAccount(stripe, 'expiry-talent');
    const link = await onboardingLink(stripe, acct.id);
    emulator.advanceClock({ seconds: link.expires_at - link.created + 1 });
    const page = await fetch(link.url, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(REFRESH_URL);
    expect((await stripe.accounts.retrieve(acct.id)).details_submitted).toBe(false);
  });

  it('a reversal takes a transfer back and announces transfer.reversed to the platform', async () => {
    const hooks = await receiver();
    try {
      const endpoint = emulator.addWebhookEndpoint({ url: hooks.url });
      const acct = await createAccount(stripe, 'reversal-talent');
      await onboard(stripe, acct.id);
      const before = (await stripe.balance.retrieve()).available[0].amount;
      const tr = await stripe.transfers.create({ amount: 800, currency: 'usd', destination: acct.id });
      await stripe.transfers.createReversal(tr.id, { amount: 300 });
      expect(await stripe.transfers.retrieve(tr.id)).toMatchObject({ amount_reversed: 300, reversed: false });
      expect((await stripe.balance.retrieve()).available[0].amount).toBe(before - 500);
      const reversed = await eventually(() => hooks.events(endpoint.secret!).find((e) => e.type === 'transfer.reversed'), { what: 'transfer.reversed' });
      expect(reversed.account).toBeUndefined();
      expect(reversed.data.object).toMatchObject({ id: tr.id, amount_reversed: 300 });
    } finally {
      await hooks.close();
    }
  });
});
