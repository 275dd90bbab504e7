import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { MAX_APPLICATION_IMAGES, MAX_EXAMINED_FILES } from '../../../events/founding-values';
import { REFUSAL } from '../../../functions/founding/photos/reasons';
import { memoryBucket } from '../../../functions/shared/s3';
import { validateObjects } from '../../../functions/founding/photos/validate';
import { readZipDirectory } from '../../../functions/founding/photos/zip-directory';
import { jpegWithGps, pdfNamedJpg, png, pngHeaderOnly, truncatedJpeg, zip } from './fixtures';

const ID = 'app_abcdefghijklmnopqrst';
const P = 'pending/0123456789abcdef0123456789abcdef/';

describe('validateObjects', () => {
  let photo: Buffer;
  beforeAll(async () => {
    photo = await jpegWithGps(640, 800);
  });

  test('checks photos and zip entries, stores accepted ones without metadata, and says why others were refused', async () => {
    const storage = memoryBucket();
    const put = (key: string, body: Buffer) => storage.objects.set(key, { body });
    put(`${P}1.jpg`, photo);
    put(`${P}2.jpg`, pdfNamedJpg());
    put(`${P}3.png`, await png(600, 600));
    put(`${P}4.jpg`, await truncatedJpeg());
    put(`${P}5.zip`, zip({ 'a.jpg': photo, '../b.jpg': photo, 'c.png': pngHeaderOnly(), 'd.jpg': await jpegWithGps(300, 400) }));
    put(`${P}6.jpg`, photo);
    const keys = ['1.jpg', '2.jpg', '3.png', '4.jpg', '5.zip', '6.jpg', '7.jpg'].map((k) => P + k);

    const out = await validateObjects({ storage }, ID, keys);

    expect(out.results.map((r) => [r.source.replace(P, ''), r.accepted, r.reason ?? r.index])).toEqual([
      ['1.jpg', true, 0],
      ['2.jpg', false, REFUSAL.notImage],
      ['3.png', true, 2],
      ['4.jpg', false, REFUSAL.undecodable],
      ['6.jpg', true, 5],
      ['7.jpg', false, 'file is missing (the upload did not complete)'],
      ['5.zip#a.jpg', true, 7],
      ['5.zip#../b.jpg', false, 'zip entry path escapes the archive'],
      ['5.zip#c.png', false, 'too large: 100 megapixels, the limit is 50'],
      ['5.zip#d.jpg', false, 'too small: 300x400, needs at least 512 px on the shorter side'],
    ]);
    expect(out).toMatchObject({ validCount: 4, rejectedCount: 6 });
    const stored = [...storage.objects.keys()].filter((k) => k.startsWith(`applications/${ID}/`)).sort();
    expect(stored).toEqual(
      [0, 2, 5, 7].flatMap((i) => [`applications/${ID}/photos/${i}.jpg`, `applications/${ID}/thumbs/${i}.jpg`]).sort(),
    );
    for (const key of stored) {
      const meta = await sharp(storage.objects.get(key)!.body).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.exif).toBeUndefined();
      expect(storage.objects.get(key)!.contentType).toBe('image/jpeg');
    }
    expect(out.results[0]).toMatchObject({ width: 640, height: 800 });
  });

  test('a retry writes the same keys (indexes do not depend on timing)', async () => {
    const storage = memoryBucket();
    const keys = Array.from({ length: 8 }, (_, i) => `${P}${i}.jpg`);
    keys.forEach((k, i) => storage.objects.set(k, { body: i % 3 === 0 ? pdfNamedJpg() : photo }));
    const first = await validateObjects({ storage, concurrency: 3 }, ID, keys);
    const second = await validateObjects({ storage, concurrency: 1 }, ID, keys);
    expect(second.results).toEqual(first.results);
  });

  test('an upload too big for a photo is spooled to disk: a zip is opened, anything else refused, the temp file removed', async () => {
    const storage = memoryBucket();
    const padding = Buffer.alloc(26 * 1024 * 1024, 3);
    storage.objects.set(`${P}big.zip`, { body: zip({ 'a.jpg': photo, 'b.jpg': photo, 'huge.jpg': padding }, 0) });
    storage.objects.set(`${P}big.jpg`, { body: Buffer.concat([photo, padding]) });
    const before = (await readdir(tmpdir())).filter((f) => f.startsWith('upload-')).length;

    const out = await validateObjects({ storage }, ID, [`${P}big.zip`, `${P}big.jpg`]);

    expect(out.results.map((r) => [r.source.replace(P, ''), r.reason ?? 'ok'])).toEqual([
      ['big.jpg', 'file too big: 27 MB, the limit is 25 MB'],
      ['big.zip#a.jpg', 'ok'],
      ['big.zip#b.jpg', 'ok'],
      ['big.zip#huge.jpg', 'file too big: 26 MB, the limit is 25 MB'],
    ]);
    expect((await readdir(tmpdir())).filter((f) => f.startsWith('upload-')).length).toBe(before);
  });

  test(`keeps at most ${MAX_APPLICATION_IMAGES} photos, the first ones`, async () => {
    const storage = memoryBucket();
    const small = await jpegWithGps(512, 512);
    const entries: Record<string, Buffer> = {};
    for (let i = 0; i < 5; i++) entries[`extra${i}.jpg`] = small;
    const keys = Array.from({ length: MAX_APPLICATION_IMAGES }, (_, i) => `${P}${i}.jpg`);
    keys.forEach((k) => storage.objects.set(k, { body: small }));
    storage.objects.set(`${P}more.zip`, { body: zip(entries) });

    const out = await validateObjects({ storage, concurrency: 4 }, ID, [...keys, `${P}more.zip`]);

    expect(out.validCount).toBe(MAX_APPLICATION_IMAGES);
    // With 80 photos accepted, the zip is not opened at all.
    expect(out.results.filter((r) => !r.accepted).map((r) => [r.source.replace(P, ''), r.reason])).toEqual([['more.zip', REFUSAL.notExamined]]);
    expect(out.results.slice(0, MAX_APPLICATION_IMAGES).every((r) => r.accepted)).toBe(true);
    expect([...storage.objects.keys()].filter((k) => k.startsWith(`applications/${ID}/photos/`))).toHaveLength(MAX_APPLICATION_IMAGES);
  }, 60_000);

  test(`stops after ${MAX_EXAMINED_FILES} files examined, photos and zip entries alike, as signup counts them`, async () => {
    const storage = memoryBucket();
    const note = Buffer.from('not a photo');
    const names = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}.txt`, note]));
    storage.objects.set(`${P}one.zip`, { body: zip(names('a', 150)) });
    storage.objects.set(`${P}two.zip`, { body: zip(names('b', 100)) });
    storage.objects.set(`${P}three.zip`, { body: zip(names('c', 10)) });
    const keys = [`${P}one.zip`, `${P}two.zip`, `${P}three.zip`];
    // Signup counts the same files: 260 in all, over the limit.
    const counted = await Promise.all(keys.map(async (k) => (await readZipDirectory(storage.objects.get(k)!.body.length, async (at, n) => storage.objects.get(k)!.body.subarray(at, at + n))).fileCount));
    expect(counted).toEqual([150, 100, 10]);

    const out = await validateObjects({ storage }, ID, keys);

    const from = (zipName: string) => out.results.filter((r) => r.source.startsWith(`${P}${zipName}#`));
    expect(from('one.zip')).toHaveLength(150);
    expect(from('two.zip')).toHaveLength(MAX_EXAMINED_FILES - 150);
    expect(from('three.zip')).toHaveLength(0);
    // Names that are not photos are refused by name, never inflated and decoded.
    expect(new Set([...from('one.zip'), ...from('two.zip')].map((r) => r.reason))).toEqual(new Set([REFUSAL.notImage]));
    // The rest of the second zip and the whole third are reported as not examined.
    expect(out.results.filter((r) => r.reason === REFUSAL.notExamined).map((r) => r.source.replace(P, ''))).toEqual(['two.zip', 'three.zip']);
  });

  test('never runs more than `concurrency` photo checks at once', async () => {
    const storage = memoryBucket();
    const keys = Array.from({ length: 10 }, (_, i) => `${P}${i}.jpg`);
    keys.forEach((k) => storage.objects.set(k, { body: photo }));
    let active = 0;
    let peak = 0;
    const read = storage.read.bind(storage);
    storage.read = async (key) => {
      active += 1;
      peak = Math.max(peak, active);
      try {
        // A turn of the event loop: every check the pool lets start has started by then.
        await new Promise((r) => setImmediate(r));
        return await read(key);
      } finally {
        active -= 1;
      }
    };
    await validateObjects({ storage, concurrency: 3 }, ID, keys);
    expect(peak).toBe(3);
  });
});
