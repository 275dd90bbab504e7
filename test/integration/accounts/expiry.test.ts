// Plan credits expire, purchases are taken back, the Free plan comes monthly to active accounts
// and Stripe sets the plans it bills (decision 043), on the twin: DynamoDB Local, the real
// trigger functions through their schedules, and cognito-local's post-authentication trigger.
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { seedUser } from '../../../infra/local/provision';
import { PROMOTIONAL_LOT, planLot } from '../../../events/plans';
import { accountKeys } from '../../../functions/accounts/keys';
import { accountStore } from '../../../functions/accounts/store';
import { creditLedger, InsufficientCreditsError } from '../../../functions/accounts/credits';
import { grantMonthlyAllowance } from '../../../functions/accounts/triggers/monthly-allowance/service';
import { documentClient, idToken, useTwin } from '../../support/twin';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';

jest.setTimeout(240_000);
const twin = useTwin();
const run = fileMarker('expiry');
const PASSWORD = 'Str0ng!Passw0rd-expiry';
const STARTER = planLot('starter');
const HOUR = 3_600_000;

const table = () => twin().physicalName('AccountsTable');
const doc = () => documentClient(twin());
/** The stores with a clock of the test's own (the real time when none is given). */
const stores = (now?: () => Date) => ({ accounts: accountStore(doc(), table(), now), ledger: creditLedger(doc(), table(), now) });

/** A new client of this file's own, created at `at`. */
async function newClient(at?: Date, who = 'client'): Promise<string> {
  const id = randomUUID();
  await stores(at && (() => at)).accounts.create({ id, email: `${who}.${id.slice(0, 8)}.${run}@people.example`, full_name: 'Expiry Test', role: 'client' });
  return id;
}

const entriesOf = async (id: string) => (await stores().ledger.entries(id, { limit: 100 })).entries;
const profileOf = async (id: string) => (await doc().send(new GetCommand({ TableName: table(), Key: accountKeys.profile(id), ConsistentRead: true }))).Item;

describe('credit expiry', () => {
  it('the sign-up grant expires at the end of the following month; an expired lot stops counting at once and leaves in the next change, just before it', async () => {
    let clock = Date.parse('2027-01-10T09:00:00.000Z');
    const { ledger } = stores(() => new Date(clock));
    const id = await newClient(new Date(clock));
    expect(await entriesOf(id)).toEqual([expect.objectContaining({ kind: 'grant', credits: 10, reason: 'Free plan credits', expiresAt: '2027-02-28T23:59:59.999Z' })]);

    await ledger.grant(id, { credits: 5, key: 'starter-jan', reason: 'Starter plan credits for 2027-01', lot: { ...STARTER, expiresAt: '2027-01-20T00:00:00.000Z' } });
    expect(await ledger.balance(id)).toBe(15);
    clock = Date.parse('2027-01-20T00:00:00.000Z');
    // Due now: not spendable, before any entry says so.
    expect(await ledger.balance(id)).toBe(10);
    expect(await ledger.lots(id)).toEqual([{ credits: 10, ...PROMOTIONAL_LOT, expiresAt: '2027-02-28T23:59:59.999Z' }]);
    await expect(ledger.reserve(id, { credits: 11, key: 'too-many', generationId: 'g0', reason: 'Images' })).rejects.toEqual(new InsufficientCreditsError(11, 10));

    await ledger.reserve(id, { credits: 2, key: 'r1', generationId: 'g1', reason: 'Images' });
    const [reserve, expire, grant] = await entriesOf(id);
    expect(expire).toMatchObject({ kind: 'expire', credits: -5, balanceAfter: 10, reason: '5 Starter plan credits expired' });
    expect(reserve).toMatchObject({ kind: 'reserve', credits: -2, balanceAfter: 8 });
    expect(grant).toMatchObject({ kind: 'grant', credits: 5, expiresAt: '2027-01-20T00:00:00.000Z' });
    // The sweep finds nothing more to expire.
    expect(await ledger.expire(id)).toEqual({ balance: 8, expired: [] });

    // Credits reserved before their expiry and returned after it expire as they come back.
    clock = Date.parse('2027-03-01T00:00:00.000Z');
    await ledger.release(id, { credits: 2, key: 'l1', generationId: 'g1', reason: 'Not delivered' });
    const [late, release, early] = await entriesOf(id);
    expect(early).toMatchObject({ kind: 'expire', credits: -8, balanceAfter: 0, reason: '8 Free plan credits expired' });
    expect(release).toMatchObject({ kind: 'release', credits: 2, balanceAfter: 2 });
    expect(late).toMatchObject({ kind: 'expire', credits: -2, balanceAfter: 0, reason: '2 Free plan credits expired' });
    expect(await ledger.balance(id)).toBe(0);
  });

  it('expire() writes one entry naming every kind that expired, and nothing when nothing is due', async () => {
    let clock = Date.parse('2027-05-02T00:00:00.000Z');
    const { ledger } = stores(() => new Date(clock));
    const id = await newClient(new Date(clock));
    await ledger.grant(id, { credits: 1, key: 'pro', reason: 'Pro plan credits', lot: { ...planLot('pro'), expiresAt: '2027-05-31T23:59:59.999Z' } });
    await ledger.grant(id, { credits: 3, key: 'pack', reason: 'Credit pack', lot: { ...STARTER, source: 'checkout:cs_pack' } });
    clock = Date.parse('2027-07-01T00:00:00.000Z');
    const swept = await ledger.expire(id);
    expect(swept.entry).toMatchObject({ kind: 'expire', credits: -11, balanceAfter: 3, reason: '10 Free plan credits and 1 Pro plan credit expired' });
    expect(await ledger.expire(id)).toEqual({ balance: 3, expired: [] });
    // Bought credits never expire.
    expect(await ledger.lots(id)).toEqual([{ credits: 3, ...STARTER, source: 'checkout:cs_pack' }]);
    expect((await entriesOf(id)).filter((e) => e.kind === 'expire')).toHaveLength(1);
  });

  it('refuses a lot whose expiry or source is not valid, naming the field', async () => {
    const { ledger } = stores();
    const id = await newClient();
    await expect(ledger.grant(id, { credits: 1, key: 'bad-expiry', reason: 'x', lot: { ...STARTER, expiresAt: 'next month' } })).rejects.toMatchObject({
      status: 400,
      message: 'lot.expiresAt must be an ISO time such as 2027-01-31T23:59:59.999Z (got next month)',
    });
    await expect(ledger.grant(id, { credits: 1, key: 'bad-source', reason: 'x', lot: { ...STARTER, source: '' } })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^lot\.source must be 1 to 200 characters/) });
    await expect(ledger.takeBack(id, { credits: 1, key: 'no-source', source: 'x'.repeat(201), reason: 'Refund' })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^source must be 1 to 200 characters/) });
    expect(await entriesOf(id)).toHaveLength(1);
  });

  it('the daily schedule expires what is due on every client balance', async () => {
    const id = await newClient();
    // Granted two days ago, due yesterday: nobody changed this balance since.
    const past = stores(() => new Date(Date.now() - 48 * HOUR)).ledger;
    await past.grant(id, { credits: 4, key: 'old-starter', reason: 'Starter plan credits', lot: { ...STARTER, expiresAt: new Date(Date.now() - 24 * HOUR).toISOString() } });
    expect(await stores().ledger.balance(id)).toBe(10);
    await twin().events.runScheduled('CreditExpirySchedule');
    await twin().idle();
    const expire = await eventually(async () => (await entriesOf(id)).find((e) => e.kind === 'expire'), { what: 'the expire entry of the sweep' });
    expect(expire).toMatchObject({ credits: -4, balanceAfter: 10, reason: '4 Starter plan credits expired' });
    const item = (await doc().send(new GetCommand({ TableName: table(), Key: accountKeys.balance(id), ConsistentRead: true }))).Item;
    expect(item).toMatchObject({ credits: 10, lots: [expect.objectContaining({ credits: 10, kind: 'promotional' })] });
  });
});

describe('take-back', () => {
  it('takes back the unspent credits of a source and claims its reserved ones, never spent ones, once per key, and still writes an entry when none are left', async () => {
    const { ledger } = stores();
    const id = await newClient();
    await ledger.grant(id, { credits: 10, key: 'pack', reason: 'Credit pack', lot: { ...STARTER, source: 'checkout:cs_1' } });
    await ledger.grant(id, { credits: 2, key: 'pack2', reason: 'Credit pack', lot: { ...STARTER, source: 'checkout:cs_2' } });
    // 10 Free credits and 2 of the pack spent, 1 more of the pack in flight.
    await ledger.reserve(id, { credits: 12, key: 'r-spent', generationId: 'spent', reason: 'Images' });
    await ledger.commit(id, { credits: 12, key: 'c-spent', generationId: 'spent', reason: 'Images' });
    await ledger.reserve(id, { credits: 1, key: 'r-flight', generationId: 'flight', reason: 'Image' });

    const refund = { key: 'refund:re_1', source: 'checkout:cs_1', credits: 10, reason: 'Refund of a credit pack' };
    const first = await ledger.takeBack(id, refund);
    // 7 off the balance and the 1 in flight claimed from its generation (decision 049); the 2 spent are the shortfall.
    expect(first).toMatchObject({ takenBack: 8, shortfall: 2, balance: 2, replayed: false, entry: { kind: 'take-back', credits: -7, balanceAfter: 2, reason: 'Refund of a credit pack' } });
    expect(await ledger.lots(id)).toEqual([{ credits: 2, ...STARTER, source: 'checkout:cs_2' }]);
    expect(await ledger.takeBack(id, refund)).toEqual({ ...first, replayed: true });
    await expect(ledger.takeBack(id, { ...refund, source: 'checkout:cs_2' })).rejects.toMatchObject({ status: 409 });

    // Nothing of that purchase is left: an entry of 0 explains the refund in the history.
    const again = await ledger.takeBack(id, { ...refund, key: 'dispute:dp_1', reason: 'Dispute lost' });
    expect(again).toMatchObject({ takenBack: 0, shortfall: 10, balance: 2, entry: { kind: 'take-back', credits: 0, balanceAfter: 2 } });
    expect(await ledger.balance(id)).toBe(2);
    // The credit in flight does not come back when its generation fails: it was taken back.
    await ledger.release(id, { credits: 1, key: 'l-flight', generationId: 'flight', reason: 'Not delivered' });
    expect(await ledger.lots(id)).toEqual([{ credits: 2, ...STARTER, source: 'checkout:cs_2' }]);
    expect(await ledger.balance(id)).toBe(2);
  });
});

describe('monthly credits', () => {
  /** The service over this file's clients only: the real store and ledger, its list narrowed to this run. */
  const allowance = async (time: string) => {
    const { accounts, ledger } = stores();
    const mine = { list: (query: Parameters<typeof accounts.list>[0]) => accounts.list({ ...query, q: run }) };
    return grantMonthlyAllowance({ accounts: mine, ledger, now: () => new Date() }, { time });
  };
  const grantsOf = async (id: string) => (await entriesOf(id)).filter((e) => e.kind === 'grant').map((e) => `${e.credits} ${e.reason}${e.expiresAt ? ` until ${e.expiresAt}` : ''}`);

  it('the Free plan: 10 promotional credits to Free clients who signed in during the month before, once; admin-set plans their allowance; Stripe subscribers nothing', async () => {
    const { accounts } = stores();
    const admin = { sub: 'admin', email: 'admin@humanly.example' };
    const created = new Date('2027-01-05T10:00:00.000Z');
    const active = await newClient(created, 'active');
    const dormant = await newClient(created, 'dormant');
    const lapsed = await newClient(created, 'lapsed');
    const newcomer = await newClient(new Date('2027-03-01T00:01:00.000Z'), 'newcomer');
    const adminSet = await newClient(created, 'adminset');
    const subscriber = await newClient(created, 'subscriber');
    await accounts.recordSignIn(active, new Date('2027-02-14T08:00:00.000Z'));
    await accounts.recordSignIn(lapsed, new Date('2026-12-20T08:00:00.000Z'));
    await accounts.recordSignIn(newcomer, new Date('2027-03-01T00:02:00.000Z'));
    await accounts.setPlan(adminSet, 'starter', admin);
    await accounts.setBillingPlan(subscriber, 'starter', { subscriptionId: 'sub_expiry_1', reason: 'Subscription started' });

    const first = await allowance('2027-03-01T00:05:00.000Z');
    expect(first).toMatchObject({ month: '2027-03', granted: 2 });
    expect(await allowance('2027-03-01T00:05:00.000Z')).toMatchObject({ granted: 0, alreadyGranted: 2 });

    expect(await grantsOf(active)).toEqual(['10 Free plan credits for 2027-03 until 2027-04-30T23:59:59.999Z', '10 Free plan credits until 2027-02-28T23:59:59.999Z']);
    expect((await stores().ledger.lots(active))[1]).toEqual({ credits: 10, ...PROMOTIONAL_LOT, expiresAt: '2027-04-30T23:59:59.999Z' });
    expect(await grantsOf(adminSet)).toEqual(['80 Starter plan credits for 2027-03 until 2027-04-30T23:59:59.999Z', '10 Free plan credits until 2027-02-28T23:59:59.999Z']);
    // Dormant, lapsed (signed in two months before), new this month (its sign-up grant is the month's), billed by Stripe.
    for (const id of [dormant, lapsed, newcomer, subscriber]) expect(await grantsOf(id)).toHaveLength(1);
  });

  it('the monthly schedule on the twin grants an admin-set plan its allowance and a Stripe subscriber nothing', async () => {
    const { accounts } = stores();
    const adminSet = await newClient(undefined, 'twin-adminset');
    const subscriber = await newClient(undefined, 'twin-subscriber');
    await accounts.setPlan(adminSet, 'pro', { sub: 'admin', email: 'admin@humanly.example' });
    await accounts.setBillingPlan(subscriber, 'pro', { subscriptionId: 'sub_expiry_2', reason: 'Subscription started' });
    await twin().events.runScheduled('MonthlyAllowanceSchedule');
    await twin().idle();
    const month = new Date().toISOString().slice(0, 7);
    await eventually(async () => (await grantsOf(adminSet)).some((g) => g.startsWith(`300 Pro plan credits for ${month}`)), { what: "the admin-set Pro client's allowance" });
    expect(await grantsOf(subscriber)).toHaveLength(1);
  });
});

describe('plans set by Stripe', () => {
  it('setBillingPlan sets the plan and billing with an audit entry by Stripe; the same again writes nothing; Free without a subscription ends billing', async () => {
    const { accounts } = stores();
    const id = await newClient();
    await accounts.requestPlan(id, 'pro');
    expect(await accounts.setBillingPlan(id, 'pro', { subscriptionId: 'sub_expiry_3', reason: 'Checkout completed' })).toMatchObject({ plan: 'pro', billing: 'stripe', subscriptionId: 'sub_expiry_3' });
    expect(await accounts.setBillingPlan(id, 'pro', { subscriptionId: 'sub_expiry_3', reason: 'Invoice paid' })).toMatchObject({ plan: 'pro', billing: 'stripe' });
    expect(await accounts.pendingPlanRequest(id)).toBeUndefined();
    const ended = await accounts.setBillingPlan(id, 'free', { reason: 'Subscription ended' });
    expect(ended).toMatchObject({ plan: 'free' });
    expect(ended.billing).toBeUndefined();
    expect(ended.subscriptionId).toBeUndefined();
    const detail = await accounts.detail(id);
    expect(detail?.billing).toBeUndefined();
    expect(detail?.audit).toEqual([
      expect.objectContaining({ by: 'Stripe', action: 'plan-changed', detail: 'Pro -> Free: Subscription ended' }),
      expect.objectContaining({ by: 'Stripe', action: 'plan-changed', detail: 'Free -> Pro: Checkout completed' }),
    ]);

    const talent = randomUUID();
    await accounts.create({ id: talent, email: `talent.${talent.slice(0, 8)}.${run}@people.example`, full_name: 'Talent', role: 'talent' });
    await expect(accounts.setBillingPlan(talent, 'pro', { subscriptionId: 'sub_x', reason: 'x' })).rejects.toMatchObject({ status: 409, message: 'Only client accounts have a plan.' });
    await expect(accounts.setBillingPlan(randomUUID(), 'pro', { subscriptionId: 'sub_x', reason: 'x' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('sign-ins', () => {
  it("the pool's post-authentication trigger records each sign-in on the profile, and creates no account that is not stored", async () => {
    const email = `signin.${run}@people.example`;
    const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], name: 'Sign In' });
    await stores().accounts.create({ id: user.sub!, email, full_name: 'Sign In', role: 'client' });
    expect((await profileOf(user.sub!))?.lastSignInAt).toBeUndefined();

    const before = Date.now();
    await idToken(twin(), email, PASSWORD, 'web');
    const first = await eventually(async () => (await profileOf(user.sub!))?.lastSignInAt as string | undefined, { what: 'the recorded sign-in' });
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1000);
    await idToken(twin(), email, PASSWORD, 'web');
    await eventually(async () => ((await profileOf(user.sub!))?.lastSignInAt as string) > first, { what: 'the second sign-in recorded' });
    expect((await stores().accounts.detail(user.sub!))?.lastSignInAt).toBeDefined();

    // A person with no account stored yet signs in: nothing is written.
    const bare = await seedUser(twin().urls.cognito, twin().userPoolId, { email: `bare.${run}@people.example`, password: PASSWORD, groups: [], name: 'Bare' });
    await idToken(twin(), `bare.${run}@people.example`, PASSWORD, 'web');
    expect(await profileOf(bare.sub!)).toBeUndefined();
  });
});
