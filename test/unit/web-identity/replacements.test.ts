import { FACE_FINDING_TEXTS } from '../../../events/identity-values';
import { MAX_APPLICATION_IMAGES, MAX_PHOTO_BYTES } from '../../../events/founding-values';
import { identityApi, type IdentityApi } from '../../../web/src/pages/founding-identity/api';
import {
  changeProblem,
  percentSent,
  photosToShow,
  putHeaders,
  refusalOf,
  replacementType,
  uploadNewPhotos,
  type ApplicantPhoto,
  type NewPhoto,
  type PutFile,
} from '../../../web/src/pages/founding-identity/replacements';
import { API, TOKEN, server } from './support';

const photo = (index: number, usable: boolean): ApplicantPhoto => ({
  index,
  thumbnailUrl: `https://thumbs.identity.test/${index}.jpg`,
  usable,
  findings: usable ? [] : [{ code: 'no-face', message: FACE_FINDING_TEXTS['no-face'] }],
});

/** A picked file of `size` bytes (the bytes themselves do not matter to the upload logic). */
const file = (name: string, size: number, type = 'image/jpeg') => new File([new Uint8Array(size)], name, { type });
const newPhoto = (id: string, size: number, key?: string): NewPhoto => ({ id, file: file(`${id}.jpg`, size), contentType: 'image/jpeg', loaded: 0, key });

describe('the photos shown', () => {
  it('puts the photos to replace first, each group in the order given', () => {
    const list = [photo(0, true), photo(1, false), photo(2, true), photo(3, false)];
    expect(photosToShow(list).map((p) => p.index)).toEqual([1, 3, 0, 2]);
    expect(list.map((p) => p.index)).toEqual([0, 1, 2, 3]);
  });
});

describe('the uploads', () => {
  it('leaves out the headers a browser refuses to set', () => {
    expect(putHeaders({ 'Content-Type': 'image/jpeg', 'Content-Length': '10', Host: 'x', 'x-amz-meta-app': 'a' })).toEqual({ 'Content-Type': 'image/jpeg', 'x-amz-meta-app': 'a' });
  });
});

describe('the photos picked', () => {
  it('takes JPEG and PNG by type, or by name when the browser gives no type', () => {
    expect(replacementType({ name: 'a.jpeg', type: 'image/jpeg' })).toBe('image/jpeg');
    expect(replacementType({ name: 'a', type: 'image/png' })).toBe('image/png');
    expect(replacementType({ name: 'IMG_1.JPG', type: '' })).toBe('image/jpeg');
    expect(replacementType({ name: 'scan.png', type: '' })).toBe('image/png');
    expect(replacementType({ name: 'photo.heic', type: 'image/heic' })).toBeUndefined();
    expect(replacementType({ name: 'photo.jpg', type: 'image/webp' })).toBeUndefined();
    expect(replacementType({ name: 'photos.zip', type: '' })).toBeUndefined();
  });

  it('names why a file is left out', () => {
    expect(refusalOf({ name: 'a.jpg', type: 'image/jpeg', size: 1000 })).toBeUndefined();
    expect(refusalOf({ name: 'a.gif', type: 'image/gif', size: 1000 })).toBe('a.gif is not a JPEG or PNG photo.');
    expect(refusalOf({ name: 'empty.jpg', type: 'image/jpeg', size: 0 })).toBe('empty.jpg is empty.');
    expect(refusalOf({ name: 'huge.png', type: 'image/png', size: MAX_PHOTO_BYTES + 1 })).toBe('huge.png is larger than 25 MB.');
    expect(refusalOf({ name: 'max.png', type: 'image/png', size: MAX_PHOTO_BYTES })).toBeUndefined();
  });

  it('needs one new photo at least and keeps the application within its photo limit', () => {
    expect(changeProblem({ total: 31, remove: 4, added: 0 })).toMatch(/at least one new photo/);
    expect(changeProblem({ total: 31, remove: 4, added: 6 })).toBeUndefined();
    expect(changeProblem({ total: 78, remove: 0, added: 2 })).toBeUndefined();
    expect(changeProblem({ total: 78, remove: 1, added: 5 })).toBe(
      `An application has at most ${MAX_APPLICATION_IMAGES} photos: you would have 82. Remove 2 more, or add fewer.`,
    );
  });

  it('counts the share of bytes sent, and all of them only once the storage has taken every photo', () => {
    expect(percentSent([])).toBe(0);
    expect(percentSent([{ ...newPhoto('a', 300), loaded: 150 }, newPhoto('b', 100)])).toBe(37);
    expect(percentSent([{ ...newPhoto('a', 300), loaded: 9999 }, { ...newPhoto('b', 100), loaded: 100 }])).toBe(99);
    expect(percentSent([{ ...newPhoto('a', 300, 'k/a'), loaded: 300 }, { ...newPhoto('b', 100, 'k/b'), loaded: 100 }])).toBe(100);
  });
});

describe('uploading the new photos', () => {
  const presigned = (n: number, from = 0) => ({
    uploads: Array.from({ length: n }, (_, i) => ({ url: `https://bucket.identity.test/r${from + i}`, key: `replacements/r${from + i}.jpg`, headers: { 'content-type': 'image/jpeg' } })),
    expiresAt: '2026-11-28T10:15:00.000Z',
  });

  /** A storage that takes each PUT when the test lets it go, so the number under way can be read. */
  function storage(fail: ReadonlySet<string> = new Set()) {
    const sent: string[] = [];
    let running = 0;
    let most = 0;
    const put: PutFile = async (upload, body, onProgress) => {
      running += 1;
      most = Math.max(most, running);
      await Promise.resolve();
      onProgress(Math.floor(body.size / 2));
      await Promise.resolve();
      running -= 1;
      if (fail.has(upload.url)) throw new Error('the connection failed');
      sent.push(upload.url);
      onProgress(body.size);
    };
    return { put, sent, most: () => most };
  }

  function track(photos: NewPhoto[]) {
    const state = new Map(photos.map((p) => [p.id, { ...p }]));
    const progress: Array<[string, number]> = [];
    const onPhoto = (id: string, change: Partial<NewPhoto>) => {
      Object.assign(state.get(id)!, change);
      if (change.loaded !== undefined) progress.push([id, change.loaded]);
    };
    return { state, progress, onPhoto };
  }

  it('asks for every upload at once, sends at most four at a time and answers the keys in the photos’ order', async () => {
    const photos = Array.from({ length: 7 }, (_, i) => newPhoto(`p${i}`, 100 + i));
    const { fetch, calls } = server([{ body: presigned(7) }]);
    const store = storage();
    const { state, progress, onPhoto } = track(photos);
    const keys = await uploadNewPhotos({ api: identityApi({ apiUrl: API, fetch }), token: TOKEN, photos, onPhoto, put: store.put });
    expect(keys).toEqual(Array.from({ length: 7 }, (_, i) => `replacements/r${i}.jpg`));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual({ token: TOKEN, files: photos.map((p) => ({ contentType: 'image/jpeg', size: p.file.size })) });
    expect(store.sent).toHaveLength(7);
    expect(store.most()).toBe(4);
    expect([...state.values()].every((p) => p.key && p.loaded === p.file.size && !p.error)).toBe(true);
    expect(progress.filter(([id]) => id === 'p3').map(([, n]) => n)).toEqual([0, 51, 103, 103]);
  });

  it('marks a photo that failed, keeps the keys of those sent, and sends only the rest on a retry', async () => {
    const photos = [newPhoto('a', 10), newPhoto('b', 20), newPhoto('c', 30)];
    const first = server([{ body: presigned(3) }]);
    const { state, onPhoto } = track(photos);
    const flaky = storage(new Set(['https://bucket.identity.test/r1']));
    const api: IdentityApi = identityApi({ apiUrl: API, fetch: first.fetch });
    await expect(uploadNewPhotos({ api, token: TOKEN, photos, onPhoto, put: flaky.put })).rejects.toThrow(/^b\.jpg was not sent\..*already sent are kept/);
    expect(state.get('b')).toMatchObject({ error: 'Not sent: the connection failed.', loaded: 0 });
    expect(state.get('b')!.key).toBeUndefined();
    expect([state.get('a')!.key, state.get('c')!.key]).toEqual(['replacements/r0.jpg', 'replacements/r2.jpg']);

    const again = server([{ body: presigned(1, 10) }]);
    const retry = storage();
    const keys = await uploadNewPhotos({ api: identityApi({ apiUrl: API, fetch: again.fetch }), token: TOKEN, photos: [...state.values()], onPhoto, put: retry.put });
    expect(again.calls[0]!.body).toEqual({ token: TOKEN, files: [{ contentType: 'image/jpeg', size: 20 }] });
    expect(retry.sent).toEqual(['https://bucket.identity.test/r10']);
    expect(keys).toEqual(['replacements/r0.jpg', 'replacements/r10.jpg', 'replacements/r2.jpg']);
    expect(state.get('b')!.error).toBeUndefined();
  });

  it('asks nothing when every photo is already sent, and stops before any PUT when uploads are refused', async () => {
    const none = server([]);
    const store = storage();
    await expect(
      uploadNewPhotos({ api: identityApi({ apiUrl: API, fetch: none.fetch }), token: TOKEN, photos: [newPhoto('a', 5, 'k/a.jpg')], onPhoto: () => undefined, put: store.put }),
    ).resolves.toEqual(['k/a.jpg']);
    expect(none.calls).toHaveLength(0);
    const limited = server([{ status: 429, body: { error: 'Too many uploads.' } }]);
    await expect(
      uploadNewPhotos({ api: identityApi({ apiUrl: API, fetch: limited.fetch }), token: TOKEN, photos: [newPhoto('a', 5)], onPhoto: () => undefined, put: store.put }),
    ).rejects.toMatchObject({ status: 429 });
    expect(store.sent).toEqual([]);
  });
});
