// The account store on DynamoDB Local: the console's list and detail, plan changes with their
// audit, plan requests, disabling (functions/accounts/store.ts, decision 021).
import { randomUUID } from 'node:crypto';
import { accountStore } from '../../../functions/accounts/store';
import { creditLedger } from '../../../functions/accounts/credits';
import { PROMOTIONAL_LOT } from '../../../events/plans';
import { documentClient, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

jest.setTimeout(120_000);
const twin = useTwin();
const marker = fileMarker('st');
const admin = { sub: 'admin-sub', email: 'reviewer@people.example' };

const stores = () => {
  const table = twin().physicalName('AccountsTable');
  const doc = documentClient(twin());
  return { accounts: accountStore(doc, table), ledger: creditLedger(doc, table) };
};
const query = (over: Record<string, unknown> = {}) => ({ q: marker, order: 'DESC' as const, offset: 0, limit: 25, ...over });

describe('account store', () => {
  const ids = { client: randomUUID(), pro: randomUUID(), talent: randomUUID() };

  beforeAll(async () => {
    const { accounts } = stores();
    await accounts.create({ id: ids.client, email: `client.${marker}@people.example`, full_name: 'Cara Client', role: 'client' });
    await accounts.create({ id: ids.pro, email: `pro.${marker}@people.example`, full_name: 'Pat Pro', role: 'client' });
    await accounts.create({ id: ids.talent, email: `talent.${marker}@people.example`, full_name: 'Tom Talent', role: 'talent' });
  });

  it('lists by part of the email (any case), role, plan and pending request, with balances for clients', async () => {
    const { accounts } = stores();
    const all = await accounts.list(query({ q: marker.toUpperCase() }));
    expect(all.total).toBe(3);
    expect(all.items.map((i) => i.id)).toEqual([ids.talent, ids.pro, ids.client]);
    const talent = all.items.find((i) => i.id === ids.talent)!;
    expect(talent).toEqual({ id: ids.talent, email: `talent.${marker}@people.example`, full_name: 'Tom Talent', role: 'talent', disabled: false, createdAt: expect.any(String) });
    expect(all.items.find((i) => i.id === ids.client)).toMatchObject({ role: 'client', plan: 'free', balance: 10 });

    expect((await accounts.list(query({ role: 'talent' }))).items.map((i) => i.id)).toEqual([ids.talent]);
    expect((await accounts.list(query({ order: 'ASC', limit: 1, offset: 1 })))).toMatchObject({ total: 3, items: [{ id: ids.pro }] });

    const request = await accounts.requestPlan(ids.pro, 'pro');
    expect(await accounts.pendingPlanRequest(ids.pro)).toEqual(request);
    expect((await accounts.list(query({ planRequest: 'pending' }))).items).toEqual([expect.objectContaining({ id: ids.pro, planRequest: request })]);

    await accounts.setPlan(ids.pro, 'pro', admin);
    expect((await accounts.list(query({ plan: 'pro' }))).items.map((i) => i.id)).toEqual([ids.pro]);
    // The plan change closed the request.
    expect(await accounts.pendingPlanRequest(ids.pro)).toBeUndefined();
    expect((await accounts.list(query({ planRequest: 'pending' }))).total).toBe(0);
  });

  it('finds an account by its email whatever the case', async () => {
    expect((await stores().accounts.findByEmail(`CLIENT.${marker}@People.Example`))?.id).toBe(ids.client);
    expect(await stores().accounts.findByEmail(`nobody.${marker}@people.example`)).toBeUndefined();
  });

  it('detail: the summary, the latest ledger lines and every admin change, newest first', async () => {
    const { accounts, ledger } = stores();
    await ledger.grant(ids.client, { credits: 5, key: `grant-${marker}`, reason: 'Goodwill', lot: PROMOTIONAL_LOT, by: admin });
    await accounts.requestPlan(ids.client, 'starter');
    await accounts.declinePlanRequest(ids.client, admin);
    await accounts.setDisabled(ids.client, true, admin, 'Chargeback');
    await accounts.setDisabled(ids.client, false, admin);
    const detail = await accounts.detail(ids.client);
    expect(detail).toMatchObject({ id: ids.client, balance: 15, disabled: false, plan: 'free' });
    expect(detail!.planRequest).toBeUndefined();
    expect(detail!.ledger.map((e) => [e.kind, e.credits, e.balanceAfter, e.by])).toEqual([
      ['grant', 5, 15, admin.email],
      ['grant', 10, 10, undefined],
    ]);
    expect(detail!.audit.map((a) => [a.action, a.detail, a.by])).toEqual([
      ['enabled', 'Enabled', admin.email],
      ['disabled', 'Chargeback', admin.email],
      ['plan-request-declined', 'Request for the Starter plan declined', admin.email],
      ['credits-granted', '5 credits: Goodwill', admin.email],
    ]);
    expect(await accounts.detail(randomUUID())).toBeUndefined();
  });

  it('refuses changes to unknown accounts and plans for talent', async () => {
    const { accounts } = stores();
    await expect(accounts.setPlan(randomUUID(), 'pro', admin)).rejects.toMatchObject({ status: 404 });
    await expect(accounts.updateProfile(randomUUID(), { full_name: 'X' })).rejects.toMatchObject({ status: 404 });
    await expect(accounts.setPlan(ids.talent, 'pro', admin)).rejects.toMatchObject({ status: 409 });
    await expect(accounts.declinePlanRequest(ids.talent, admin)).rejects.toMatchObject({ status: 409 });
    expect((await accounts.detail(ids.talent))!.audit).toEqual([]);
  });
});
