// Process env before the S3 client is made: the twin sets these for every function.
process.env.AWS_REQUEST_CHECKSUM_CALCULATION = 'WHEN_REQUIRED';
process.env.AWS_RESPONSE_CHECKSUM_VALIDATION = 'WHEN_REQUIRED';

/**
 * A likeness removal and an erasure on the twin (docs/training.md "Removal and erasure",
 * docs/identity.md "What is stored"), where a removal's notice is 5 seconds. Two founding talent
 * are accepted and their models trained on the Replicate emulator. The first approves their
 * version, sees it in their data export, and asks for removal; once the notice ends, the hourly
 * likeness schedule carries it out and publishes `Likeness.Removed`: the training wing deletes the
 * version on the emulator and the training set and samples, keeping the record marked deleted;
 * the founding wing deletes the application's photos, selfie and sealed face analyses, and the
 * application shows `photosDeletedAt`. The second is erased from the console: the version, the
 * files and the training records are deleted and the erasure's counts say so.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import type { ErasureResult } from '../../../events/erasure';
import { DataExport, LikenessStatus } from '../../../events/likeness';
import { EVENT_SOURCE } from '../../../events/product';
import { SAMPLE_PROMPTS } from '../../../events/training-values';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { seedUser } from '../../../infra/local/provision';
import { foundingStore } from '../../../functions/founding/store';
import { trainingStore, type TrainingRecord } from '../../../functions/training/store';
import { createAcceptedTalent, setApplicationFields } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';

jest.setTimeout(420_000);
const twin = useTwin();
const run = fileMarker('lrm');
const PASSWORD = 'Str0ng!Passw0rd-lrm';
const PHOTOS = 12;

const call = (token: string | undefined, method: string, path: string, body?: unknown) => callApi(twin(), token, method, path, body);
const s3 = () => new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });
const trainings = () => trainingStore(documentClient(twin()), twin().physicalName('TrainingTable'));
const applications = () => foundingStore(documentClient(twin()), twin().physicalName('FoundingApplicationsTable'));

/** Every key under a prefix of one of the twin's buckets. */
async function keys(bucketPrefix: string, prefix: string): Promise<string[]> {
  const listed = await s3().send(new ListObjectsV2Command({ Bucket: twin().physicalName(bucketPrefix), Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key!);
}

interface Person {
  talentId: string;
  email: string;
  applicationId: string;
  token: string;
}

/**
 * An accepted founding talent of this file, as the acceptance leaves them (the catalog naming
 * their application), with stored accepted photos (the identity check's face box on each), a
 * selfie and sealed face analyses under the application's identity prefix, and their signed-in token.
 */
async function acceptedTalent(who: string, firstName: string): Promise<Person> {
  const talentId = `${who}-${run}`;
  const email = `${who}.${run}@people.example`;
  const { applicationId } = await createAcceptedTalent(twin(), { email, talentId, firstName, lastName: `Leaving ${run}`, founding: true, marker: `${who}-${run}` });
  await documentClient(twin()).send(
    new UpdateCommand({ TableName: twin().physicalName('CatalogTalentTable'), Key: { id: talentId }, UpdateExpression: 'SET applicationId = :app', ExpressionAttributeValues: { ':app': applicationId } }),
  );
  const bucket = twin().physicalName('FoundingPhotos');
  const put = (key: string, body: Buffer) => s3().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'image/jpeg' }));
  const photoResults = [];
  for (let i = 0; i < PHOTOS; i++) {
    const face = await sharp({ create: { width: 160, height: 200, channels: 3, background: { r: 230, g: 180, b: 150 } } }).png().toBuffer();
    const body = await sharp({ create: { width: 640, height: 800, channels: 3, background: { r: 40 + i * 10, g: 90, b: 160 } } })
      .composite([{ input: face, left: 240, top: 200 }])
      .jpeg()
      .toBuffer();
    await put(`applications/${applicationId}/photos/${i}.jpg`, body);
    await put(`applications/${applicationId}/thumbs/${i}.jpg`, body);
    photoResults.push({ source: `pending/${run}/${i}.jpg`, accepted: true, index: i, width: 640, height: 800, usable: true, face: { x: 0.375, y: 0.25, width: 0.25, height: 0.25 } });
  }
  await put(`applications/${applicationId}/identity/selfie-1.jpg`, Buffer.from('a selfie'));
  await put(`applications/${applicationId}/identity/analyses/photos.sealed`, Buffer.from('sealed face analyses'));
  await setApplicationFields(twin(), applicationId, { photoResults, validPhotoCount: PHOTOS });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], name: firstName, attributes: { 'custom:role': 'talent' } });
  return { talentId, email, applicationId, token: await idToken(twin(), email, PASSWORD, 'web') };
}

/** What the reviewer's decision publishes (functions/founding/routes/decide-application). */
async function accept(applicationId: string): Promise<void> {
  const events = new EventBridgeClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  const detail = { version: 1, applicationId, decision: 'accept', decidedAt: new Date().toISOString() };
  await events.send(
    new PutEventsCommand({ Entries: [{ EventBusName: twin().physicalName('EventsBus'), Source: EVENT_SOURCE, DetailType: 'FoundingApplication.Decided', Detail: JSON.stringify(detail) }] }),
  );
}

/** The talent's trained version, once their first training waits for review. */
async function trained(talentId: string): Promise<TrainingRecord> {
  return eventually(
    async () => {
      const model = await trainings().getModel(talentId);
      const t = model?.currentTrainingId ? await trainings().getTraining(model.currentTrainingId) : undefined;
      if (t?.status === 'failed') throw new Error(`the training failed: ${t.failure?.message}`);
      return t?.status === 'ready-for-review' && t.version ? t : undefined;
    },
    { timeoutMs: 240_000, what: `the training of ${talentId} to be ready for review` },
  );
}

/** Whether the emulator still holds the version, undeleted. */
async function versionOnEmulator(version: string): Promise<'live' | 'deleted' | 'missing'> {
  const model = (await twin().replicate.models()).find((m) => m.versions.some((v) => v.id === version));
  const found = model?.versions.find((v) => v.id === version);
  return !found ? 'missing' : found.deleted ? 'deleted' : 'live';
}

/** The training's set and samples in the training bucket. */
const trainingFiles = async (trainingId: string) => [...(await keys('TrainingFiles', `training-sets/${trainingId}`)), ...(await keys('TrainingFiles', `samples/${trainingId}/`))];

let leaving: Person;
let erased: Person;
let leavingTraining: TrainingRecord;
let erasedTraining: TrainingRecord;

beforeAll(async () => {
  [leaving, erased] = await Promise.all([acceptedTalent('leaving', 'Lena'), acceptedTalent('erased', 'Ezra')]);
  await Promise.all([accept(leaving.applicationId), accept(erased.applicationId)]);
  [leavingTraining, erasedTraining] = await Promise.all([trained(leaving.talentId), trained(erased.talentId)]);
});

describe('a talent\'s likeness removal on the twin', () => {
  it('the data export lists the talent\'s trained and approved version', async () => {
    expect((await call(leaving.token, 'POST', '/me/likeness-model/approve')).status).toBe(200);
    const exported = await call(leaving.token, 'GET', '/me/data-export');
    expect(exported.status).toBe(200);
    const data = DataExport.parse(exported.json);
    expect(data.trainings).toEqual([
      { number: 1, status: 'approved', version: leavingTraining.version, createdAt: leavingTraining.createdAt, completedAt: expect.any(String), approvedAt: expect.any(String) },
    ]);
    const model = await trainings().getModel(leaving.talentId);
    expect(exported.text).not.toContain(model!.triggerWord);
    expect(exported.text).not.toContain(model!.replicateModel);
  });

  it('once the notice ends, the schedule carries it out: the version, training files, photos and face data are deleted', async () => {
    // Before: the version on the emulator, the set and samples, the photos, selfie and analyses.
    expect(await versionOnEmulator(leavingTraining.version!)).toBe('live');
    expect(await trainingFiles(leavingTraining.id)).toHaveLength(1 + SAMPLE_PROMPTS.length);
    expect(await keys('FoundingPhotos', `applications/${leaving.applicationId}/identity/`)).toHaveLength(2);

    const requested = LikenessStatus.parse((await call(leaving.token, 'POST', '/me/likeness/removal', { acceptFoundingRateLoss: true })).json);
    expect(requested.state).toBe('removal-pending');
    await eventually(async () => LikenessStatus.parse((await call(leaving.token, 'GET', '/me/likeness')).json).state === 'removed', { what: 'the notice to end' });
    await twin().events.runScheduled('LikenessSchedule');

    expect(await eventually(async () => (await versionOnEmulator(leavingTraining.version!)) === 'deleted', { timeoutMs: 60_000, what: 'the version to be deleted on the emulator' })).toBe(true);
    await eventually(async () => (await trainingFiles(leavingTraining.id)).length === 0, { timeoutMs: 60_000, what: 'the training set and samples to be deleted' });
    await eventually(async () => (await keys('FoundingPhotos', `applications/${leaving.applicationId}/`)).length === 0, { timeoutMs: 60_000, what: 'the application\'s photos and face data to be deleted' });
    const application = await eventually(async () => {
      const app = await applications().getApplication(leaving.applicationId);
      return app.photosDeletedAt ? app : undefined;
    }, { what: 'photosDeletedAt on the application' });
    expect(Date.parse(application.photosDeletedAt!)).toBeGreaterThanOrEqual(Date.parse(requested.removal!.effectiveAt));

    // The record stays, marked deleted; the model is marked removed.
    const record = await eventually(
      async () => {
        const t = await trainings().getTraining(leavingTraining.id);
        return t?.deletedAt ? t : undefined;
      },
      { what: 'the training marked deleted' },
    );
    expect(record).toMatchObject({ id: leavingTraining.id, version: leavingTraining.version, deletedAt: expect.any(String) });
    expect((await trainings().getModel(leaving.talentId))?.removedAt).toEqual(expect.any(String));

    // The export shows the version deleted; the other talent's model is untouched.
    const data = DataExport.parse((await call(leaving.token, 'GET', '/me/data-export')).json);
    expect(data.trainings).toEqual([expect.objectContaining({ number: 1, version: leavingTraining.version, deletedAt: record.deletedAt })]);
    expect(await versionOnEmulator(erasedTraining.version!)).toBe('live');
    expect(await keys('FoundingPhotos', `applications/${erased.applicationId}/identity/`)).toHaveLength(2);
  });
});

describe('a talent\'s erasure on the twin', () => {
  it('deletes the model\'s versions, training files and records, and counts them', async () => {
    const admin = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
    const answer = await call(admin, 'POST', '/admin/erasures', { email: erased.email, confirm: erased.email });
    expect(answer.status).toBe(201);
    const { removed } = answer.json as ErasureResult;
    // The model, its one training and the acceptance that started it.
    expect(removed).toMatchObject({ modelVersions: 1, trainingFiles: 1 + SAMPLE_PROMPTS.length, trainingRecords: 3 });
    expect(await versionOnEmulator(erasedTraining.version!)).toBe('deleted');
    expect(await trainingFiles(erasedTraining.id)).toEqual([]);
    expect(await trainings().getModel(erased.talentId)).toBeUndefined();
    expect(await trainings().listTrainings(erased.talentId)).toEqual([]);
    expect(await keys('FoundingPhotos', `applications/${erased.applicationId}/`)).toEqual([]);
  });
});
