// The consumers of `Likeness.Removed` (docs/training.md "Removal and erasure", docs/identity.md
// "What is stored"): the training wing deletes the talent's model versions on Replicate and their
// training files, keeping the records marked deleted; the founding wing deletes the photos and
// face data of the application the talent came from. Both are safe to repeat.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LikenessRemovedV1 } from '../../../events/likeness-events';
import { deleteRemovedLikenessPhotos } from '../../../functions/founding/triggers/delete-removed-likeness-photos/service';
import { memoryBucket } from '../../../functions/shared/s3';
import { removeRemovedLikenessModel } from '../../../functions/training/triggers/remove-likeness-model/service';
import type { TrainingRecord } from '../../../functions/training/store';
import { fakeReplicate } from '../training/fake-replicate';
import { memoryTrainingStore } from '../training/memory-store';
import { FOLDER, ID, application, mockedStore, quiet } from '../workflow-tasks/support';

quiet();

const TALENT = 'ada-lovelace-1a2b3c';
const MODEL = 'humanly/likeness-0123456789abcdef';
const AT = '2026-12-25T11:00:00.000Z';
const T1 = 'trn_aaaaaaaaaaaaaaaaaaaa';
const T2 = 'trn_bbbbbbbbbbbbbbbbbbbb';
const V1 = 'a'.repeat(64);
const V2 = 'b'.repeat(64);
const event = (over: Partial<LikenessRemovedV1> = {}): LikenessRemovedV1 => LikenessRemovedV1.parse({ version: 1, talentId: TALENT, applicationId: ID, removedAt: AT, ...over });

describe('Likeness.Removed -> the model removed (training)', () => {
  const training = (over: Partial<TrainingRecord>): TrainingRecord => ({
    id: T1,
    talentId: TALENT,
    applicationId: ID,
    number: 1,
    reason: 'acceptance',
    status: 'approved',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

  async function world() {
    const data = memoryTrainingStore();
    const replicate = fakeReplicate();
    await replicate.api.createModel({ owner: 'humanly', name: 'likeness-0123456789abcdef', hardware: 'gpu-h100', description: '' });
    replicate.models.get(MODEL)!.versions.push(V1, V2);
    const first = training({ version: V1, zipKey: `training-sets/${T1}.zip` });
    await data.store.createModel({ talentId: TALENT, applicationId: ID, replicateModel: MODEL, triggerWord: 'HMLBCD2FG3', rejections: 0, createdAt: first.createdAt, updatedAt: first.createdAt, liveTrainingId: T1, liveVersion: V1 }, first);
    await data.store.updateTraining(T1, { status: 'approved' });
    await data.store.addTraining(training({ id: T2, number: 2, reason: 'rejected', status: 'rejected', version: V2, zipKey: `training-sets/${T2}.zip` }), T1);
    const files = memoryBucket('training');
    for (const key of [`training-sets/${T1}.zip`, `samples/${T1}/0.png`, `training-sets/${T2}.zip`, `samples/${T2}/0.png`, `samples/${T2}/1.png`, 'samples/trn_someoneelse00000000/0.png']) {
      await files.write(key, Buffer.from('x'), 'image/png');
    }
    const deps = { store: data.store, replicate: async () => replicate.api, files, now: () => new Date(AT) };
    return { data, replicate, files, deps };
  }

  it('deletes every version on Replicate and the training files, keeps the records marked deleted, and marks the model removed', async () => {
    const w = await world();
    expect(await removeRemovedLikenessModel(w.deps, event())).toEqual({ versions: 2, files: 5, records: 0 });
    expect(w.replicate.models.get(MODEL)!.deleted.sort()).toEqual([V1, V2]);
    expect([...w.files.objects.keys()]).toEqual(['samples/trn_someoneelse00000000/0.png']);
    expect((await w.data.store.listTrainings(TALENT)).map((t) => [t.id, t.deletedAt])).toEqual([
      [T1, AT],
      [T2, AT],
    ]);
    const model = await w.data.store.getModel(TALENT);
    expect(model).toMatchObject({ removedAt: AT });
    expect(model?.liveVersion).toBeUndefined();

    // A second delivery: nothing left to delete on Replicate, nothing fails, the records stay.
    expect(await removeRemovedLikenessModel(w.deps, event())).toMatchObject({ versions: 0, records: 0 });
    expect(await w.data.store.listTrainings(TALENT)).toHaveLength(2);
    expect([...w.files.objects.keys()]).toEqual(['samples/trn_someoneelse00000000/0.png']);
  });

  it('has nothing to do for a talent without a trained model', async () => {
    const w = await world();
    expect(await removeRemovedLikenessModel(w.deps, event({ talentId: 'seeded-talent', applicationId: undefined }))).toEqual({ versions: 0, files: 0, records: 0 });
    expect(w.replicate.models.get(MODEL)!.deleted).toEqual([]);
    expect(w.files.objects.size).toBe(6);
  });
});

describe('Likeness.Removed -> the application\'s photos and face data deleted (founding)', () => {
  const own = [`applications/${ID}/photos/0.jpg`, `applications/${ID}/thumbs/0.jpg`, `applications/${ID}/identity/selfie-1.jpg`, `applications/${ID}/identity/analyses.sealed`];
  const others = ['applications/app_bbbbbbbbbbbbbbbbbbbb/photos/0.jpg', 'applications/app_bbbbbbbbbbbbbbbbbbbb/identity/selfie-1.jpg'];

  function photos() {
    const storage = memoryBucket('photos');
    for (const k of [...own, ...others]) storage.objects.set(k, { body: Buffer.from('x') });
    return storage;
  }

  it('deletes everything under the application\'s prefix, the selfie and sealed analyses included, and records photosDeletedAt once', async () => {
    const storage = photos();
    const { store, inputs } = mockedStore(application({ status: 'accepted', uploadFolder: FOLDER }));
    expect(await deleteRemovedLikenessPhotos({ store, storage }, event())).toEqual({ deleted: own.length });
    expect([...storage.objects.keys()].sort()).toEqual([...others].sort());
    const updates = inputs(UpdateCommand);
    expect(updates).toHaveLength(1);
    expect(Object.values(updates[0].ExpressionAttributeNames)).toEqual(['photosDeletedAt']);
  });

  it('does not record the deletion again when the application already shows it', async () => {
    const storage = photos();
    const { store, inputs } = mockedStore(application({ status: 'accepted', photosDeletedAt: '2026-12-25T11:00:01.000Z' }));
    expect(await deleteRemovedLikenessPhotos({ store, storage }, event())).toEqual({ deleted: own.length });
    expect(inputs(UpdateCommand)).toEqual([]);
  });

  it('deletes nothing for a seeded talent (no application), nor when the application was erased', async () => {
    const storage = photos();
    const seeded = mockedStore(application());
    expect(await deleteRemovedLikenessPhotos({ store: seeded.store, storage }, event({ applicationId: undefined }))).toEqual({ deleted: 0 });
    expect(seeded.mock.calls()).toEqual([]);

    const erased = mockedStore(undefined);
    expect(await deleteRemovedLikenessPhotos({ store: erased.store, storage }, event())).toEqual({ deleted: 0 });
    expect(erased.inputs(GetCommand)).toHaveLength(1);
    expect(storage.objects.size).toBe(own.length + others.length);
  });
});
