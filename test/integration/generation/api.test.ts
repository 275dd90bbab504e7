// The generation and license routes on the twin (docs/generation.md#api): the real functions behind
// the site's and the console's JWT authorizers, DynamoDB Local, the S3 emulator's presigned URLs,
// the Generation workflow and the Replicate emulator. One generation is started and followed to
// its images; the rest of the file reads it from every side.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { seedUser } from '../../../infra/local/provision';
import { FINAL_STATUSES, GENERATIONS_PER_MINUTE } from '../../../events/generation-values';
import { AdminGeneration, AdminGenerationList, Generation, GenerationPage, GenerationStarted, LegacyPoll, LicenseDownload, LikenessUsage, PublicLicense } from '../../../events/generations';
import { accountStore } from '../../../functions/accounts/store';
import { creditLedger } from '../../../functions/accounts/credits';
import { generationStore } from '../../../functions/generation/store';
import { generationKeys } from '../../../functions/generation/keys';
import { talentStore } from '../../../functions/catalog/store';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { talentFactory } from '../../support/talent';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';

jest.setTimeout(180_000);
const twin = useTwin();
const PASSWORD = 'Str0ng!Passw0rd-gen';
const run = fileMarker('gen');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Person {
  sub: string;
  email: string;
  token: string;
}

async function client(who: string, name = `Ada ${who}`): Promise<Person> {
  const email = `gen.${who}.${run}@people.example`;
  const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], name, attributes: { 'custom:role': 'client' } });
  // What a confirmed sign-up leaves: the account with its name and the Free plan's 10 credits.
  await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: user.sub!, email, full_name: name, role: 'client' });
  return { sub: user.sub!, email, token: await idToken(twin(), email, PASSWORD, 'web') };
}

const call = (token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => callApi(twin(), token, method, path, body, headers);

const store = () => generationStore(documentClient(twin()), twin().physicalName('GenerationsTable'));
const admin = async () => idToken(twin(), twin().admin.email, twin().admin.password, 'admin');

let ada: Person;
let bob: Person;
let generationId: string;

beforeAll(async () => {
  [ada, bob] = await Promise.all([client('ada', 'Ada Lovelace'), client('bob')]);
  // Both start (POST /generations) while the rest of the file sets up.
  const started = await call(ada.token, 'POST', '/generations', { talentId: 'maya-chen', prompt: `A potter at her wheel ${run}`, style: 'Portrait', count: 2 }, { 'idempotency-key': `start-${run}` });
  expect(started.status).toBe(202);
  generationId = GenerationStarted.parse(started.json).id;
});

/** The generation once the workflow has finished it (the twin's Replicate emulator answers in about a second). */
function finished(id: string, token: string): Promise<Generation> {
  return eventually(
    async () => {
      const res = await call(token, 'GET', `/generations/${id}`);
      expect(res.status).toBe(200);
      const generation = Generation.parse(res.json);
      if (!FINAL_STATUSES.includes(generation.status)) throw new Error(`generation ${id} still ${generation.status}`);
      return generation;
    },
    { timeoutMs: 90_000, what: `generation ${id} to finish` },
  );
}

describe('starting a generation', () => {
  it('answers 202 queued, stores it for its owner, and a repeated Idempotency-Key is the same generation', async () => {
    expect(GenerationStarted.parse({ id: generationId, status: 'queued' })).toBeTruthy();
    const record = await store().get(generationId);
    expect(record).toMatchObject({ accountId: ada.sub, licensee: 'Ada Lovelace', planId: 'free', talentName: 'Maya Chen', style: 'Portrait', count: 2, executionName: generationId });
    const again = await call(ada.token, 'POST', '/generations', { talentId: 'maya-chen', prompt: `A potter at her wheel ${run}`, style: 'Portrait', count: 2 }, { 'idempotency-key': `start-${run}` });
    expect(again).toMatchObject({ status: 202, json: { id: generationId } });
  });

  it('refuses bad input naming the field, an unknown or hidden talent with 404, a short balance with 409', async () => {
    const bad = await call(ada.token, 'POST', '/generations', { talentId: 'maya-chen', prompt: ' ', style: 'Baroque', count: 5 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields).sort()).toEqual(['count', 'prompt', 'style']);
    expect(await call(ada.token, 'POST', '/generations', { talentId: 'nobody-here', prompt: 'x', style: 'Portrait', count: 1 })).toMatchObject({ status: 404, json: { error: 'Model not found' } });
    expect((await call(undefined, 'POST', '/generations', { talentId: 'maya-chen', prompt: 'x', style: 'Portrait', count: 1 })).status).toBe(401);

    // A client whose credits are all reserved elsewhere.
    const carol = await client('carol');
    const doc = documentClient(twin());
    await creditLedger(doc, twin().physicalName('AccountsTable')).reserve(carol.sub, { credits: 9, key: `drain-${run}`, generationId: `drain-${run}`, reason: 'Test' });
    const short = await call(carol.token, 'POST', '/generations', { talentId: 'maya-chen', prompt: 'x', style: 'Portrait', count: 2 });
    expect(short).toMatchObject({ status: 409, json: { error: 'Not enough credits: this needs 2 and your balance is 1.' } });
    expect((await store().listByAccount(carol.sub)).items).toEqual([]);
  });

  it(`allows ${GENERATIONS_PER_MINUTE} starts a minute per client, then 429 naming the limit`, async () => {
    const dave = await client('dave');
    // Unknown talent: each start is counted and refused after the count, so no workflow runs.
    const attempt = () => call(dave.token, 'POST', '/generations', { talentId: 'nobody-here', prompt: 'x', style: 'Portrait', count: 1 });
    for (let round = 0; round < 2; round++) {
      const minute = Math.floor(Date.now() / 60_000);
      const answers = [];
      for (let i = 0; i <= GENERATIONS_PER_MINUTE; i++) answers.push(await attempt());
      // A burst that crossed into the next minute's window proves nothing: try once more.
      if (Math.floor(Date.now() / 60_000) !== minute) continue;
      if (round === 0) expect(answers.slice(0, GENERATIONS_PER_MINUTE).map((a) => a.status)).toEqual(Array(GENERATIONS_PER_MINUTE).fill(404));
      expect(answers[GENERATIONS_PER_MINUTE]).toMatchObject({ status: 429, json: { error: expect.stringContaining(`${GENERATIONS_PER_MINUTE} generations in the last minute`) } });
      return;
    }
  });
});

describe("the spec's function", () => {
  it('starts from the styled prompt (4 images by default) and polls the running status', async () => {
    const start = await call(bob.token, 'POST', '/functions/v1/replicate-image-generation', { prompt: `A chef plating dessert ${run}, Editorial style`, aspectRatio: '1:1', talentId: 'jordan-rivers' });
    expect(start.status).toBe(200);
    expect(Object.keys(start.json)).toEqual(['id']);
    expect(await store().get(start.json.id)).toMatchObject({ prompt: `A chef plating dessert ${run}`, style: 'Editorial', count: 4, accountId: bob.sub });
    const poll = await call(bob.token, 'POST', '/functions/v1/replicate-image-generation', { predictionId: start.json.id });
    expect(poll.status).toBe(200);
    expect(LegacyPoll.parse(poll.json).status).toMatch(/^(queued|starting|processing|succeeded)$/);
    // Someone else's id is unknown to them.
    expect((await call(ada.token, 'POST', '/functions/v1/replicate-image-generation', { predictionId: start.json.id })).status).toBe(404);
    const bad = await call(bob.token, 'POST', '/functions/v1/replicate-image-generation', { prompt: 'x', aspectRatio: '16:9', talentId: 'jordan-rivers' });
    expect(bad).toMatchObject({ status: 400, json: { fields: { aspectRatio: 'aspectRatio must be 1:1' } } });
  });
});

describe('a finished generation', () => {
  let generation: Generation;
  beforeAll(async () => {
    generation = await finished(generationId, ada.token);
  });

  it("is its owner's: images with short-lived URLs serving PNGs, in the history; another client gets 404", async () => {
    expect(generation).toMatchObject({ status: 'succeeded', creditsSpent: 2 });
    expect(generation.images).toHaveLength(2);
    const image = await fetch(generation.images[0].url);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(generation.images[0].url).toMatch(/X-Amz-Expires=600/);

    expect(await call(bob.token, 'GET', `/generations/${generationId}`)).toMatchObject({ status: 404, json: { error: 'Generation not found' } });
    expect((await call(undefined, 'GET', `/generations/${generationId}`)).status).toBe(401);

    const history = GenerationPage.parse((await call(ada.token, 'GET', '/me/generations')).json);
    expect(history.generations.map((g) => g.id)).toContain(generationId);
    expect((await call(ada.token, 'GET', '/me/generations?cursor=not-one')).status).toBe(400);
    // A position in another client's history is refused, not read.
    const bobs = Buffer.from(JSON.stringify({ pk: `GEN#${generationId}`, sk: 'GEN', accountKey: `ACCOUNT#${bob.sub}`, createdAt: generation.createdAt })).toString('base64url');
    expect(await call(ada.token, 'GET', `/me/generations?cursor=${bobs}`)).toMatchObject({ status: 400, json: { fields: { cursor: 'cursor is not one this list gave out' } } });
  });

  it('has public licenses that never show the prompt or the email', async () => {
    const licenseId = generation.images[0].licenseId;
    const res = await call(undefined, 'GET', `/licenses/${licenseId}`);
    expect(res.status).toBe(200);
    expect(PublicLicense.parse(res.json)).toMatchObject({ id: licenseId, talentId: 'maya-chen', talentName: 'Maya Chen', licensee: 'Ada Lovelace', scope: 'commercial', style: 'Portrait' });
    expect(res.text).not.toContain(run);
    expect(res.text).not.toContain('@');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(await call(undefined, 'GET', '/licenses/lic_AAAAAAAAAAAAAAAAAAAAAA')).toMatchObject({ status: 404, json: { error: 'License not found' } });
    expect(await call(undefined, 'GET', '/licenses/not-a-license')).toMatchObject({ status: 400, json: { fields: { id: expect.any(String) } } });
  });

  it('downloads for the owner and admins, named after talent and license; 404 for another client, 401 anonymous', async () => {
    const licenseId = generation.images[1].licenseId;
    const res = await call(ada.token, 'GET', `/licenses/${licenseId}/download`);
    expect(res.status).toBe(200);
    const download = LicenseDownload.parse(res.json);
    expect(download.filename).toBe(`humanly-maya-chen-${licenseId}.png`);
    const file = await fetch(download.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="humanly-maya-chen-${licenseId}.png"`);
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 8)).toEqual(PNG_SIGNATURE);

    expect(await call(bob.token, 'GET', `/licenses/${licenseId}/download`)).toMatchObject({ status: 404, json: { error: 'License not found' } });
    expect((await call(undefined, 'GET', `/licenses/${licenseId}/download`)).status).toBe(401);
    const adminToken = await admin();
    const byAdmin = await call(adminToken, 'GET', `/admin/licenses/${licenseId}/download`);
    expect(LicenseDownload.parse(byAdmin.json).filename).toBe(download.filename);
  });

  it("shows in the console's list by client, status and talent, and in its detail with the workflow's steps", async () => {
    const adminToken = await admin();
    const mine = await call(adminToken, 'GET', `/admin/generations?accountId=${ada.sub}&talentId=maya-chen&status=succeeded`);
    expect(mine.status).toBe(200);
    const list = AdminGenerationList.parse(mine.json);
    expect(list.items.map((g) => g.id)).toEqual([generationId]);
    expect(mine.headers.get('content-range')).toBe('generations 0-0/1');
    const none = AdminGenerationList.parse((await call(adminToken, 'GET', `/admin/generations?accountId=${ada.sub}&status=failed`)).json);
    expect(none).toEqual({ items: [], total: 0 });
    const bad = await call(adminToken, 'GET', '/admin/generations?status=done&accountId=x');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields).sort()).toEqual(['accountId', 'status']);

    const detail = AdminGeneration.parse((await call(adminToken, 'GET', `/admin/generations/${generationId}`)).json);
    expect(detail).toMatchObject({ clientEmail: ada.email, executionName: generationId, creditsReserved: 2, predictionId: expect.any(String) });
    expect(detail.steps.length).toBeGreaterThan(0);
    // The console's routes are the console's.
    expect((await call(ada.token, 'GET', `/admin/generations/${generationId}`)).status).toBe(401);
  });
});

describe('the talent and the console', () => {
  it("counts the images made with an accepted talent's likeness by month", async () => {
    const email = `gen.talent.${run}@people.example`;
    const { talentId } = await createAcceptedTalent(twin(), { email, talentId: `gen-${run}`, firstName: 'Usage', lastName: run, founding: false, marker: run });
    await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
    const token = await idToken(twin(), email, PASSWORD, 'web');
    const table = twin().physicalName('GenerationsTable');
    for (const [month, images] of [['2026-01', 3], ['2026-02', 5]] as const) {
      await documentClient(twin()).send(new PutCommand({ TableName: table, Item: { ...generationKeys.usage(talentId, month), images } }));
    }
    const res = await call(token, 'GET', '/me/likeness-usage');
    expect(res.status).toBe(200);
    expect(LikenessUsage.parse(res.json)).toEqual({ talentId, total: 8, months: [{ month: '2026-02', images: 5 }, { month: '2026-01', images: 3 }] });
    expect((await call(ada.token, 'GET', '/me/likeness-usage')).status).toBe(403);
  });

  it('sets a talent\'s generation config, refusing bad ones naming the field', async () => {
    const adminToken = await admin();
    const id = `gen-config-${run}`;
    await talentStore(documentClient(twin()), twin().physicalName('CatalogTalentTable')).create(talentFactory({ id, status: 'hidden' }) as never);
    const path = `/admin/talent/${id}/generation-config`;
    expect(await call(adminToken, 'GET', path)).toMatchObject({ status: 404, json: { error: 'This talent has no generation config yet.' } });
    const bad = await call(adminToken, 'PUT', path, { model: 'not a model', triggerWord: 'two words' });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ model: 'model must be a Replicate model such as owner/name', triggerWord: 'triggerWord must be one word' });
    const both = await call(adminToken, 'PUT', path, { model: 'owner/name', version: 'a'.repeat(64), triggerWord: 'TOK' });
    expect(both).toMatchObject({ status: 400, json: { fields: { model: 'Give a model or a version, not both' } } });
    expect((await call(adminToken, 'PUT', '/admin/talent/nobody-here/generation-config', { model: 'owner/name', triggerWord: 'TOK' })).status).toBe(404);
    const set = await call(adminToken, 'PUT', path, { model: 'humanly-preview/maya-chen', triggerWord: 'TOK' });
    expect(set).toMatchObject({ status: 200, json: { model: 'humanly-preview/maya-chen', triggerWord: 'TOK' } });
    expect(await call(adminToken, 'GET', path)).toMatchObject({ status: 200, json: { model: 'humanly-preview/maya-chen', triggerWord: 'TOK' } });
    // Not in the catalog's own answers.
    expect((await call(adminToken, 'GET', `/admin/talent/${id}`)).json).not.toHaveProperty('generation');
  });

  it("refuses a hand-typed config for a talent accepted from an application: their approved version stays", async () => {
    const adminToken = await admin();
    const id = `gen-trained-${run}`;
    const store = talentStore(documentClient(twin()), twin().physicalName('CatalogTalentTable'));
    await store.create(talentFactory({ id, status: 'active' }) as never, undefined, { applicationId: `app-${run}` });
    const approved = { version: 'b'.repeat(64), triggerWord: 'OWNTOK' };
    expect(await store.setGenerationConfig(id, approved)).toBe(true);
    const path = `/admin/talent/${id}/generation-config`;
    const typed = await call(adminToken, 'PUT', path, { model: 'humanly-preview/maya-chen', triggerWord: 'TOK' });
    expect(typed).toMatchObject({ status: 409, json: { error: expect.stringContaining('trained from their own photos') } });
    expect(await call(adminToken, 'GET', path)).toMatchObject({ status: 200, json: approved });
  });
});
