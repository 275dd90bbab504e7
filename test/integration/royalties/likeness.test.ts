/**
 * The talent's likeness controls on the twin (docs/royalties.md#likeness), where a removal's
 * notice is 5 seconds: excluded industries edited (the next generation follows them), pause and
 * resume (a paused talent is not generated); a founding talent's removal refused until they confirm
 * the rate loss, requested, cancelled, requested again; the data export (no prompt anywhere); the
 * notice runs out and the talent leaves the library at once; the hourly schedule carries the
 * removal out (removedAt, model cleared, founding rate ended) and emails; generation is refused
 * while the license already issued stays valid. A script repeating likeness changes, data exports or
 * payout-detail saves is stopped per account.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { seedUser } from '../../../infra/local/provision';
import { excludedIndustryMessage, FINAL_STATUSES, TALENT_PAUSED_MESSAGE, TALENT_REMOVED_MESSAGE } from '../../../events/generation-values';
import { Generation, GenerationStarted } from '../../../events/generations';
import { DataExport, LikenessStatus } from '../../../events/likeness';
import { ALREADY_REMOVED_MESSAGE, DATA_EXPORTS_PER_HOUR, FOUNDING_REMOVAL_WARNING, NO_REMOVAL_PENDING_MESSAGE, REMOVAL_ALREADY_REQUESTED_MESSAGE } from '../../../events/royalty-values';
import { TalentListResponse } from '../../../events/talent';
import { accountStore } from '../../../functions/accounts/store';
import { talentStore } from '../../../functions/catalog/store';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

jest.setTimeout(180_000);
const twin = useTwin();
const run = fileMarker('lks');
const PASSWORD = 'Str0ng!Passw0rd-lks';
const talentId = `leaving-${run}`;
const talentEmail = `leaving.talent.${run}@people.example`;
const prompt = `A quiet harbour at dawn lks${run}`;

const call = (token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => callApi(twin(), token, method, path, body, headers);

async function person(who: string, role: 'client' | 'talent', email = `lks.${who}.${run}@people.example`) {
  const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: [role], name: `Lks ${who}`, attributes: { 'custom:role': role } });
  if (role === 'client') await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: user.sub!, email, full_name: `Lks ${who}`, role });
  return { sub: user.sub!, token: await idToken(twin(), email, PASSWORD, 'web') };
}

async function generate(token: string, key: string, text = prompt): Promise<Generation> {
  const started = await call(token, 'POST', '/generations', { talentId, prompt: text, style: 'Portrait', count: 1 }, { 'idempotency-key': `${key}-${run}` });
  expect(started.status).toBe(202);
  const id = GenerationStarted.parse(started.json).id;
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
const emailsToTalent = async () => (await twin().emails()).filter((m) => m.to.includes(talentEmail));

it('pause, a founding removal requested, cancelled and confirmed, the data export, and the removal carried out after the notice', async () => {
  const doc = documentClient(twin());
  const talentTable = twin().physicalName('CatalogTalentTable');
  const talents = talentStore(doc, talentTable);
  // A listed founding talent with a model, accepted from an application that holds their email.
  const { applicationId } = await createAcceptedTalent(twin(), { email: talentEmail, talentId, firstName: 'Lena', lastName: `Leaving ${run}`, founding: true, marker: `lks-${run}` });
  await doc.send(
    new UpdateCommand({
      TableName: talentTable,
      Key: { id: talentId },
      UpdateExpression: 'SET #s = :active, generation = :g, applicationId = :app',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':active': 'active', ':g': { model: 'humanly-preview/maya-chen', triggerWord: 'LKSWRD' }, ':app': applicationId },
    }),
  );
  const [client, talent] = await Promise.all([person('client', 'client'), person('talent', 'talent', talentEmail)]);

  // A license of the likeness, issued before anything changes.
  const first = await generate(client.token, 'first');
  expect(first.status).toBe('succeeded');
  const licenseId = first.images[0]!.licenseId!;

  expect(LikenessStatus.parse((await call(talent.token, 'GET', '/me/likeness')).json)).toMatchObject({ state: 'available', paused: false, canRequestRemoval: true, likeness: { talentId, founding: true } });
  // An industry the talent excludes from now on: the next generation within it is refused, the
  // license already issued is untouched.
  const wine = `${prompt}, raising a glass of wine`;
  expect((await call(talent.token, 'PATCH', '/me/likeness', { excludedIndustries: ['alcohol'] })).status).toBe(200);
  expect(await generate(client.token, 'excluded', wine)).toMatchObject({ status: 'failed', failure: { message: excludedIndustryMessage('alcohol') } });
  expect((await call(talent.token, 'PATCH', '/me/likeness', { excludedIndustries: [] })).status).toBe(200);
  const allowed = await generate(client.token, 'allowed', wine);
  expect(allowed.status).toBe('succeeded');
  const secondLicenseId = allowed.images[0]!.licenseId!;

  expect(LikenessStatus.parse((await call(talent.token, 'POST', '/me/likeness/pause')).json)).toMatchObject({ state: 'paused', paused: true });
  expect((await call(talent.token, 'POST', '/me/likeness/pause')).json).toMatchObject({ state: 'paused' });
  // Paused: no new generations; the license issued before stays valid.
  expect(await generate(client.token, 'paused')).toMatchObject({ status: 'failed', failure: { message: TALENT_PAUSED_MESSAGE } });
  expect((await call(undefined, 'GET', `/licenses/${licenseId}`)).status).toBe(200);
  expect((await call(talent.token, 'POST', '/me/likeness/resume')).json).toMatchObject({ state: 'available', paused: false });
  // A client cannot reach the talent's controls.
  expect((await call(client.token, 'POST', '/me/likeness/removal', {})).status).toBe(403);

  // Founding talent confirm the rate loss first; the refusal names the field and the warning.
  const unconfirmed = await call(talent.token, 'POST', '/me/likeness/removal', {});
  expect(unconfirmed.status).toBe(400);
  expect(unconfirmed.json.error).toContain('acceptFoundingRateLoss');
  expect(unconfirmed.json.fields).toEqual({ acceptFoundingRateLoss: FOUNDING_REMOVAL_WARNING });
  expect((await call(talent.token, 'POST', '/me/likeness/removal', { acceptFoundingRateLoss: 'yes' })).json.fields).toHaveProperty('acceptFoundingRateLoss');

  const requested = LikenessStatus.parse((await call(talent.token, 'POST', '/me/likeness/removal', { acceptFoundingRateLoss: true })).json);
  expect(requested).toMatchObject({ state: 'removal-pending', canRequestRemoval: false });
  expect(Date.parse(requested.removal!.effectiveAt) - Date.parse(requested.removal!.requestedAt)).toBe(5_000);
  expect(await call(talent.token, 'POST', '/me/likeness/removal', { acceptFoundingRateLoss: true })).toMatchObject({ status: 409, json: { error: REMOVAL_ALREADY_REQUESTED_MESSAGE } });
  expect((await call(talent.token, 'DELETE', '/me/likeness/removal')).json).toMatchObject({ state: 'available', canRequestRemoval: true });
  expect(await call(talent.token, 'DELETE', '/me/likeness/removal')).toMatchObject({ status: 409, json: { error: NO_REMOVAL_PENDING_MESSAGE } });
  const confirmed = LikenessStatus.parse((await call(talent.token, 'POST', '/me/likeness/removal', { acceptFoundingRateLoss: true })).json);
  expect(confirmed.state).toBe('removal-pending');
  expect(await listed()).toBe(true);

  // The data export: a JSON download of everything, never the client's prompt.
  const exported = await call(talent.token, 'GET', '/me/data-export');
  expect(exported.status).toBe(200);
  expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="humanly-data-${new Date().toISOString().slice(0, 10)}.json"`);
  const data = DataExport.parse(exported.json);
  expect(data.profile).toMatchObject({ email: talentEmail });
  expect(data.application).toMatchObject({ id: applicationId, status: 'accepted', photoCount: 0, fields: expect.objectContaining({ firstName: 'Lena', location: 'Lisbon' }) });
  expect(data.application!.fields).not.toHaveProperty('imagePaths');
  expect(data.likeness).toMatchObject({ state: 'removal-pending', removal: confirmed.removal });
  expect(data.licenses).toEqual(
    [licenseId, secondLicenseId].map((id) => ({ licenseId: id, issuedAt: expect.any(String), licensee: expect.any(String), url: expect.stringMatching(new RegExp(`^https?://.+/licenses/${id}$`)) })),
  );
  expect(exported.text).not.toContain(`lks${run}`);
  expect(exported.text).not.toContain('LKSWRD');

  // The notice runs out: out of the library at once, before the schedule; too late to cancel.
  await eventually(async () => !(await listed()), { timeoutMs: 60_000, what: `the talent out of the library once the notice ends at ${confirmed.removal!.effectiveAt}` });
  expect((await call(undefined, 'GET', `/talent/${talentId}`)).status).toBe(404);
  expect(await call(talent.token, 'DELETE', '/me/likeness/removal')).toMatchObject({ status: 409, json: { error: ALREADY_REMOVED_MESSAGE } });

  // The hourly schedule carries it out, once.
  await twin().events.runScheduled('LikenessSchedule');
  await twin().events.runScheduled('LikenessSchedule');
  const after = await talents.getForGeneration(talentId);
  expect(after?.controls.removedAt).toBeDefined();
  expect(after?.controls.generation).toBeUndefined();
  expect(after?.talent).toMatchObject({ founding: false, royaltyPlan: 'standard-tiers' });
  expect((await call(talent.token, 'GET', '/me/likeness')).json).toMatchObject({ state: 'removed', removedAt: after!.controls.removedAt, canRequestRemoval: false });

  const mails = await emailsToTalent();
  const removalMails = mails.filter((m) => m.subject.startsWith('Your likeness'));
  expect(removalMails.map((m) => m.subject)).toEqual([
    expect.stringMatching(/^Your likeness will be removed on \d{1,2} \w+ \d{4}$/),
    expect.stringMatching(/^Your likeness will be removed on \d{1,2} \w+ \d{4}$/),
    'Your likeness has been removed from Humanly',
  ]);
  expect(removalMails[0]!.text).toContain('/talent-portal');
  expect(removalMails[0]!.text).toContain('founding 35% royalty rate ends');

  // No new generations; the license issued before stays valid.
  expect(await generate(client.token, 'after')).toMatchObject({ status: 'failed', failure: { message: TALENT_REMOVED_MESSAGE } });
  expect((await call(undefined, 'GET', `/licenses/${licenseId}`)).status).toBe(200);
});

it('stops a script repeating a talent’s own actions per account, keeps what was saved, and leaves another talent on the same address alone', async () => {
  const accepted = async (who: string) => {
    const email = `lks.limit.${who}.${run}@people.example`;
    await createAcceptedTalent(twin(), { email, talentId: `limit-${who}-${run}`, firstName: 'Lim', lastName: `${who} ${run}`, founding: false, marker: `lks-limit-${who}-${run}` });
    return person(`limit-${who}`, 'talent', email);
  };
  const [script, neighbour] = await Promise.all([accepted('script'), accepted('neighbour')]);
  const statuses = async (times: number, send: (i: number) => Promise<{ status: number }>) => {
    const out: number[] = [];
    for (let i = 0; i < times; i++) out.push((await send(i)).status);
    return out;
  };

  // Likeness changes (pause, resume, exclusions, removal) share 30 an hour.
  expect(await statuses(30, (i) => call(script.token, 'POST', `/me/likeness/${i % 2 ? 'resume' : 'pause'}`))).toEqual(Array(30).fill(200));
  const refused = await call(script.token, 'POST', '/me/likeness/pause');
  expect(refused.status).toBe(429);
  expect(refused.json.error).toMatch(/30 changes in the last hour/);
  expect((await call(script.token, 'PATCH', '/me/likeness', { excludedIndustries: ['alcohol'] })).status).toBe(429);
  // The 30th change (a resume) stands; the refused ones changed nothing.
  expect(LikenessStatus.parse((await call(script.token, 'GET', '/me/likeness')).json)).toMatchObject({ state: 'available', paused: false, likeness: { excludedIndustries: [] } });
  // Per account, not per address: the other talent, on the same address, is not limited.
  expect((await call(neighbour.token, 'POST', '/me/likeness/pause')).json).toMatchObject({ state: 'paused' });

  // Data exports: each reads everything held about the talent.
  expect(await statuses(DATA_EXPORTS_PER_HOUR, () => call(script.token, 'GET', '/me/data-export'))).toEqual(Array(DATA_EXPORTS_PER_HOUR).fill(200));
  const exportRefused = await call(script.token, 'GET', '/me/data-export');
  expect(exportRefused.status).toBe(429);
  expect(exportRefused.json.error).toMatch(new RegExp(`downloaded your data ${DATA_EXPORTS_PER_HOUR} times`));
  expect((await call(neighbour.token, 'GET', '/me/data-export')).status).toBe(200);
});
