import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import type { PhotoResult } from '../../../events/founding';
import { memoryBucket } from '../../../functions/shared/s3';
import { validatePhotos } from '../../../functions/founding/steps/validate-photos/service';
import { jpegWithGps, pdfNamedJpg } from '../photos/fixtures';
import { EMAIL, FOLDER, ID, application, conditionFailed, mockedStore, quiet } from './support';

quiet();
const P = `pending/${FOLDER}/`;

describe('validatePhotos (the step)', () => {
  let photo: Buffer;
  beforeAll(async () => {
    photo = await jpegWithGps(512, 640);
  });

  function uploads(valid: number, invalid: number) {
    const storage = memoryBucket();
    const keys: string[] = [];
    for (let i = 0; i < valid + invalid; i++) {
      const key = `${P}17000000${i}-abc.jpg`;
      storage.objects.set(key, { body: i < valid ? photo : pdfNamedJpg() });
      keys.push(key);
    }
    return { storage, keys };
  }

  test('30 valid photos: results recorded, still validating (the proof of person is next), originals deleted, metadata-free copies kept', async () => {
    const { storage, keys } = uploads(30, 2);
    const { store, inputs } = mockedStore(application({ imagePaths: keys }));
    const logs = jest.spyOn(console, 'log');

    expect(await validatePhotos({ store, storage }, ID)).toEqual({ applicationId: ID, validCount: 30, rejectedCount: 2, enough: true });

    const update = inputs(UpdateCommand)[0];
    expect(update.ConditionExpression).toContain('attribute_not_exists(photoResults)');
    const set = Object.fromEntries(Object.entries(update.ExpressionAttributeNames).map(([k, name]) => [name, update.ExpressionAttributeValues[k.replace('#', ':')]]));
    expect(set).toMatchObject({ status: 'validating', validPhotoCount: 30, rejectedPhotoCount: 2 });
    expect((set.photoResults as PhotoResult[]).filter((r) => !r.accepted).map((r) => r.reason)).toEqual(['not a JPEG or PNG image', 'not a JPEG or PNG image']);
    expect(inputs(PutCommand).some((p) => p.Item.event === 'validated')).toBe(true);
    // Originals gone, re-encoded copies present and clean.
    expect([...storage.objects.keys()].filter((k) => k.startsWith('pending/'))).toEqual([]);
    const stored = [...storage.objects.keys()].filter((k) => k.startsWith(`applications/${ID}/photos/`));
    expect(stored).toHaveLength(30);
    expect((await sharp(storage.objects.get(stored[0])!.body).metadata()).exif).toBeUndefined();
    // Logs name the application, never the applicant.
    const logged = logs.mock.calls.map((c) => String(c[0])).join('\n');
    expect(logged).toContain(ID);
    expect(logged).not.toContain(EMAIL);
  });

  test('too few valid photos: status invalid, not enough', async () => {
    const { storage, keys } = uploads(29, 1);
    const { store, inputs } = mockedStore(application({ imagePaths: keys }));
    expect(await validatePhotos({ store, storage }, ID)).toMatchObject({ validCount: 29, enough: false });
    expect(Object.values(inputs(UpdateCommand)[0].ExpressionAttributeValues)).toContain('invalid');
  });

  test('keys outside the applicant’s own prefix are never read', async () => {
    const { storage, keys } = uploads(1, 0);
    const foreign = 'pending/fedcba9876543210fedcba9876543210/1.jpg';
    storage.objects.set(foreign, { body: photo });
    const { store, inputs } = mockedStore(application({ imagePaths: [...keys, foreign, 'applications/app_other/photos/0.jpg'] }));
    const read = jest.spyOn(storage, 'read');
    expect(await validatePhotos({ store, storage }, ID)).toMatchObject({ validCount: 1, rejectedCount: 2 });
    expect(read.mock.calls.map((c) => c[0])).toEqual(keys);
    expect(storage.objects.has(foreign)).toBe(true);
    const results = Object.values(inputs(UpdateCommand)[0].ExpressionAttributeValues).find(Array.isArray) as PhotoResult[];
    expect(results.slice(1).map((r) => r.reason)).toEqual(['not an upload of this application', 'not an upload of this application']);
  });

  test('a retry after the results were recorded returns them without validating again', async () => {
    const { storage, keys } = uploads(2, 0);
    const { store, inputs } = mockedStore(application({ imagePaths: keys, photoResults: [], validPhotoCount: 31, rejectedPhotoCount: 4, status: 'pending_review' }));
    expect(await validatePhotos({ store, storage }, ID)).toEqual({ applicationId: ID, validCount: 31, rejectedCount: 4, enough: true });
    expect(inputs(UpdateCommand)).toHaveLength(0);
    expect([...storage.objects.keys()].filter((k) => k.startsWith('pending/'))).toEqual([]); // leftovers removed
  });

  test('a concurrent run that recorded first wins: its numbers are returned', async () => {
    const { storage, keys } = uploads(1, 0);
    const { store, mock } = mockedStore(application({ imagePaths: keys }));
    mock.on(UpdateCommand).rejects(conditionFailed());
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    mock
      .on(GetCommand, { Key: { pk: `APP#${ID}`, sk: 'APPLICATION' } })
      .resolvesOnce({ Item: application({ imagePaths: keys }) })
      .resolves({ Item: application({ imagePaths: keys, photoResults: [], validPhotoCount: 33, rejectedPhotoCount: 0 }) });
    expect(await validatePhotos({ store, storage }, ID)).toMatchObject({ validCount: 33, enough: true });
  });
});
