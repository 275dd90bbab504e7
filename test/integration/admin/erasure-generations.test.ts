// Erasure reaches generations, licenses and payouts (decision 035) on the twin: a client who
// generated images through the workflow is erased, and their email, name and prompt are gone from
// every generation, their files from the images bucket, while their licenses stay valid for "A
// Humanly client" and still check a file; a talent is erased, and their payout details go while
// their statements stay for accounting without their name. Bystanders keep everything.
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { ERASED_LICENSEE, ERASED_TALENT_NAME, type ErasureResult } from '../../../events/erasure';
import { FINAL_STATUSES } from '../../../events/generation-values';
import { AdminGeneration, Generation, GenerationStarted, LicenseDownload, PublicLicense } from '../../../events/generations';
import { LICENSE_IMAGE_ERASED_MESSAGE, LicenseFileCheck } from '../../../events/license-check';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { seedUser } from '../../../infra/local/provision';
import { accountStore } from '../../../functions/accounts/store';
import { generationKeys } from '../../../functions/generation/keys';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { payoutStore } from '../../../functions/payouts/store';

jest.setTimeout(240_000);
const twin = useTwin();
const run = fileMarker('erg');
const PASSWORD = 'Str0ng!Passw0rd-erg';
const IMAGES_PREFIX = 'generations/';

interface Client {
  sub: string;
  email: string;
  name: string;
  token: string;
  prompt: string;
  generationId: string;
}

const admin = () => idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
const table = () => twin().physicalName('GenerationsTable');
const s3 = () => new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });

async function objectKeys(prefix: string): Promise<string[]> {
  const client = s3();
  const out = await client.send(new ListObjectsV2Command({ Bucket: twin().physicalName('GeneratedImages'), Prefix: prefix }));
  client.destroy();
  return (out.Contents ?? []).map((o) => o.Key!);
}

/** Every item of the Generations table, as JSON text. */
async function generationItems(): Promise<string[]> {
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient(twin()).send(new ScanCommand({ TableName: table(), ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(page.Items ?? []).map((i) => JSON.stringify(i)));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

async function erase(email: string) {
  const res = await callApi(twin(), await admin(), 'POST', '/admin/erasures', { email, confirm: email });
  return { status: res.status, json: res.json as ErasureResult & { error?: string } };
}

/** A client account that starts a generation of `count` images of Maya Chen. */
async function generatingClient(who: string, count: number): Promise<Client> {
  const email = `erg.${who}.${run}@people.example`;
  const name = `${who === 'erased' ? 'Erin' : 'Bea'} ${run}`;
  const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], name, attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: user.sub!, email, full_name: name, role: 'client' });
  const token = await idToken(twin(), email, PASSWORD, 'web');
  const prompt = `A beekeeper ${who} ${run} among the hives`;
  const started = await callApi(twin(), token, 'POST', '/generations', { talentId: 'maya-chen', prompt, style: 'Portrait', count });
  expect(started.status).toBe(202);
  return { sub: user.sub!, email, name, token, prompt, generationId: GenerationStarted.parse(started.json).id };
}

async function delivered(client: Client): Promise<Generation> {
  const generation = await eventually(
    async () => {
      const g = Generation.parse((await callApi(twin(), client.token, 'GET', `/generations/${client.generationId}`)).json);
      return FINAL_STATUSES.includes(g.status) && g;
    },
    { timeoutMs: 90_000, what: `generation ${client.generationId} to finish` },
  );
  expect(generation.status).toBe('succeeded');
  return generation;
}

const download = async (client: Client, licenseId: string) => {
  const { url } = LicenseDownload.parse((await callApi(twin(), client.token, 'GET', `/licenses/${licenseId}/download`)).json);
  return Buffer.from(await (await fetch(url)).arrayBuffer());
};

const checkFile = async (licenseId: string, file: Buffer) => {
  const res = await fetch(`${twin().urls.api}/licenses/${licenseId}/check`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: new Uint8Array(file) });
  expect(res.status).toBe(200);
  return LicenseFileCheck.parse(await res.json());
};

describe('erasing a client who generated images', () => {
  let erased: Client;
  let bystander: Client;
  let licenseIds: string[];
  let bystanderLicense: string;
  let files: Buffer[];

  beforeAll(async () => {
    [erased, bystander] = await Promise.all([generatingClient('erased', 2), generatingClient('stays', 1)]);
    const [mine, theirs] = await Promise.all([delivered(erased), delivered(bystander)]);
    licenseIds = mine.images.map((i) => i.licenseId);
    bystanderLicense = theirs.images[0].licenseId;
    files = await Promise.all(licenseIds.map((id) => download(erased, id)));
    // A thumbnail made before the erasure (kept beside the image): it must go too.
    expect((await fetch(`${twin().urls.api}/licenses/${licenseIds[0]}/thumbnail`)).status).toBe(200);
  });

  it('before: the generations name the client and the bucket holds their files', async () => {
    const items = await generationItems();
    expect(items.filter((i) => i.includes(erased.email)).length).toBeGreaterThan(0);
    expect(items.filter((i) => i.includes(erased.prompt)).length).toBeGreaterThan(0);
    expect((await objectKeys(`${IMAGES_PREFIX}${erased.sub}/`)).length).toBe(3);
    expect(PublicLicense.parse((await callApi(twin(), undefined, 'GET', `/licenses/${licenseIds[0]}`)).json)).toMatchObject({ licensee: erased.name, image: 'stored' });
  });

  it('redacts the generations, deletes the files, and keeps each license valid for "A Humanly client"', async () => {
    const res = await erase(erased.email);
    expect(res.status).toBe(201);
    expect(res.json.removed).toMatchObject({ generations: 1, licenses: 2, images: 3, accounts: 1 });

    // No item of the Generations table names the client's email, name or prompt any more.
    const items = await generationItems();
    expect(items.filter((i) => i.includes(erased.email) || i.includes(erased.name) || i.includes(erased.prompt))).toEqual([]);
    const { Item: generation } = await documentClient(twin()).send(new GetCommand({ TableName: table(), Key: generationKeys.generation(erased.generationId) }));
    expect(generation).toMatchObject({ clientEmail: '', prompt: '', licensee: ERASED_LICENSEE, erasedAt: res.json.erasedAt, status: 'succeeded', creditsSpent: 2 });

    // The files (images and the thumbnail) are really gone from the bucket.
    expect(await objectKeys(`${IMAGES_PREFIX}${erased.sub}/`)).toEqual([]);

    // The licenses stay valid: issued to "A Humanly client", their image erased.
    for (const licenseId of licenseIds) {
      const license = await callApi(twin(), undefined, 'GET', `/licenses/${licenseId}`);
      expect(license.status).toBe(200);
      expect(PublicLicense.parse(license.json)).toMatchObject({ id: licenseId, talentName: 'Maya Chen', licensee: ERASED_LICENSEE, image: 'erased' });
    }
    expect(await callApi(twin(), undefined, 'GET', `/licenses/${licenseIds[0]}/thumbnail`)).toMatchObject({ status: 404, json: { error: LICENSE_IMAGE_ERASED_MESSAGE } });

    // The console sees the generation without the client, and no file behind it.
    const token = await admin();
    const detail = AdminGeneration.parse((await callApi(twin(), token, 'GET', `/admin/generations/${erased.generationId}`)).json);
    expect(detail).toMatchObject({ clientEmail: '', prompt: '', images: [], erasedAt: res.json.erasedAt });
    expect(await callApi(twin(), token, 'GET', `/admin/licenses/${licenseIds[0]}/download`)).toMatchObject({ status: 404, json: { error: LICENSE_IMAGE_ERASED_MESSAGE } });
  });

  it('a file still checks against its license: the pixel hash was kept before the file went', async () => {
    expect(await checkFile(licenseIds[0], files[0])).toMatchObject({ license: { licensee: ERASED_LICENSEE }, file: 'licensed-image' });
    const stripped = await sharp(files[1]).png({ compressionLevel: 9 }).toBuffer();
    expect((await checkFile(licenseIds[1], stripped)).file).toBe('licensed-image');
    expect((await checkFile(licenseIds[0], files[1])).file).toBe('other-image');
  });

  it('leaves the bystander\'s generation, license and file alone, and runs again harmlessly', async () => {
    expect((await generationItems()).filter((i) => i.includes(bystander.email)).length).toBeGreaterThan(0);
    expect(PublicLicense.parse((await callApi(twin(), undefined, 'GET', `/licenses/${bystanderLicense}`)).json)).toMatchObject({ licensee: bystander.name, image: 'stored' });
    expect((await objectKeys(`${IMAGES_PREFIX}${bystander.sub}/`)).length).toBe(1);

    const again = await erase(erased.email);
    expect(again.status).toBe(201);
    expect(again.json.removed).toMatchObject({ generations: 0, licenses: 0, images: 0 });
  });
});

describe('erasing a talent', () => {
  const email = `erg.talent.${run}@people.example`;
  const talentId = `erg-${run}`;
  const keptTalentId = `erg-kept-${run}`;
  const MONTH = '2001-03';
  const totals = { licenses: 3, grossCents: 1234, dueCents: 1234 };

  /** A closed statement of the month as the close leaves it (only the fields erasure reads or keeps). */
  const putStatement = (id: string, name: string) =>
    documentClient(twin()).send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...generationKeys.statement(id, MONTH),
          listKey: generationKeys.statementListKey(MONTH),
          createdAt: '2001-04-01T01:00:00.000Z',
          id: `${MONTH}_${id}`,
          talentId: id,
          talentName: name,
          month: MONTH,
          closedAt: '2001-04-01T01:00:00.000Z',
          fromMonth: MONTH,
          totals,
          paid: { paidAt: '2001-04-05T00:00:00.000Z', reference: `PAYPAL-${run}`, by: 'admin-sub' },
          audit: [],
        },
      }),
    );
  const itemOf = async (key: { pk: string; sk: string }) => (await documentClient(twin()).send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))).Item;

  beforeAll(async () => {
    await createAcceptedTalent(twin(), { email, talentId, firstName: 'Tala', lastName: run, founding: false, marker: run });
    // Payout details left from before Stripe payouts (no longer written): erasure deletes them.
    const updatedAt = new Date().toISOString();
    for (const [id, name] of [[talentId, `Tala ${run}`], [keptTalentId, `Kept ${run}`]] as const) {
      await documentClient(twin()).send(new PutCommand({ TableName: table(), Item: { ...generationKeys.payoutDetails(id), accountHolder: name, payoutEmail: `payouts.${id}@people.example`, updatedAt } }));
    }
    await putStatement(talentId, `Tala ${run}`);
    await putStatement(keptTalentId, `Kept ${run}`);
    // Their Stripe payout account, a payout of the month and a line of payout history.
    const payouts = payoutStore(documentClient(twin()), twin().physicalName('PayoutsTable'));
    for (const [id, name] of [[talentId, `Tala ${run}`], [keptTalentId, `Kept ${run}`]]) {
      await payouts.putConnect({ talentId: id, accountId: `acct_${id.replace(/-/g, '')}`, email: `${id}@people.example`, talentName: name, createdAt: updatedAt });
      await payouts.putPayout(
        { statementId: `${MONTH}_${id}`, talentId: id, talentName: name, month: MONTH, statementCents: 1234, carriedInCents: 0, amountCents: 1234, state: 'paid', transferId: `tr_${run}`, paidAt: updatedAt, updatedAt },
        ['absent'],
      );
      await payouts.addHistory(id, { at: updatedAt, what: `Bank account change: account ending 6789 (${name})` }, `bank-${id}`);
    }
  });

  it('deletes their payout details and keeps their statements for accounting, without their name', async () => {
    const res = await erase(email);
    expect(res.status).toBe(201);
    // Payout details: the old details and the payout account.
    expect(res.json.removed).toMatchObject({ applications: 1, payoutDetails: 2, statements: 1 });

    expect(await itemOf(generationKeys.payoutDetails(talentId))).toBeUndefined();
    const statement = await itemOf(generationKeys.statement(talentId, MONTH));
    expect(statement).toMatchObject({ talentId, month: MONTH, talentName: ERASED_TALENT_NAME, totals, paid: { reference: `PAYPAL-${run}` }, erasedAt: res.json.erasedAt });
    expect((await generationItems()).filter((i) => i.includes(`Tala ${run}`) || i.includes(`payouts.${run}`))).toEqual([]);

    // The payout account keeps its Stripe id without the address and name; the payout keeps its
    // figures and transfer as "Former talent"; the history in words is gone.
    const payouts = payoutStore(documentClient(twin()), twin().physicalName('PayoutsTable'));
    const connect = await payouts.getConnect(talentId);
    expect(connect).toMatchObject({ talentId, accountId: `acct_${talentId.replace(/-/g, '')}`, talentName: ERASED_TALENT_NAME });
    expect(connect).not.toHaveProperty('email');
    expect(await payouts.getPayout(talentId, MONTH)).toMatchObject({ talentName: ERASED_TALENT_NAME, amountCents: 1234, transferId: `tr_${run}` });
    expect(await payouts.history(talentId)).toEqual([]);

    // Another talent's are untouched.
    expect(await payouts.getConnect(keptTalentId)).toMatchObject({ talentName: `Kept ${run}`, email: `${keptTalentId}@people.example` });
    expect(await payouts.history(keptTalentId)).toHaveLength(1);
    expect(await itemOf(generationKeys.payoutDetails(keptTalentId))).toMatchObject({ accountHolder: `Kept ${run}` });
    expect(await itemOf(generationKeys.statement(keptTalentId, MONTH))).toMatchObject({ talentName: `Kept ${run}` });
  });
});
