/**
 * Exclusive contracts on the twin (docs/royalties.md#exclusive-contracts): an admin records one
 * in the console's API; while it is in force the library hides the talent, only the brand
 * generates (CheckPolicy in the real workflow), the brand's create page gets the talent from
 * GET /me/exclusive-talent, the talent cannot request removal; when the term ends the likeness
 * schedule archives it, the talent is emailed and listed again.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { seedUser } from '../../../infra/local/provision';
import { FINAL_STATUSES, TALENT_UNDER_CONTRACT_MESSAGE } from '../../../events/generation-values';
import { Generation, GenerationStarted } from '../../../events/generations';
import { ExclusiveContractResponse } from '../../../events/likeness';
import { CONTRACT_EXISTS_MESSAGE, CONTRACT_NOT_CLIENT_MESSAGE, CONTRACT_TERM_MESSAGE } from '../../../events/royalty-values';
import { TalentListResponse } from '../../../events/talent';
import { accountStore } from '../../../functions/accounts/store';
import { royaltyStore } from '../../../functions/royalties/store';
import { talentStore } from '../../../functions/catalog/store';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

jest.setTimeout(180_000);
const twin = useTwin();
const run = fileMarker('frz');
const PASSWORD = 'Str0ng!Passw0rd-frz';
const talentId = `frozen-${run}`;
const talentEmail = `frozen.talent.${run}@people.example`;

const call = (token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => callApi(twin(), token, method, path, body, headers);

async function person(who: string, role: 'client' | 'talent', email = `frz.${who}.${run}@people.example`) {
  const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: [role], name: `Frz ${who}`, attributes: { 'custom:role': role } });
  if (role === 'client') await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: user.sub!, email, full_name: `Frz ${who}`, role });
  return { sub: user.sub!, token: await idToken(twin(), email, PASSWORD, 'web') };
}

/** The generation once final. */
function finished(id: string, token: string): Promise<Generation> {
  return eventually(
    async () => {
      const generation = Generation.parse((await call(token, 'GET', `/generations/${id}`)).json);
      if (!FINAL_STATUSES.includes(generation.status)) throw new Error(`generation ${id} still ${generation.status}`);
      return generation;
    },
    { timeoutMs: 90_000, what: `generation ${id} to finish` },
  );
}

const listed = async () => TalentListResponse.parse((await call(undefined, 'GET', '/talent')).json).talent.some((t) => t.id === talentId);
const emailsToTalent = async () => (await twin().emails()).filter((m) => m.to.includes(talentEmail)).map((m) => m.subject);

it('records a contract: hidden from the library, only the brand generates, no removal; at the end of the term it lifts, archived and emailed', async () => {
  const doc = documentClient(twin());
  const talentTable = twin().physicalName('CatalogTalentTable');
  // A listed talent with a model, accepted from an application that holds their email.
  const { applicationId } = await createAcceptedTalent(twin(), { email: talentEmail, talentId, firstName: 'Frida', lastName: `Frozen ${run}`, founding: false, marker: `frz-${run}` });
  await doc.send(
    new UpdateCommand({
      TableName: talentTable,
      Key: { id: talentId },
      UpdateExpression: 'SET #s = :active, generation = :g, applicationId = :app',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':active': 'active', ':g': { model: 'humanly-preview/maya-chen', triggerWord: 'FRZWRD' }, ':app': applicationId },
    }),
  );
  const [brand, rival, talent, admin] = await Promise.all([
    person('brand', 'client'),
    person('rival', 'client'),
    person('talent', 'talent', talentEmail),
    idToken(twin(), twin().admin.email, twin().admin.password, 'admin'),
  ]);
  expect(await listed()).toBe(true);

  // Refusals name what is wrong; only the console's admins reach the route.
  const path = `/admin/talent/${talentId}/exclusive-contract`;
  // Long enough for everything below to happen inside the term on any machine: the test brings the
  // end nearer once it is done (below), instead of waiting out a term guessed to fit.
  const until = new Date(Date.now() + 3_600_000).toISOString();
  expect(await call(admin, 'POST', path, { accountId: brand.sub, brandName: 'Acme', until: new Date(Date.now() - 1000).toISOString() })).toMatchObject({ status: 400, json: { fields: { until: CONTRACT_TERM_MESSAGE } } });
  expect(await call(admin, 'POST', path, { accountId: randomUUID(), brandName: 'Acme', until })).toMatchObject({ status: 400, json: { fields: { accountId: CONTRACT_NOT_CLIENT_MESSAGE } } });
  expect(await call(admin, 'POST', path, { brandName: 'Acme', until })).toMatchObject({ status: 400, json: { fields: { accountId: 'accountId is required' } } });
  // A site token is not the console's: the admin authorizer refuses it.
  expect((await call(brand.token, 'POST', path, { accountId: brand.sub, brandName: 'Acme', until })).status).toBe(401);

  const recorded = await call(admin, 'POST', path, { accountId: brand.sub, brandName: `Acme ${run}`, until });
  expect(recorded.status).toBe(201);
  const contract = ExclusiveContractResponse.parse(recorded.json).current!;
  expect(contract).toMatchObject({ accountId: brand.sub, brandName: `Acme ${run}`, until, recordedBy: twin().admin.email });
  expect(contract.startNotifiedAt).toBeDefined();
  expect(await call(admin, 'POST', path, { accountId: brand.sub, brandName: 'Acme', until })).toMatchObject({ status: 409, json: { error: CONTRACT_EXISTS_MESSAGE } });
  expect(ExclusiveContractResponse.parse((await call(admin, 'GET', path)).json).current?.id).toBe(contract.id);

  // While in force: out of the library, in the brand's own list, generated by the brand only.
  expect(await listed()).toBe(false);
  expect((await call(undefined, 'GET', `/talent/${talentId}`)).status).toBe(404);
  const mine = TalentListResponse.parse((await call(brand.token, 'GET', '/me/exclusive-talent')).json);
  expect(mine.talent.map((t) => t.id)).toEqual([talentId]);
  expect(TalentListResponse.parse((await call(rival.token, 'GET', '/me/exclusive-talent')).json).talent).toEqual([]);
  expect((await call(talent.token, 'GET', '/me/exclusive-talent')).status).toBe(403);

  const start = async (who: { token: string }, key: string) => {
    const res = await call(who.token, 'POST', '/generations', { talentId, prompt: `A portrait in a studio ${run}`, style: 'Portrait', count: 1 }, { 'idempotency-key': `${key}-${run}` });
    expect(res.status).toBe(202);
    return GenerationStarted.parse(res.json).id;
  };
  const [brandGeneration, rivalGeneration] = await Promise.all([start(brand, 'brand'), start(rival, 'rival')]);
  const [brandResult, rivalResult] = await Promise.all([finished(brandGeneration, brand.token), finished(rivalGeneration, rival.token)]);
  expect(rivalResult).toMatchObject({ status: 'failed', failure: { message: TALENT_UNDER_CONTRACT_MESSAGE } });
  expect(brandResult.status).toBe('succeeded');

  // The talent cannot request removal meanwhile (the portal says why and until when).
  const removal = await call(talent.token, 'POST', '/me/likeness/removal', {});
  expect(removal.status).toBe(409);
  expect(removal.json.error).toContain(`Acme ${run}`);

  // The term ends (brought to a second from now, as if the hour had passed); the hourly schedule
  // archives the contract and tells the talent.
  expect(await emailsToTalent()).toEqual([`Your exclusive contract with Acme ${run} has started`]);
  const ended = new Date(Date.now() + 1000).toISOString();
  await doc.send(
    new UpdateCommand({
      TableName: talentTable,
      Key: { id: talentId },
      UpdateExpression: 'SET frozen.#until = :ended',
      ExpressionAttributeNames: { '#until': 'until' },
      ExpressionAttributeValues: { ':ended': ended },
    }),
  );
  await eventually(() => Date.now() > Date.parse(ended), { what: 'the end of the term' });
  await twin().events.runScheduled('LikenessSchedule');
  await eventually(async () => !(await talentStore(doc, talentTable).getForGeneration(talentId))?.controls.frozen, { what: 'the contract cleared from the talent' });
  const history = await royaltyStore(doc, twin().physicalName('GenerationsTable')).endedContracts(talentId);
  expect(history).toEqual([expect.objectContaining({ id: contract.id, endedBy: 'term ended', endedAt: ended, recordedBy: twin().admin.email })]);
  const after = ExclusiveContractResponse.parse((await call(admin, 'GET', path)).json);
  expect(after.current).toBeUndefined();
  expect(after.history.map((h) => h.id)).toEqual([contract.id]);
  expect(await emailsToTalent()).toEqual([`Your exclusive contract with Acme ${run} has started`, `Your exclusive contract with Acme ${run} has ended`]);
  expect(await listed()).toBe(true);
  expect(TalentListResponse.parse((await call(brand.token, 'GET', '/me/exclusive-talent')).json).talent).toEqual([]);

  // The store's conditions on DynamoDB Local, which keep concurrent admins and schedule runs apart.
  const store = talentStore(doc, talentTable);
  const { startNotifiedAt: _told, ...recordedFields } = contract;
  const next = { ...recordedFields, id: `c2-${run}`, until: new Date(Date.now() + 60_000).toISOString() };
  expect(await store.setExclusiveContract(talentId, next)).toBe('recorded');
  expect(await store.setExclusiveContract(talentId, { ...next, id: `c3-${run}` })).toBe('conflict');
  expect(await store.setExclusiveContract(`nobody-${run}`, next)).toBe('not-found');
  expect(await store.markContractStartNotified(talentId, next.id, new Date().toISOString())).toBe(true);
  expect(await store.markContractStartNotified(talentId, next.id, new Date().toISOString())).toBe(false);
  expect((await store.listUnderContract(brand.sub)).map((f) => f.talent.id)).toEqual([talentId]);
  expect(await store.clearExclusiveContract(talentId, `c3-${run}`)).toBe(false);
  expect(await store.clearExclusiveContract(talentId, next.id)).toBe(true);
  expect(await store.clearExclusiveContract(talentId, next.id)).toBe(false);
});

// The talent is listed again once the term ends: take it out of the shared twin's library so
// other files see only their own and the seeded talent.
afterAll(async () => {
  await documentClient(twin()).send(
    new UpdateCommand({
      TableName: twin().physicalName('CatalogTalentTable'),
      Key: { id: talentId },
      UpdateExpression: 'SET #s = :hidden',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':hidden': 'hidden' },
    }),
  ).catch(() => undefined);
});
