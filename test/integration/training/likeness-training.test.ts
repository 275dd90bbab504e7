// Process env before the S3 client is made: the twin sets these for every function.
process.env.AWS_REQUEST_CHECKSUM_CALCULATION = 'WHEN_REQUIRED';
process.env.AWS_RESPONSE_CHECKSUM_VALIDATION = 'WHEN_REQUIRED';

/**
 * The likeness model on the twin, end to end (docs/training.md): an accepted application's
 * `FoundingApplication.Decided` on the bus starts the LikenessTraining state machine, which
 * crops and zips the accepted photos in the training bucket, creates the talent's private model on
 * the Replicate emulator, trains it there (the emulator downloads the zip by its presigned URL
 * and signs its webhooks), records the version with its cost, makes the samples and emails the
 * talent. Another talent sees and approves only their own model. The talent approves: the
 * catalog's generation config holds the trained version, the talent is listed, and a client's
 * generation runs on that version. The console lists the training; the removal deletes the
 * version on Replicate and the files.
 */
import { randomUUID } from 'node:crypto';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import sharp from 'sharp';
import { FINAL_STATUSES } from '../../../events/generation-values';
import { Generation, GenerationStarted } from '../../../events/generations';
import { EVENT_SOURCE } from '../../../events/product';
import { TalentListResponse } from '../../../events/talent';
import { AdminTrainingsResponse, LikenessModelView } from '../../../events/training';
import { SAMPLE_PROMPTS, TRAINING_ID_PATTERN } from '../../../events/training-values';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { seedUser } from '../../../infra/local/provision';
import { accountStore } from '../../../functions/accounts/store';
import { talentStore } from '../../../functions/catalog/store';
import { removeLikenessModel } from '../../../functions/training';
import { triggerWordFor } from '../../../functions/training/keys';
import { replicateApi } from '../../../functions/shared/replicate';
import { trainingStore, type TrainingRecord } from '../../../functions/training/store';
import { s3Bucket } from '../../../functions/shared/s3';
import { createAcceptedTalent, setApplicationFields } from '../../support/accepted-talent';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';

jest.setTimeout(300_000);
const twin = useTwin();
const run = fileMarker('trn');
const PASSWORD = 'Str0ng!Passw0rd-trn';
const talentId = `trained-${run}`;
const talentEmail = `trained.talent.${run}@people.example`;
const otherId = `other-${run}`;
const otherEmail = `other.talent.${run}@people.example`;
const PHOTOS = 12;

const call = (token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => callApi(twin(), token, method, path, body, headers);
const s3 = () => new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });
const trainings = () => trainingStore(documentClient(twin()), twin().physicalName('TrainingTable'));

/** An accepted talent of this file with stored, accepted photos (the identity check's face box on each), and their signed-in token. */
async function acceptedTalent(id: string, email: string, firstName: string) {
  const { applicationId } = await createAcceptedTalent(twin(), { email, talentId: id, firstName, lastName: `Trained ${run}`, founding: true, marker: `${id}-${run}` });
  const bucket = twin().physicalName('FoundingPhotos');
  const photoResults = [];
  for (let i = 0; i < PHOTOS; i++) {
    const face = await sharp({ create: { width: 160, height: 200, channels: 3, background: { r: 230, g: 180, b: 150 } } }).png().toBuffer();
    const body = await sharp({ create: { width: 640, height: 800, channels: 3, background: { r: 40 + i * 10, g: 90, b: 160 } } })
      .composite([{ input: face, left: 240, top: 200 }])
      .jpeg()
      .toBuffer();
    await s3().send(new PutObjectCommand({ Bucket: bucket, Key: `applications/${applicationId}/photos/${i}.jpg`, Body: body, ContentType: 'image/jpeg' }));
    photoResults.push({ source: `pending/${run}/${i}.jpg`, accepted: true, index: i, width: 640, height: 800, usable: true, face: { x: 0.375, y: 0.25, width: 0.25, height: 0.25 } });
  }
  await setApplicationFields(twin(), applicationId, { photoResults, validPhotoCount: PHOTOS });
  await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], name: firstName, attributes: { 'custom:role': 'talent' } });
  return { applicationId, token: await idToken(twin(), email, PASSWORD, 'web') };
}

/** What the reviewer's decision publishes (functions/founding/routes/decide-application). */
async function accept(applicationId: string): Promise<void> {
  const events = new EventBridgeClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  const detail = { version: 1, applicationId, decision: 'accept', decidedAt: new Date().toISOString() };
  await events.send(
    new PutEventsCommand({ Entries: [{ EventBusName: twin().physicalName('EventsBus'), Source: EVENT_SOURCE, DetailType: 'FoundingApplication.Decided', Detail: JSON.stringify(detail) }] }),
  );
}

async function currentTraining(id: string): Promise<TrainingRecord | undefined> {
  const model = await trainings().getModel(id);
  return model?.currentTrainingId ? trainings().getTraining(model.currentTrainingId) : undefined;
}

let talent: { applicationId: string; token: string };
let other: { token: string };
let admin: string;
let trained: TrainingRecord;

beforeAll(async () => {
  [talent, other, admin] = await Promise.all([
    acceptedTalent(talentId, talentEmail, 'Tessa'),
    acceptedTalent(otherId, otherEmail, 'Otto'),
    idToken(twin(), twin().admin.email, twin().admin.password, 'admin'),
  ]);
});

describe('the likeness model on the twin', () => {
  it('an acceptance trains the talent\'s model on the emulator: the version recorded with its cost, the samples made, the talent emailed', async () => {
    await accept(talent.applicationId);
    trained = await eventually(
      async () => {
        const t = await currentTraining(talentId);
        if (t?.status === 'failed') throw new Error(`the training failed: ${t.failure?.message}`);
        return t?.status === 'ready-for-review' && t;
      },
      { timeoutMs: 180_000, what: 'the training to be ready for review' },
    );
    expect(trained.id).toMatch(TRAINING_ID_PATTERN);
    const model = (await trainings().getModel(talentId))!;
    expect(model).toMatchObject({ replicateModel: expect.stringMatching(/^humanly\/likeness-[0-9a-f]{16}$/), triggerWord: triggerWordFor(talentId), rejections: 0 });

    // On the emulator: a private model of the account, trained with our zip, trigger word and steps; its webhooks signed and accepted.
    const [emulated] = (await twin().replicate.trainings()).filter((t) => t.destination === model.replicateModel);
    expect(emulated).toMatchObject({ status: 'succeeded', input: { trigger_word: model.triggerWord, steps: 1000 } });
    expect(String(emulated.input.input_images)).toContain(`training-sets/${trained.id}.zip`);
    expect(emulated.webhooksDelivered).toEqual(expect.arrayContaining(['start', 'completed']));
    expect((await twin().replicate.models()).find((m) => `${m.owner}/${m.name}` === model.replicateModel)).toMatchObject({ visibility: 'private', hardware: 'gpu-h100' });
    expect(trained).toMatchObject({ versionRef: emulated.output!.version, imageCount: PHOTOS, replicateTrainingId: emulated.id, logsUrl: `${twin().urls.replicate}/p/${emulated.id}` });
    const predictTime = ((emulated.completedAt ?? 0) - (emulated.startedAt ?? 0)) / 1000;
    expect(trained.costMicros).toBe(Math.ceil(predictTime) * 1525);

    // The samples, made on the new version, stored in the private bucket.
    const listed = await s3().send(new ListObjectsV2Command({ Bucket: twin().physicalName('TrainingFiles'), Prefix: `samples/${trained.id}/` }));
    expect(listed.Contents?.length).toBe(SAMPLE_PROMPTS.length);
    const samplePredictions = (await twin().replicate.predictions()).filter((p) => p.version === trained.version);
    expect(samplePredictions.map((p) => String(p.input.prompt).startsWith(model.triggerWord))).toEqual(SAMPLE_PROMPTS.map(() => true));

    const mail = await eventually(async () => (await twin().emails()).find((m) => m.to.includes(talentEmail) && /likeness model is ready/.test(m.subject)), { what: 'the ready email' });
    expect(mail.text).toContain('/talent-portal');
    // Nothing is generated for clients before the approval.
    const found = await talentStore(documentClient(twin()), twin().physicalName('CatalogTalentTable')).getForGeneration(talentId);
    expect({ status: found?.talent.status, generation: found?.controls.generation }).toEqual({ status: 'hidden', generation: undefined });
  });

  it('the talent sees their model and its samples; another talent sees and approves only their own', async () => {
    const mine = await call(talent.token, 'GET', '/me/likeness-model');
    expect(mine.status).toBe(200);
    const view = LikenessModelView.parse(mine.json);
    expect(view).toMatchObject({ state: 'ready-for-review', latest: { trainingId: trained.id, number: 1, status: 'ready-for-review' }, retrainsLeft: 3 });
    expect(view.latest!.samples).toHaveLength(SAMPLE_PROMPTS.length);
    const image = await fetch(view.latest!.samples[0].url);
    expect({ status: image.status, png: Buffer.from(await image.arrayBuffer()).subarray(1, 4).toString() }).toEqual({ status: 200, png: 'PNG' });

    const theirs = await call(other.token, 'GET', '/me/likeness-model');
    expect(theirs.json).toMatchObject({ state: 'none', retrainsLeft: 3 });
    expect(JSON.stringify(theirs.json)).not.toContain(trained.id);
    expect((await call(other.token, 'POST', '/me/likeness-model/approve')).status).toBe(409);
    expect((await call(other.token, 'POST', '/me/likeness-model/reject', { note: 'Not me' })).status).toBe(409);
    expect((await currentTraining(talentId))?.status).toBe('ready-for-review');
  });

  it('approval: the catalog\'s generation config has the trained version, the talent is listed, and a client\'s generation runs on it', async () => {
    const approved = await call(talent.token, 'POST', '/me/likeness-model/approve');
    expect(approved.status).toBe(200);
    expect(LikenessModelView.parse(approved.json)).toMatchObject({ state: 'live', live: { trainingId: trained.id } });
    const found = await talentStore(documentClient(twin()), twin().physicalName('CatalogTalentTable')).getForGeneration(talentId);
    expect(found?.controls.generation).toEqual({ version: trained.version, triggerWord: triggerWordFor(talentId) });
    expect(found?.talent.status).toBe('active');
    expect(TalentListResponse.parse((await call(undefined, 'GET', '/talent')).json).talent.map((t) => t.id)).toContain(talentId);

    // A client generates with the likeness: the emulator's prediction ran on the trained version.
    const email = `trn.client.${run}@people.example`;
    const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], name: 'Trn Client', attributes: { 'custom:role': 'client' } });
    await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: user.sub!, email, full_name: 'Trn Client', role: 'client' });
    const client = await idToken(twin(), email, PASSWORD, 'web');
    const prompt = `A sculptor in her studio ${run}`;
    const started = await call(client, 'POST', '/generations', { talentId, prompt, style: 'Portrait', count: 1 }, { 'idempotency-key': `trn-${randomUUID()}` });
    expect(started.status).toBe(202);
    const id = GenerationStarted.parse(started.json).id;
    const generation = await eventually(
      async () => {
        const g = Generation.parse((await call(client, 'GET', `/generations/${id}`)).json);
        return FINAL_STATUSES.includes(g.status) && g;
      },
      { timeoutMs: 90_000, what: 'the generation to finish' },
    );
    expect(generation.status).toBe('succeeded');
    const prediction = (await twin().replicate.predictions()).find((p) => String(p.input.prompt).includes(run) && String(p.input.prompt).includes(prompt));
    expect(prediction?.version).toBe(trained.version);
    expect(String(prediction?.input.prompt).startsWith(triggerWordFor(talentId))).toBe(true);
  });

  it('the console lists the training with its duration, cost and logs; the removal deletes the version on Replicate and the files', async () => {
    const listed = await call(admin, 'GET', `/admin/talent/${talentId}/trainings`);
    expect(listed.status).toBe(200);
    const answer = AdminTrainingsResponse.parse(listed.json);
    expect(answer).toMatchObject({ talentId, state: 'live', rejections: 0 });
    expect(answer.trainings).toEqual([
      expect.objectContaining({ id: trained.id, number: 1, reason: 'acceptance', status: 'approved', live: true, costMicros: trained.costMicros, logsUrl: trained.logsUrl, version: trained.versionRef, imageCount: PHOTOS }),
    ]);
    expect(answer.trainings[0].durationSeconds).toBeGreaterThanOrEqual(0);
    expect((await call(admin, 'POST', `/admin/talent/${talentId}/trainings/trn_aaaaaaaaaaaaaaaaaaaa/rollback`)).status).toBe(404);
    expect([401, 403]).toContain((await call(talent.token, 'GET', `/admin/talent/${talentId}/trainings`)).status);

    const secrets = new SecretsManagerClient({ endpoint: twin().sdkEnv.AWS_ENDPOINT_URL_SECRETS_MANAGER, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
    const token = (await secrets.send(new GetSecretValueCommand({ SecretId: twin().physicalName('ReplicateToken') }))).SecretString!;
    const removed = await removeLikenessModel(
      {
        store: trainings(),
        replicate: async () => replicateApi({ token, baseUrl: `${twin().urls.replicate}/v1` }),
        files: s3Bucket(twin().physicalName('TrainingFiles'), s3()),
        now: () => new Date(),
      },
      talentId,
      { forget: false },
    );
    expect(removed).toEqual({ versions: 1, files: 1 + SAMPLE_PROMPTS.length, records: 0 });
    const model = (await twin().replicate.models()).find((m) => m.versions.some((v) => v.id === trained.version));
    expect(model?.versions.find((v) => v.id === trained.version)?.deleted).toBe(true);
    expect((await call(admin, 'GET', `/admin/talent/${talentId}/trainings`)).json).toMatchObject({ trainings: [{ id: trained.id, deletedAt: expect.any(String), samples: [] }] });
  });
});
