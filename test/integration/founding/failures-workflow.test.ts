// The review workflow's failure paths on the twin (decision 017): a step that fails for good is
// visible in the console API and an admin's retry resumes it to the end; the reviewer's internal
// note never reaches the applicant while their message does; an invalid application's photos are
// deleted at once and a rejected one's are tagged for the bucket's lifecycle backstop.
// Applications are seeded as validation leaves them and their execution started directly, so the
// workflow runs for real from its first state without the upload and signup steps.
import { GetObjectTaggingCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import type { ApplicationDetail, ApplicationSummary, EmailPreview, RetryAnswer } from '../../../events/founding';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { documentClient, idToken, useTwin } from '../../support/twin';
import { PAST_GATES, jpeg } from './support';
import { eventually } from '../../support/eventually';

jest.setTimeout(180_000);
const twin = useTwin();

const table = () => twin().physicalName('FoundingApplicationsTable');
const bucket = () => twin().physicalName('FoundingPhotos');
const s3 = () => new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });
const admin = async (path: string, init: RequestInit = {}) => {
  const token = await idToken(twin(), twin().admin.email, twin().admin.password);
  return fetch(`${twin().urls.api}/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
};
const post = (path: string, body: unknown = {}) => admin(path, { method: 'POST', body: JSON.stringify(body) });
const stored = async (id: string) =>
  (await documentClient(twin()).send(new GetCommand({ TableName: table(), Key: { pk: `APP#${id}`, sk: 'APPLICATION' }, ConsistentRead: true }))).Item!;
const settled = (id: string, check: (app: Record<string, unknown>) => boolean, what: string, timeoutMs = 60_000) =>
  eventually(async () => {
    const app = await stored(id);
    return check(app) ? app : undefined;
  }, { timeoutMs, what });
const emailsTo = async (address: string) => (await twin().emails()).filter((m) => m.to.includes(address));

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const newId = () => `app_${Array.from(randomBytes(20), (b) => BASE32[b % 32]).join('')}`;

/**
 * An application as validation leaves it (photo results recorded, so the workflow's first step
 * reports them again), with `photos` stored photos in the bucket, and its execution started.
 */
async function startApplication(options: { firstName?: string; lastName?: string; validPhotoCount?: number; photos?: number } = {}) {
  const id = newId();
  const email = `${id.slice(4, 14)}@failures.example`;
  const validPhotoCount = options.validPhotoCount ?? 30;
  const now = new Date().toISOString();
  await documentClient(twin()).send(
    new PutCommand({
      TableName: table(),
      Item: {
        pk: `APP#${id}`, sk: 'APPLICATION', id, program: 'standard', status: validPhotoCount >= 30 ? 'pending_review' : 'invalid',
        firstName: options.firstName ?? 'Tess', lastName: options.lastName ?? 'Okafor', email, phone: '', location: 'Lagos', age: 31, excludedIndustries: [],
        experience: 'Runway.', interests: '', portfolioUrl: '', terms: { accepted: true, acceptedAt: now }, submittedAt: now, imageCount: 30,
        imagePaths: [], photoResults: [], validPhotoCount, rejectedPhotoCount: 30 - validPhotoCount, validatedAt: now,
        gsi1pk: 'APPLICATIONS', gsi1sk: `${now}#${id}`,
        // The applicant declined face checks: the proof of person's wait resumes at once (docs/identity.md).
        identity: { state: 'manual', faceConsent: 'declined' },
      },
    }),
  );
  const body = await jpeg(7, 520);
  for (let i = 0; i < (options.photos ?? 2); i++) {
    for (const kind of ['photos', 'thumbs']) {
      await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: `applications/${id}/${kind}/${i}.jpg`, Body: body, ContentType: 'image/jpeg' }));
    }
  }
  await startExecution(id, id);
  return { id, email };
}

/** StartExecution as the EventBridge rule does, with the Submitted event's detail. */
async function startExecution(id: string, name: string) {
  const sfn = new SFNClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  const input = { version: 1, applicationId: id, program: 'standard', submittedAt: new Date().toISOString() };
  return sfn.send(new StartExecutionCommand({ stateMachineArn: workflowArn(), name, input: JSON.stringify(input) }));
}

/** The FoundingApplication state machine's ARN on the twin: its name in the template, in the twin's account and region. */
function workflowArn(): string {
  const [, machine] = Object.entries(twin().template.Resources).find(([lid, r]) => r.Type === 'AWS::StepFunctions::StateMachine' && lid.startsWith('FoundingWorkflow'))!;
  const name = machine.Properties?.StateMachineName;
  if (typeof name !== 'string') throw new Error('the FoundingApplication state machine has no literal name in the template');
  return twin().functions()[0].arn.replace(/^arn:aws:lambda:([^:]+):([^:]+):.*$/, `arn:aws:states:$1:$2:stateMachine:${name}`);
}

const storedKeys = async (id: string) => ((await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `applications/${id}/` }))).Contents ?? []).map((o) => o.Key!);

describe('reviewer note and message to the applicant', () => {
  it('the rejection email carries the message to the applicant and never the internal note, as the preview showed; the photos are tagged for deletion', async () => {
    const { id, email } = await startApplication();
    await settled(id, (a) => Boolean(a.taskToken), 'the review wait');
    const note = 'INTERNAL: looks like agency stock, do not tell them.';
    const message = 'Thank you! We are looking for more natural light in portraits.';

    const previewRes = await post(`/applications/${id}/email-preview`, { decision: 'reject', messageToApplicant: message });
    expect(previewRes.status).toBe(200);
    const preview = (await previewRes.json()) as EmailPreview;
    expect(preview).toMatchObject({ to: email, subject: expect.stringContaining('About your application') });
    expect(preview.text).toContain(message);
    expect((await post(`/applications/${id}/email-preview`, { decision: 'reject', messageToApplicant: 5 })).status).toBe(400);

    const decided = await post(`/applications/${id}/decision`, { decision: 'reject', note, messageToApplicant: message });
    expect(decided.status).toBe(202);
    const mail = await eventually(async () => (await emailsTo(email)).find((m) => /About your application/.test(m.subject)), { what: 'rejection email' });
    expect(mail.text).toContain(message);
    expect(`${mail.text}\n${mail.html}`).not.toContain('agency stock');
    // Exactly what the console previewed.
    expect({ subject: mail.subject, text: mail.text, html: mail.html }).toEqual({ subject: preview.subject, text: preview.text, html: preview.html });

    // The console still shows the note, marked internal, and the message apart.
    const detail = (await (await admin(`/applications/${id}`)).json()) as ApplicationDetail;
    expect(detail.decision).toMatchObject({ decision: 'reject', note, messageToApplicant: message });

    // Tagged for the lifecycle backstop before the retention wait.
    await settled(id, (a) => Boolean(a.photosMarkedAt), 'photos marked for deletion');
    const keys = await storedKeys(id);
    expect(keys).toHaveLength(4);
    for (const key of keys) {
      const tags = await s3().send(new GetObjectTaggingCommand({ Bucket: bucket(), Key: key }));
      expect(tags.TagSet).toEqual([{ Key: 'retention', Value: 'delete' }]);
    }
  });
});

describe('retention of invalid applications', () => {
  it("deletes an invalid application's stored photos once the applicant has been told", async () => {
    const { id, email } = await startApplication({ validPhotoCount: 12, photos: 3 });
    expect(await storedKeys(id)).toHaveLength(6);
    const app = await settled(id, (a) => Boolean(a.photosDeletedAt), 'photos deleted');
    expect(app.status).toBe('invalid');
    expect(await storedKeys(id)).toEqual([]);
    expect((await emailsTo(email)).map((m) => m.subject)).toEqual([expect.stringContaining('needs more photos')]);
  });
});

describe('a step that fails for good', () => {
  it('is visible in the console API with its step and error name; a retry resumes it once and the application completes', async () => {
    // A name the catalog refuses: CreateTalent fails after the acceptance.
    const { id, email } = await startApplication({ firstName: '   ', lastName: '' });
    await settled(id, (a) => Boolean(a.taskToken), 'the review wait');
    expect((await post(`/applications/${id}/retry`)).status).toBe(409);
    expect((await post(`/applications/${id}/decision`, { decision: 'accept', note: '', ...PAST_GATES })).status).toBe(202);

    const failed = await settled(id, (a) => a.status === 'failed', 'status failed');
    expect(failed.failure).toMatchObject({ step: 'CreateTalent', error: expect.any(String) });
    expect(failed.statusBeforeFailure).toBe('accepted');
    const detail = (await (await admin(`/applications/${id}`)).json()) as ApplicationDetail;
    expect(detail).toMatchObject({ status: 'failed', failure: { step: 'CreateTalent', error: failed.failure.error } });
    expect(JSON.stringify(detail.failure)).not.toContain(email);
    expect(detail.history.map((h) => h.event)).toContain('step failed');
    const list = (await (await admin('/applications?status=failed&limit=200')).json()) as { items: ApplicationSummary[] };
    expect(list.items.map((a) => a.id)).toContain(id);
    // Nothing after the failed step ran.
    expect(failed.talentId).toBeUndefined();
    expect((await emailsTo(email)).some((m) => /accepted/i.test(m.subject))).toBe(false);

    // The cause is fixed; an admin retries. Two retries at once start one execution.
    await documentClient(twin()).send(
      new UpdateCommand({ TableName: table(), Key: { pk: `APP#${id}`, sk: 'APPLICATION' }, UpdateExpression: 'SET firstName = :n', ExpressionAttributeValues: { ':n': 'Tess' } }),
    );
    const [first, second] = await Promise.all([post(`/applications/${id}/retry`), post(`/applications/${id}/retry`)]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    const answer = (await (first.status === 202 ? first : second).json()) as RetryAnswer;
    expect(answer).toEqual({ id, status: 'accepted', resumedAt: 'CreateTalent' });

    const done = await settled(id, (a) => Boolean(a.talentId && a.invitedAt), 'talent created and invited');
    expect(done).toMatchObject({ status: 'accepted', retryCount: 1 });
    expect(done.failure).toBeUndefined();
    await eventually(async () => (await emailsTo(email)).find((m) => /accepted/i.test(m.subject)), { what: 'acceptance email' });
    expect((await emailsTo(email)).filter((m) => /accepted/i.test(m.subject))).toHaveLength(1);
    // AllocateSpot ran once, before the failure: the retry resumed after it.
    const history = ((await (await admin(`/applications/${id}`)).json()) as ApplicationDetail).history.map((h) => h.event);
    expect(history.filter((e) => e === 'spot allocated')).toHaveLength(1);
    expect(history.filter((e) => e === 'retried')).toHaveLength(1);
    expect((await post(`/applications/${id}/retry`)).status).toBe(409);
  });
});

describe('one review per application', () => {
  it("a second execution of the same application (a repeated start) never takes the first's review token, and the decision is carried out once", async () => {
    const { id, email } = await startApplication();
    const first = await settled(id, (a) => Boolean(a.taskToken), 'the review wait');
    expect(first.reviewExecution).toBe(id);
    const second = await startExecution(id, `${id}-again`);
    // DescribeExecution over HTTP: the twin answers dates as ISO strings, which the SDK does not parse.
    const describe = async () => {
      const res = await fetch(twin().urls.control, {
        method: 'POST',
        headers: { 'x-amz-target': 'AWSStepFunctions.DescribeExecution', 'content-type': 'application/x-amz-json-1.0' },
        body: JSON.stringify({ executionArn: second.executionArn }),
      });
      return (await res.json()) as { status: string };
    };
    const ended = await eventually(async () => {
      const d = await describe();
      return d.status !== 'RUNNING' ? d : undefined;
    }, { what: 'the second execution to end' });
    expect(ended.status).toBe('SUCCEEDED');
    expect(await stored(id)).toMatchObject({ taskToken: first.taskToken, reviewExecution: id });

    expect((await post(`/applications/${id}/decision`, { decision: 'accept', note: '', ...PAST_GATES })).status).toBe(202);
    await settled(id, (a) => Boolean(a.invitedAt), 'invited');
    await eventually(async () => (await emailsTo(email)).find((m) => /accepted/i.test(m.subject)), { what: 'acceptance email' });
    const history = ((await (await admin(`/applications/${id}`)).json()) as ApplicationDetail).history.map((h) => h.event);
    expect(history.filter((e) => e === 'talent created')).toHaveLength(1);
    expect(history.filter((e) => e === 'waiting for review')).toHaveLength(1);
  });
});
