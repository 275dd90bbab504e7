// The fault matrix: each fault the twin can inject (decision 018), with a person's flow through
// the public API, then three checks: nothing the person did was lost, nothing was sent twice
// (emails counted per recipient in the SES emulator), and every failure shows in the console
// (read through the admin API the console reads). A failure that ends silently fails a test.
import type { ApplicationDetail } from '../../../events/founding';
import { MIN_APPLICATION_IMAGES } from '../../../events/founding-values';
import type { WaitlistEntry } from '../../../events/admin';
import { LikenessStatus } from '../../../events/likeness';
import { AdminGeneration, Generation, GenerationStarted } from '../../../events/generations';
import { LedgerPage } from '../../../events/accounts';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { seedUser } from '../../../infra/local/provision';
import { generationKeys } from '../../../functions/generation/keys';
import { licenseIdOf } from '../../../functions/generation/steps/deliver-images/service';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { atRest } from '../../support/at-rest';
import { eventually } from '../../support/eventually';
import { applyFounding, callerIp, emailsTo, foundingPayload, joinWaitlist, postFrom, serverErrorRetries, uploadPhotos, type Photo } from '../../support/user-flows';
import { asJpegFiles, jpegs } from '../founding/support';

jest.setTimeout(240_000);
// A twin of its own: faults would disturb every other file on the shared one.
const twin = useTwin({ own: true, instrument: true });

let caller = 0;
const nextIp = () => callerIp(1000 + caller++);
const stamp = Date.now().toString(36);
const address = (label: string) => `fault.${label}.${stamp}@example.com`;
let photos: Photo[];

beforeAll(async () => {
  photos = asJpegFiles(await jpegs(MIN_APPLICATION_IMAGES));
});
afterEach(async () => {
  await twin().instruments.clear();
  await twin().idle();
});

/** The function whose source is in functions/<dir>/ (e.g. 'founding/steps/validate-photos'). */
const functionOf = (dir: string) => {
  const fn = twin().functions().find((f) => f.entry.includes(`functions/${dir}/`));
  if (!fn) throw new Error(`no function with its source in functions/${dir}/`);
  return fn.name;
};

async function admin<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const token = await idToken(twin(), twin().admin.email, twin().admin.password);
  const res = await fetch(`${twin().urls.api}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as T };
}

/** The console's view of one waitlist address. */
async function waitlistEntry(email: string): Promise<WaitlistEntry | undefined> {
  const { status, body } = await admin<{ items: WaitlistEntry[] }>(`/admin/waitlist?q=${encodeURIComponent(email)}&limit=500`);
  if (status !== 200) throw new Error(`GET /admin/waitlist answered ${status}`);
  return body.items.find((e) => e.email === email);
}

const application = async (id: string) => (await admin<ApplicationDetail>(`/admin/applications/${id}`)).body;
const settledApplication = (id: string, statuses: string[]) =>
  eventually(async () => {
    const app = await application(id);
    return app && statuses.includes(app.status) ? app : undefined;
  }, { timeoutMs: 120_000, what: `application ${id} in ${statuses.join('/')}` });

/** Emails to an address whose subject matches, counted as its recipient receives them. */
const mailCount = async (email: string, subject: RegExp) => (await emailsTo(twin(), email)).filter((m) => subject.test(m.subject)).length;
/** Applies with the photos from a caller of its own; fails the test when a step is refused. */
async function apply(email: string) {
  const applied = await applyFounding(twin(), email, photos, { ip: nextIp() });
  if (applied.signup.status !== 200) throw new Error(`founding-talent-signup answered ${applied.signup.status}: ${applied.signup.text}`);
  if (applied.confirmed && applied.confirmed.status !== 200) throw new Error(`confirmation answered ${applied.confirmed.status}: ${applied.confirmed.text}`);
  if (!applied.applicationId) throw new Error('no application id in the answers');
  return applied;
}
const RECEIVED = /received your founding talent application/i;
const WELCOME = /#\d+/;

describe('fault matrix on the twin', () => {
  it('SES down, then back: signups fail visibly while down, no place is lost, the welcome shows failed and is sent once after a redelivery', async () => {
    const api = twin().urls.api;
    const kept = address('ses.kept');
    // Confirmation mailed while SES is up; SES goes down before the address is confirmed.
    const ip = nextIp();
    expect((await postFrom(ip, `${api}/early-signup`, { email: kept, firstName: 'Kim', terms: true })).status).toBe(200);
    const token = await eventually(async () => /confirm=([A-Za-z0-9_-]{43})/.exec((await emailsTo(twin(), kept)).map((m) => m.text ?? '').join('\n'))?.[1], { timeoutMs: 60_000, what: 'confirmation email' });
    await twin().instruments.inject({ kind: 'ses-down', mode: 'refused' });

    // A signup while SES is down is refused out loud (nobody waits for an email that never comes).
    const during = address('ses.during');
    const refused = await postFrom(nextIp(), `${api}/early-signup`, { email: during, terms: true });
    expect(refused.status).toBeGreaterThanOrEqual(500);
    // The place is taken on confirmation even though the welcome email cannot go.
    const confirmed = await postFrom(ip, `${api}/confirm-waitlist`, { token });
    expect(confirmed.status).toBe(200);
    const position = confirmed.json.position as number;
    await twin().idle();
    // The console shows the welcome as failed once its deliveries are spent.
    const entry = await eventually(async () => {
      const e = await waitlistEntry(kept);
      return e?.welcome === 'failed' ? e : undefined;
    }, { what: 'welcome shown as failed' });
    expect(entry.position).toBe(position);
    expect(await mailCount(kept, WELCOME)).toBe(0);

    await twin().instruments.clear('ses-down');
    // Back: the person who was refused tries again and gets one email; the welcome goes out once
    // when the event is delivered again (EventBridge redelivery, or an operator's replay).
    const again = await joinWaitlist(twin(), during, { ip: nextIp() });
    expect(again.signup.status).toBe(200);
    expect(again.confirmed?.status).toBe(200);
    expect(await twin().instruments.replay({ detailType: 'Waitlist.SignedUp' })).toBeGreaterThan(0);
    await twin().idle();
    await twin().instruments.replay({ detailType: 'Waitlist.SignedUp' });
    await twin().idle();
    expect(await mailCount(kept, WELCOME)).toBe(1);
    expect(await mailCount(during, WELCOME)).toBe(1);
    expect(await waitlistEntry(kept)).toMatchObject({ position, welcome: 'sent' });
  });

  it('SES down while a removal completes: the removal happens, and its email arrives once SES is back, once', async () => {
    // A talent accepted from an application that holds their email, signed in to the portal.
    const talentEmail = address('removal');
    const talentId = `fault-removal-${stamp}`;
    const { applicationId } = await createAcceptedTalent(twin(), { email: talentEmail, talentId, firstName: 'Rui', lastName: `Removal ${stamp}`, founding: false, marker: `fault-${stamp}` });
    await documentClient(twin()).send(
      new UpdateCommand({ TableName: twin().physicalName('CatalogTalentTable'), Key: { id: talentId }, UpdateExpression: 'SET applicationId = :app', ExpressionAttributeValues: { ':app': applicationId } }),
    );
    const password = `Str0ng!Passw0rd-${stamp}`;
    await seedUser(twin().urls.cognito, twin().userPoolId, { email: talentEmail, password, groups: ['talent'], name: 'Rui Removal', attributes: { 'custom:role': 'talent' } });
    const token = await idToken(twin(), talentEmail, password, 'web');
    const likeness = async () => LikenessStatus.parse((await callApi(twin(), token, 'GET', '/me/likeness')).json);
    const DONE = /has been removed/i;

    const requested = await callApi(twin(), token, 'POST', '/me/likeness/removal', {});
    expect(requested.status).toBe(200);
    await eventually(async () => (await mailCount(talentEmail, /will be removed/i)) === 1, { what: 'the removal requested email' });
    // The notice (seconds on a test twin) runs out; the likeness is removed by time.
    await eventually(async () => (await likeness()).state === 'removed', { timeoutMs: 60_000, what: 'the removal notice to run out' });

    // SES goes down; the hourly schedule carries the removal out all the same.
    await twin().instruments.inject({ kind: 'ses-down', mode: 'refused' });
    await twin().events.runScheduled('LikenessSchedule');
    const removed = await likeness();
    expect(removed.removedAt).toBeDefined();
    expect(await mailCount(talentEmail, DONE)).toBe(0);
    // Still down at the next run: still nothing sent, nothing lost.
    await twin().events.runScheduled('LikenessSchedule');
    expect(await mailCount(talentEmail, DONE)).toBe(0);

    // SES is back: the next run sends the email, and the runs after it send nothing more.
    await twin().instruments.clear('ses-down');
    await twin().events.runScheduled('LikenessSchedule');
    expect(await mailCount(talentEmail, DONE)).toBe(1);
    await twin().events.runScheduled('LikenessSchedule');
    await twin().idle();
    expect(await mailCount(talentEmail, DONE)).toBe(1);
    const [mail] = (await emailsTo(twin(), talentEmail)).filter((m) => DONE.test(m.subject));
    expect(mail.text).toContain('/talent-portal');
    expect((await likeness()).removedAt).toBe(removed.removedAt);
  });

  it('DynamoDB throttling a third of the calls: every signup and application is kept once and nothing is mailed twice', async () => {
    await twin().instruments.reset();
    await twin().instruments.inject({ kind: 'dynamodb-throttle', share: 0.34 });
    const people = [address('throttle.a'), address('throttle.b'), address('throttle.c')];
    const retriedBefore = serverErrorRetries.retried;
    // People answered "please try again" (the SDK's own retries ran out) try again, as told.
    for (const email of people) {
      const joined = await joinWaitlist(twin(), email, { ip: nextIp(), retries: 3 });
      expect([joined.signup.status, joined.confirmed?.status]).toEqual([200, 200]);
    }
    const applicant = address('throttle.app');
    const applied = await applyFounding(twin(), applicant, photos, { ip: nextIp(), retries: 3 });
    expect(applied.signup).toMatchObject({ status: 200 });
    // With what it said, when it is not a 200.
    expect({ status: applied.confirmed?.status, error: applied.confirmed?.json?.error }).toEqual({ status: 200, error: undefined });
    const app = await settledApplication(applied.applicationId!, ['pending_review']);
    expect(app.validPhotoCount).toBe(photos.length);
    await twin().idle();
    expect((await twin().instruments.meters()).dynamodb.throttled).toBeGreaterThan(10);
    // How often a person had to try again (a figure for the report, not a limit).
    process.stderr.write(`throttling: ${serverErrorRetries.retried - retriedBefore} requests answered 5xx and were tried again\n`);

    const positions = new Set<number>();
    for (const email of people) {
      const entry = await waitlistEntry(email);
      expect(entry?.welcome).toBe('sent');
      positions.add(entry!.position);
      expect(await mailCount(email, WELCOME)).toBe(1);
    }
    expect(positions.size).toBe(people.length);
    // The application's email goes out once, or shows in the console as failed.
    const outcome = await eventually(
      async () => ((await mailCount(applicant, RECEIVED)) > 0 ? 'sent' : (await application(applied.applicationId!)).confirmationEmail === 'failed' ? 'failed' : undefined),
      { timeoutMs: 60_000, what: 'the application email sent or shown failed' },
    );
    expect(outcome).toBe('sent');
    await twin().idle();
    expect(await mailCount(applicant, RECEIVED)).toBe(1);
  });

  it('S3 and EventBridge events delivered again change nothing and send nothing twice', async () => {
    const applicant = address('replay');
    const applied = await apply(applicant);
    const id = applied.applicationId!;
    const before = await settledApplication(id, ['pending_review']);
    await eventually(async () => (await mailCount(applicant, RECEIVED)) === 1, { timeoutMs: 60_000, what: 'received email' });

    let replayed = 0;
    for (const key of applied.keys) replayed += await twin().instruments.replay({ source: 'aws.s3', detailIncludes: key });
    expect(replayed).toBe(applied.keys.length);
    expect(await twin().instruments.replay({ detailType: 'FoundingApplication.Submitted', detailIncludes: id })).toBeGreaterThan(0);
    await atRest(twin());

    const after = await application(id);
    expect(after).toMatchObject({ status: 'pending_review', validPhotoCount: before.validPhotoCount, rejectedPhotoCount: before.rejectedPhotoCount });
    expect(after.photos).toHaveLength(before.photos.length);
    expect(await mailCount(applicant, RECEIVED)).toBe(1);
  });

  it('a crash of the photo validator once is retried; always, the application shows failed in the console and an admin retry finishes it', async () => {
    const validator = functionOf('founding/steps/validate-photos');
    await twin().instruments.inject({ kind: 'function', name: validator, mode: 'throw', times: 1 });
    const once = await apply(address('crash.once'));
    expect(await settledApplication(once.applicationId!, ['pending_review'])).toMatchObject({ validPhotoCount: photos.length });

    await twin().instruments.inject({ kind: 'function', name: validator, mode: 'throw' });
    const applicant = address('crash.always');
    const always = await apply(applicant);
    const failed = await settledApplication(always.applicationId!, ['failed']);
    expect(failed.failure).toMatchObject({ step: expect.any(String), error: expect.any(String) });
    await twin().instruments.clear('function', validator);

    const retried = await admin(`/admin/applications/${always.applicationId}/retry`, { method: 'POST', body: '{}' });
    expect(retried.status).toBeLessThan(300);
    expect(await settledApplication(always.applicationId!, ['pending_review'])).toMatchObject({ validPhotoCount: photos.length });
    await eventually(async () => (await mailCount(applicant, RECEIVED)) >= 1, { timeoutMs: 60_000, what: 'received email' });
    await twin().idle();
    expect(await mailCount(applicant, RECEIVED)).toBe(1);
  });

  it('a double submit makes one application and one email', async () => {
    const applicant = address('double');
    const ip = nextIp();
    const { uploadSession, keys } = await uploadPhotos(twin(), applicant, photos, ip);
    const body = foundingPayload(applicant, uploadSession, keys);
    const [first, second] = await Promise.all([1, 2].map(() => postFrom(ip, `${twin().urls.api}/founding-talent-signup`, body)));
    expect([first, second]).toMatchObject([{ status: 200 }, { status: 200 }]);
    expect(second.json.applicationId).toBe(first.json.applicationId);
    await twin().idle();
    const mails = await emailsTo(twin(), applicant);
    expect(mails).toHaveLength(1);
  });

  it('a slow email step (its answer past the time-out, after sending) does not mail twice', async () => {
    const mailer = functionOf('founding/steps/send-application-email');
    await twin().instruments.inject({ kind: 'function', name: mailer, mode: 'slow', times: 1 });
    const applicant = address('slow');
    const applied = await apply(applicant);
    await settledApplication(applied.applicationId!, ['pending_review', 'failed']);
    await eventually(async () => (await mailCount(applicant, RECEIVED)) >= 1, { timeoutMs: 60_000, what: 'received email' });
    await atRest(twin());
    expect(await mailCount(applicant, RECEIVED)).toBe(1);
    const meters = await twin().instruments.meters();
    expect(meters.lambda[mailer].errors).toBeGreaterThan(0);
    // The failure is visible: either retried into a sent email, or the application shows it.
    const app = await application(applied.applicationId!);
    expect(app.status === 'failed' ? app.failure : app.confirmationEmail).toBeTruthy();
  });

  it('delivery failing for good after 2 of 4 images: exactly 2 valid licenses, 2 credits committed and 2 released, accruals for those 2 only', async () => {
    const email = address('delivery');
    const password = 'Deliver!ng-2026';
    const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password, groups: ['client'], name: 'Dee Livery', attributes: { 'custom:role': 'client' } });
    const token = await idToken(twin(), email, password, 'web');
    // The images bucket takes this client's first 2 images, then fails every PUT (the SDK's and the step's retries included).
    await twin().instruments.inject({ kind: 's3-put-fail', keyIncludes: `generations/${user.sub}/`, after: 2 });
    const start = await callApi(twin(), token, 'POST', '/generations', { talentId: 'maya-chen', prompt: `A potter at her wheel ${stamp}`, style: 'Portrait', count: 4 });
    expect(start.status).toBe(202);
    const { id } = GenerationStarted.parse(start.json);
    const generation = await eventually(
      async () => {
        const g = Generation.parse((await callApi(twin(), token, 'GET', `/generations/${id}`)).json);
        return g.status === 'failed' ? g : undefined;
      },
      { timeoutMs: 120_000, what: `generation ${id} failed` },
    );
    await twin().instruments.clear('s3-put-fail');

    // The two images delivered are licensed, on the generation and paid for; the other two exist nowhere.
    const licenses = [0, 1, 2, 3].map((i) => licenseIdOf(id, i));
    expect(generation.images.map((i) => i.licenseId).sort()).toEqual(licenses.slice(0, 2).sort());
    expect(generation.creditsSpent).toBe(2);
    const confirmations = await Promise.all(licenses.map(async (l) => (await callApi(twin(), undefined, 'GET', `/licenses/${l}`)).status));
    expect(confirmations).toEqual([200, 200, 404, 404]);
    const ledger = LedgerPage.parse((await callApi(twin(), token, 'GET', '/me/ledger?limit=50')).json).entries.filter((e) => e.generationId === id);
    expect(ledger.map((e) => [e.kind, e.credits]).sort()).toEqual([['commit', 0], ['commit', 0], ['release', 2], ['reserve', -4]].sort());
    expect((await callApi(twin(), token, 'GET', '/me')).json).toMatchObject({ credits: { balance: 8 } });
    const accruals = await documentClient(twin()).send(
      new QueryCommand({
        TableName: twin().physicalName('GenerationsTable'),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: 'generationId = :g',
        ExpressionAttributeValues: { ':pk': generationKeys.talent('maya-chen'), ':prefix': generationKeys.accrualPrefix, ':g': id },
        ConsistentRead: true,
      }),
    );
    expect((accruals.Items ?? []).map((a) => a.licenseId).sort()).toEqual(licenses.slice(0, 2).sort());
    // The failure shows in the console.
    const shown = AdminGeneration.parse((await admin<unknown>(`/admin/generations/${id}`)).body);
    expect(shown).toMatchObject({ status: 'failed', creditsReserved: 4, creditsSpent: 2, failure: { code: 'error' } });
  });

  it('a lost create answer: exactly one prediction exists for the generation, which succeeds once', async () => {
    const email = address('lost.create');
    const password = 'L0st-Answer!2026';
    await seedUser(twin().urls.cognito, twin().userPoolId, { email, password, groups: ['client'], name: 'Lou Stanswer', attributes: { 'custom:role': 'client' } });
    const token = await idToken(twin(), email, password, 'web');
    // Replicate makes the prediction, and the connection closes before its answer is sent.
    await twin().replicate.inject({ kind: 'lose-create-answer', times: 1 });
    const prompt = `A weaver at her loom ${stamp}`;
    const start = await callApi(twin(), token, 'POST', '/generations', { talentId: 'maya-chen', prompt, style: 'Portrait', count: 1 });
    expect(start.status).toBe(202);
    const { id } = GenerationStarted.parse(start.json);
    const generation = await eventually(
      async () => {
        const g = Generation.parse((await callApi(twin(), token, 'GET', `/generations/${id}`)).json);
        return ['succeeded', 'failed', 'canceled'].includes(g.status) ? g : undefined;
      },
      { timeoutMs: 120_000, what: `generation ${id} to end` },
    );
    await twin().idle();

    expect(generation).toMatchObject({ status: 'succeeded', creditsSpent: 1 });
    expect(generation.images).toHaveLength(1);
    const made = (await twin().replicate.predictions()).filter((p) => p.webhook?.endsWith(`?generation=${id}`));
    expect(made).toHaveLength(1);
    expect(made[0].status).toBe('succeeded');
    // Charged once, and the console shows the one prediction and how it was found.
    expect((await callApi(twin(), token, 'GET', '/me')).json).toMatchObject({ credits: { balance: 9 } });
    const shown = AdminGeneration.parse((await admin<unknown>(`/admin/generations/${id}`)).body);
    expect(shown.predictionId).toBe(made[0].id);
    expect(shown.steps.filter((s) => s.step === 'StartPrediction')).toHaveLength(1);
    expect(shown.steps.filter((s) => s.step === 'DeliverImages')).toHaveLength(1);
  });
});
