// The console's Users resource on the twin: credit grants (one per Idempotency-Key, naming the
// admin and the reason's category, promotional lots; a testing grant earns nothing), plan changes and disabling recorded in the audit with the admin's email, and a disabled
// person's sign-in refused by the user pool until an admin enables the account again.
import { randomUUID } from 'node:crypto';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { seedUser } from '../../../infra/local/provision';
import { AdminUserDetail } from '../../../events/accounts';
import { GRANT_CATEGORY_MESSAGE } from '../../../events/account-values';
import { PROMOTIONAL_LOT, TESTING_LOT } from '../../../events/plans';
import { creditLedger } from '../../../functions/accounts/credits';
import { NO_PENDING_PLAN_REQUEST_MESSAGE } from '../../../functions/accounts/routes/decline-plan-request/service';
import { GRANT_KEY_REQUIRED_MESSAGE, TALENT_HAS_NO_CREDITS_MESSAGE } from '../../../functions/accounts/routes/grant-credits/service';
import { TALENT_HAS_NO_PLAN_MESSAGE } from '../../../functions/accounts/routes/update-user/service';
import { accountStore, ACCOUNT_NOT_FOUND_MESSAGE } from '../../../functions/accounts/store';
import { cognitoClient, documentClient, idToken, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

jest.setTimeout(180_000);
const twin = useTwin();
const run = fileMarker('users');
const PASSWORD = 'Str0ng!Passw0rd-users';

let adminToken: string;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${twin().urls.api}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** A person in the pool with their account (as PostConfirmation creates it), keyed by their `sub`. */
async function person(name: string, role: 'client' | 'talent'): Promise<{ id: string; email: string }> {
  const email = `${name}.${run}@people.example`;
  const { sub } = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: [role], attributes: { 'custom:role': role } });
  const { created } = await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: sub!, email, full_name: `${name} ${run}`, role });
  expect(created).toBe(true);
  return { id: sub!, email };
}

const signIn = (email: string) =>
  cognitoClient(twin()).send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin().clientIds.web, AuthParameters: { USERNAME: email, PASSWORD: PASSWORD } }));

beforeAll(async () => {
  adminToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
});

describe("the console's Users resource", () => {
  it('grants credits once per Idempotency-Key, with a ledger line and an audit entry naming the admin and the category', async () => {
    const client = await person('grant', 'client');
    const key = randomUUID();
    const grant = { credits: 25, category: 'goodwill', reason: `Launch thanks ${run}` };
    const [first, second] = await Promise.all([
      call('POST', `/users/${client.id}/credits`, grant, { 'idempotency-key': key }),
      call('POST', `/users/${client.id}/credits`, grant, { 'idempotency-key': key }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    expect(first.json.entry.id).toBe(second.json.entry.id);
    expect(first.json).toMatchObject({ balance: 35, entry: { kind: 'grant', credits: 25, balanceAfter: 35, reason: grant.reason, by: twin().admin.email } });

    const detail = await call('GET', `/users/${client.id}`);
    expect(detail.status).toBe(200);
    const parsed = AdminUserDetail.parse(detail.json);
    expect(parsed.balance).toBe(35);
    expect(parsed.ledger.filter((e) => e.reason === grant.reason)).toHaveLength(1);
    expect(parsed.audit).toEqual([expect.objectContaining({ action: 'credits-granted', by: twin().admin.email, detail: `25 credits (goodwill): ${grant.reason}` })]);

    // Another key is another grant. A grant for testing is a lot worth nothing that earns talent nothing.
    const third = await call('POST', `/users/${client.id}/credits`, { credits: 5, category: 'testing', reason: 'QA run' }, { 'idempotency-key': randomUUID() });
    expect(third).toMatchObject({ status: 201, json: { balance: 40 } });
    const ledger = creditLedger(documentClient(twin()), twin().physicalName('AccountsTable'));
    // The sign-up's Free credits expire (decision 043); an admin's grant does not, so they stay apart.
    expect(await ledger.lots(client.id)).toEqual([{ credits: 10, ...PROMOTIONAL_LOT, expiresAt: expect.any(String) }, { credits: 25, ...PROMOTIONAL_LOT }, { credits: 5, ...TESTING_LOT }]);
  });

  it('refuses a grant without an Idempotency-Key, a grant to talent, and an unknown account, naming what is wrong', async () => {
    const client = await person('nokey', 'client');
    const talent = await person('nocredits', 'talent');
    expect(await call('POST', `/users/${client.id}/credits`, { credits: 5, category: 'goodwill', reason: 'Thanks' })).toEqual({
      status: 400,
      json: { error: GRANT_KEY_REQUIRED_MESSAGE, fields: { 'Idempotency-Key': GRANT_KEY_REQUIRED_MESSAGE } },
    });
    expect(await call('POST', `/users/${client.id}/credits`, { credits: 0, category: 'goodwill', reason: 'Thanks' }, { 'idempotency-key': 'k' })).toMatchObject({
      status: 400,
      json: { fields: { credits: 'credits must be at least 1' } },
    });
    // The reason's category is required and one of the list.
    for (const body of [{ credits: 5, reason: 'Thanks' }, { credits: 5, category: 'bribe', reason: 'Thanks' }]) {
      expect(await call('POST', `/users/${client.id}/credits`, body, { 'idempotency-key': 'k' })).toMatchObject({ status: 400, json: { fields: { category: GRANT_CATEGORY_MESSAGE } } });
    }
    expect(await call('POST', `/users/${talent.id}/credits`, { credits: 5, category: 'goodwill', reason: 'Thanks' }, { 'idempotency-key': 'k' })).toEqual({
      status: 409,
      json: { error: TALENT_HAS_NO_CREDITS_MESSAGE },
    });
    expect(await call('GET', `/users/${randomUUID()}`)).toEqual({ status: 404, json: { error: ACCOUNT_NOT_FOUND_MESSAGE } });
  });

  it("sets a client's plan with an audit entry naming the admin; a talent account has no plan", async () => {
    const client = await person('plan', 'client');
    const talent = await person('noplan', 'talent');
    const set = await call('PATCH', `/users/${client.id}`, { plan: 'pro' });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({ id: client.id, plan: 'pro' });
    expect(set.json.audit).toEqual([expect.objectContaining({ action: 'plan-changed', by: twin().admin.email, detail: 'Free -> Pro' })]);
    expect(await call('PATCH', `/users/${talent.id}`, { plan: 'pro' })).toEqual({ status: 409, json: { error: TALENT_HAS_NO_PLAN_MESSAGE } });
    expect(await call('PATCH', `/users/${client.id}`, { plan: 'gold' })).toMatchObject({ status: 400, json: { fields: { plan: expect.stringContaining('plan must be one of') } } });
  });

  it("disables an account: sign-in fails on the pool, the audit names the admin and the reason; enabling lets them in again", async () => {
    const client = await person('disable', 'client');
    expect((await signIn(client.email)).AuthenticationResult?.IdToken).toBeTruthy();

    const disabled = await call('POST', `/users/${client.id}/disable`, { reason: 'Chargeback' });
    expect(disabled.status).toBe(200);
    expect(disabled.json).toMatchObject({ disabled: true });
    expect(disabled.json.audit).toEqual([expect.objectContaining({ action: 'disabled', by: twin().admin.email, detail: 'Chargeback' })]);
    await expect(signIn(client.email)).rejects.toMatchObject({ name: 'NotAuthorizedException' });

    // A repeated click records nothing new.
    expect((await call('POST', `/users/${client.id}/disable`, {})).json.audit).toHaveLength(1);

    const enabled = await call('POST', `/users/${client.id}/enable`);
    expect(enabled.json).toMatchObject({ disabled: false });
    expect(enabled.json.audit.map((a: { action: string }) => a.action)).toEqual(['enabled', 'disabled']);
    expect((await signIn(client.email)).AuthenticationResult?.IdToken).toBeTruthy();
  });

  it("declines or approves a client's plan request, recorded in the audit; nothing pending is a 409", async () => {
    const client = await person('request', 'client');
    const accounts = accountStore(documentClient(twin()), twin().physicalName('AccountsTable'));
    await accounts.requestPlan(client.id, 'pro');
    const pending = await call('GET', `/users?q=request.${run}&planRequest=pending`);
    expect(pending.json.items).toEqual([expect.objectContaining({ id: client.id, planRequest: expect.objectContaining({ plan: 'pro', status: 'pending' }) })]);

    const declined = await call('POST', `/users/${client.id}/plan-request/decline`);
    expect(declined.status).toBe(200);
    expect(declined.json).toMatchObject({ plan: 'free' });
    expect(declined.json.planRequest).toBeUndefined();
    expect(declined.json.audit).toEqual([expect.objectContaining({ action: 'plan-request-declined', by: twin().admin.email })]);
    expect(await call('POST', `/users/${client.id}/plan-request/decline`)).toEqual({ status: 409, json: { error: NO_PENDING_PLAN_REQUEST_MESSAGE } });

    // Approving is setting the requested plan: the request is closed with it.
    await accounts.requestPlan(client.id, 'starter');
    const approved = await call('PATCH', `/users/${client.id}`, { plan: 'starter' });
    expect(approved.json).toMatchObject({ plan: 'starter' });
    expect(approved.json.planRequest).toBeUndefined();
    expect((await call('GET', `/users?q=request.${run}&planRequest=pending`)).json).toEqual({ items: [], total: 0 });
  });

  it('lists accounts by a part of the email, with role and plan filters and each client’s balance', async () => {
    const client = await person('listed', 'client');
    await person('listedtalent', 'talent');
    const all = await call('GET', `/users?q=${encodeURIComponent(`.${run}@`)}&limit=100`);
    expect(all.status).toBe(200);
    const mine = all.json.items.find((u: { id: string }) => u.id === client.id);
    expect(mine).toMatchObject({ email: client.email, role: 'client', plan: 'free', balance: 10, disabled: false });
    const talent = await call('GET', `/users?q=listedtalent.${run}&role=client`);
    expect(talent.json).toEqual({ items: [], total: 0 });
    const byPlan = await call('GET', `/users?q=listed.${run}&plan=free`);
    expect(byPlan.json.items.map((u: { id: string }) => u.id)).toEqual([client.id]);
    expect(await call('GET', '/users?role=admin')).toMatchObject({ status: 400, json: { fields: { role: expect.any(String) } } });
  });
});
