// Admission under Replicate's creation limit on the shared twin (docs/generation.md#admission,
// decision 065): while the creation bucket is empty, starts wait in the queue and show their
// place; they are admitted in turn across clients; a start that waited past the limit fails with
// code busy and its credits back. The bucket is emptied for about two seconds only (other files'
// generations on the shared twin wait that long at most).
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ADMISSION_TIMED_OUT_MESSAGE, FINAL_STATUSES } from '../../../events/generation-values';
import { Generation, GenerationStarted } from '../../../events/generations';
import { accountStore } from '../../../functions/accounts/store';
import { creditLedger } from '../../../functions/accounts/credits';
import { generationKeys } from '../../../functions/generation/keys';
import { seedUser } from '../../../infra/local/provision';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';

jest.setTimeout(120_000);
const twin = useTwin();
const PASSWORD = 'Str0ng!Passw0rd-adm';
const run = fileMarker('adm');

interface Person {
  sub: string;
  token: string;
}

async function client(who: string): Promise<Person> {
  const email = `adm.${who}.${run}@people.example`;
  const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], name: `Ada ${who}`, attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: user.sub!, email, full_name: `Ada ${who}`, role: 'client' });
  return { sub: user.sub!, token: await idToken(twin(), email, PASSWORD, 'web') };
}

const table = () => twin().physicalName('GenerationsTable');
const doc = () => documentClient(twin());

async function start(who: Person, n: number): Promise<string> {
  const res = await callApi(twin(), who.token, 'POST', '/generations', { talentId: 'maya-chen', prompt: `A potter in turn ${n} ${run}`, style: 'Portrait', count: 1 });
  expect(res.status).toBe(202);
  return GenerationStarted.parse(res.json).id;
}

const read = async (who: Person, id: string) => Generation.parse((await callApi(twin(), who.token, 'GET', `/generations/${id}`)).json);

test('starts wait in the queue showing their place, are admitted in turn across clients, and one past the time limit fails busy with its credits back', async () => {
  const [heavy, light, late] = await Promise.all([client('heavy'), client('light'), client('late')]);
  // Empty the bucket: a minute (at 600 a minute) before it would hold a creation again; refilled below.
  const bucket = (millitokens: number) => doc().send(new PutCommand({ TableName: table(), Item: { ...generationKeys.admissionBucket, millitokens, at: Date.now() } }));
  await bucket(-600_000);
  try {
    await waitAndAdmit(heavy, light, late, bucket);
  } finally {
    // Whatever happened, other files' generations are not held back.
    await bucket(10_000);
  }
});

async function waitAndAdmit(heavy: Person, light: Person, late: Person, bucket: (millitokens: number) => Promise<unknown>) {
  const heavyIds = [await start(heavy, 1), await start(heavy, 2)];
  const lightId = await start(light, 3);
  const lateId = await start(late, 4);

  // Waiting: each shows its place; the heavy client's second comes after the light client's only one.
  const places = await eventually(
    async () => {
      const [h1, h2, l] = await Promise.all([read(heavy, heavyIds[0]), read(heavy, heavyIds[1]), read(light, lightId)]);
      if (!h1.queue || !h2.queue || !l.queue) throw new Error('not all waiting yet');
      return { h1: h1.queue.position, h2: h2.queue.position, l: l.queue.position, status: h2.status };
    },
    { timeoutMs: 30_000, what: 'the starts waiting in the admission queue' },
  );
  expect(places.status).toBe('queued');
  expect(places.h1).toBeLessThan(places.h2);
  expect(places.l).toBeLessThan(places.h2);

  // The late start has waited past the limit (its time is set back): it leaves the queue, failed.
  await doc().send(
    new UpdateCommand({
      TableName: table(),
      Key: generationKeys.generation(lateId),
      UpdateExpression: 'SET queuedAt = :q',
      ConditionExpression: 'attribute_not_exists(admittedAt)',
      ExpressionAttributeValues: { ':q': new Date(Date.now() - 11 * 60_000).toISOString() },
    }),
  );

  const final = async (who: Person, id: string) =>
    eventually(
      async () => {
        const g = await read(who, id);
        if (!FINAL_STATUSES.includes(g.status)) throw new Error(`${id} still ${g.status}`);
        return g;
      },
      { timeoutMs: 60_000, what: `generation ${id} to end` },
    );
  const failed = await final(late, lateId);
  expect(failed).toMatchObject({ status: 'failed', creditsSpent: 0, failure: { code: 'busy', message: ADMISSION_TIMED_OUT_MESSAGE } });
  expect(failed.queue).toBeUndefined();
  // The Free plan's 10 credits, all back.
  const balance = await eventually(
    async () => {
      const credits = await creditLedger(doc(), twin().physicalName('AccountsTable')).balance(late.sub);
      return credits === 10 ? credits : undefined;
    },
    { what: "the late start's credit released" },
  );
  expect(balance).toBe(10);

  // The bucket full again: the others are admitted, in turn, and delivered.
  await bucket(10_000);
  for (const [who, id] of [[heavy, heavyIds[0]], [heavy, heavyIds[1]], [light, lightId]] as const) expect((await final(who, id)).status).toBe('succeeded');
  const admittedAt = async (id: string) => String((await doc().send(new GetCommand({ TableName: table(), Key: generationKeys.generation(id), ConsistentRead: true }))).Item?.admittedAt);
  const [h1, h2, l] = await Promise.all([admittedAt(heavyIds[0]), admittedAt(heavyIds[1]), admittedAt(lightId)]);
  expect(h1 <= h2).toBe(true);
  expect(l <= h2).toBe(true);
}
