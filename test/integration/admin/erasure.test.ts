// Erasure (decision 019) on the twin: a person's data is created through the product in every
// place it can live, an admin erases it by address, and a scan of every table, the photos
// bucket and the user pool finds nothing left, while a bystander's data stays.
import { createHash } from 'node:crypto';
import { ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { ErasureResult } from '../../../events/erasure';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { seedUser } from '../../../infra/local/provision';
import { resourcesOfType } from '../../../infra/local/template';
import { postJsonFrom } from '../../support/from-address';
import { cognitoClient, documentClient, idToken, useTwin } from '../../support/twin';
import { applicantEmail, applicationOf, asJpegFiles, freshAddress, jpegs, signupConfirmed, signupPayload, uploadAll } from '../founding/support';
import { eventually } from '../../support/eventually';

jest.setTimeout(240_000);
const twin = useTwin();
const PASSWORD = 'Str0ng!Passw0rd';

const s3 = () => new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });
const photoKeys = async () => {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: twin().physicalName('FoundingPhotos'), ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
};

/** Every item of every table of the template, as JSON text, by table. */
async function everyItem(): Promise<Record<string, string[]>> {
  const doc = documentClient(twin());
  const out: Record<string, string[]> = {};
  for (const [id] of resourcesOfType(twin().template, 'AWS::DynamoDB::Table')) {
    const items: string[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(new ScanCommand({ TableName: twin().physicalName(id), ExclusiveStartKey: start, ConsistentRead: true }));
      items.push(...(page.Items ?? []).map((i) => JSON.stringify(i)));
      start = page.LastEvaluatedKey;
    } while (start);
    out[id] = items;
  }
  return out;
}
const mentioning = (items: Record<string, string[]>, text: string) =>
  Object.fromEntries(Object.entries(items).map(([t, list]) => [t, list.filter((i) => i.toLowerCase().includes(text.toLowerCase())).length]).filter(([, n]) => n));

async function erase(body: unknown, token?: string) {
  const res = await fetch(`${twin().urls.api}/admin/erasures`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token ?? (await idToken(twin(), twin().admin.email, twin().admin.password))}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as ErasureResult & { error?: string } };
}

/** A waitlist signup, a contact message (with an Idempotency-Key) and a client account with its credits; answers the account's id. */
async function everydayData(email: string): Promise<string> {
  const api = twin().urls.api;
  const signup = await postJsonFrom(freshAddress(), `${api}/early-signup`, { email, firstName: 'Ada' });
  expect(signup.status).toBe(200);
  const message = { firstName: 'Ada', lastName: 'Lovelace', email, subject: 'Hello', message: 'A question about the founding program.' };
  const contact = await postJsonFrom(freshAddress(), `${api}/contact`, message, { 'idempotency-key': `erase-${email}` });
  expect(contact.status).toBe(202);
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'] });
  // The first GET /me opens the account: profile, role, balance and the Free plan's ledger entry.
  const me = await fetch(`${api}/me`, { headers: { authorization: `Bearer ${await idToken(twin(), email, PASSWORD, 'web')}` } });
  expect(me.status).toBe(200);
  return ((await me.json()) as { profile: { id: string } }).profile.id;
}

describe('erasure by email', () => {
  const person = applicantEmail('erase.me');
  const bystander = applicantEmail('stays');
  let applicationId: string;
  let uploadedKeys: string[];
  let accountId: string;

  beforeAll(async () => {
    accountId = await everydayData(person);
    await everydayData(bystander);
    // A founding application with its photos, validated by the workflow.
    const { uploadSession, keys } = await uploadAll(twin(), person, asJpegFiles(await jpegs(30)));
    uploadedKeys = keys;
    const res = await signupConfirmed(twin(), signupPayload(person, uploadSession, keys));
    if (res.status !== 200) throw new Error(`founding signup answered ${res.status}: ${res.text}`);
    applicationId = (await eventually(() => applicationOf(twin(), person), { what: 'application' })).id as string;
  });

  it('waits while the application\'s photos are being validated: 409, nothing erased', async () => {
    // The status is read just before the erasure (the admin signed in first, the item read by its
    // key): validation ending in between would let the erasure through and leave this file nothing.
    const token = await idToken(twin(), twin().admin.email, twin().admin.password);
    const { Item: validating } = await documentClient(twin()).send(
      new GetCommand({ TableName: twin().physicalName('FoundingApplicationsTable'), Key: { pk: `APP#${applicationId}`, sk: 'APPLICATION' }, ConsistentRead: true }),
    );
    if (validating?.status === 'validating') {
      const res = await erase({ email: person, confirm: person }, token);
      expect(res.status).toBe(409);
      expect(res.json.error).toMatch(/having its photos checked right now. Nothing was erased/);
    }
    await eventually(async () => (await applicationOf(twin(), person))?.status !== 'validating', { timeoutMs: 90_000, what: 'validation' });
    await twin().idle();
    expect(mentioning(await everyItem(), person)).not.toEqual({});
  });

  it('refuses a confirmation that does not repeat the address, naming the field, and erases nothing', async () => {
    const res = await erase({ email: person, confirm: bystander });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toMatch(/confirm must repeat the email address exactly/);
    expect(mentioning(await everyItem(), person)).not.toEqual({});
  });

  it('refuses anyone outside the admin group', async () => {
    const client = await idToken(twin(), bystander, PASSWORD);
    expect((await erase({ email: person, confirm: person }, client)).status).toBe(403);
  });

  it('erases the person everywhere, records it without the address, and leaves the bystander alone', async () => {
    // Present everywhere before.
    const before = await everyItem();
    const tables = Object.keys(mentioning(before, person));
    for (const prefix of ['WaitlistTable', 'ContactMessagesTable', 'FoundingApplicationsTable', 'AccountsTable']) expect(tables.some((t) => t.startsWith(prefix))).toBe(true);
    expect(Object.keys(mentioning(before, accountId)).some((t) => t.startsWith('AccountsTable'))).toBe(true);
    expect((await photoKeys()).filter((k) => k.startsWith(`applications/${applicationId}/`)).length).toBeGreaterThan(0);

    const res = await erase({ email: person.toUpperCase(), confirm: ` ${person} ` });
    expect(res.status).toBe(201);
    expect(res.json.removed).toMatchObject({ applications: 1, messages: 1, accounts: 1 });
    expect(res.json.removed.waitlist).toBeGreaterThan(0);
    expect(res.json.removed.applicationItems).toBeGreaterThan(1);
    expect(res.json.removed.photos).toBeGreaterThanOrEqual(30);
    // Profile, role, balance, the ledger's entry and its guard at least.
    expect(res.json.removed.accountItems).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(res.json)).not.toContain(person);

    // Nothing left: no item anywhere names the address or the application, no photo, no account.
    const after = await everyItem();
    expect(mentioning(after, person)).toEqual({});
    // Nothing of the account's partition (its ledger names no address) is left either.
    expect(mentioning(after, accountId)).toEqual({});
    const appLeft = mentioning(after, applicationId);
    // The founding spot counter's bookkeeping (no personal data) is all that may name the application.
    for (const [table, n] of Object.entries(appLeft)) expect({ table, n, items: after[table].filter((i) => i.includes(applicationId) && !/"pk":"SP(OT#|OTS)/.test(i)) }).toEqual({ table, n, items: [] });
    const keys = await photoKeys();
    expect(keys.filter((k) => k.startsWith(`applications/${applicationId}/`) || uploadedKeys.includes(k))).toEqual([]);
    const users = await cognitoClient(twin()).send(new ListUsersCommand({ UserPoolId: twin().userPoolId, Filter: `email = "${person}"` }));
    expect((users.Users ?? []).filter((u) => u.Attributes?.some((a) => a.Value === person))).toEqual([]);

    // Recorded as done: hash of the address, when, by whom, what.
    const records = Object.entries(after).find(([t]) => t.startsWith('ConsoleErasureRecordsTable'))![1].map((i) => JSON.parse(i));
    const hash = createHash('sha256').update(`erasure:${person}`).digest('hex');
    expect(records.filter((r) => r.addressHash === hash)).toEqual([
      expect.objectContaining({ id: res.json.id, erasedAt: res.json.erasedAt, erasedBy: expect.any(String), removed: res.json.removed }),
    ]);

    // The bystander keeps everything.
    const kept = Object.keys(mentioning(after, bystander));
    for (const prefix of ['WaitlistTable', 'ContactMessagesTable', 'AccountsTable']) expect(kept.some((t) => t.startsWith(prefix))).toBe(true);
    const bystanderUsers = await cognitoClient(twin()).send(new ListUsersCommand({ UserPoolId: twin().userPoolId, Filter: `email = "${bystander}"` }));
    expect(bystanderUsers.Users?.length).toBe(1);
  });

  it('runs again harmlessly (an erasure that failed part way is simply repeated)', async () => {
    const res = await erase({ email: person, confirm: person });
    expect(res.status).toBe(201);
    expect(res.json.removed).toEqual({
      waitlist: 0,
      messages: 0,
      applications: 0,
      applicationItems: 0,
      photos: 0,
      accounts: 0,
      accountItems: 0,
      idempotencyRecords: 0,
      generations: 0,
      licenses: 0,
      images: 0,
      payoutDetails: 0,
      statements: 0,
      modelVersions: 0,
      trainingFiles: 0,
      trainingRecords: 0,
      subscriptionsCanceled: 0,
      stripeCustomersDeleted: 0,
      paymentsAnonymised: 0,
    });
  });
});
