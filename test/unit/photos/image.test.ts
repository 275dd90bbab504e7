import sharp from 'sharp';
import { PHOTO_LIMITS } from '../../../events/founding-values';
import { checkPhoto } from '../../../functions/founding/photos/image';
import { REFUSAL } from '../../../functions/founding/photos/reasons';
import { htmlNamedJpg, jpegWithGps, pdfNamedJpg, png, pngHeaderOnly, svg, truncatedJpeg } from './fixtures';

describe('checkPhoto', () => {
  test('a JPEG with EXIF and GPS is accepted and stored as a JPEG without any metadata', async () => {
    const original = await jpegWithGps(1200, 900);
    const before = await sharp(original).metadata();
    expect(before.exif).toBeDefined(); // the fixture really carries EXIF
    expect(before.exif!.toString('latin1')).toContain('TestCam');

    const result = await checkPhoto(original);
    if (!result.accepted) throw new Error(result.reason);
    expect(result).toMatchObject({ width: 1200, height: 900 });
    const stored = await sharp(result.photo).metadata();
    expect(stored).toMatchObject({ format: 'jpeg', width: 1200, height: 900 });
    expect(stored.exif).toBeUndefined();
    expect(stored.xmp).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    expect(result.photo.includes(Buffer.from('TestCam'))).toBe(false);
    const thumb = await sharp(result.thumbnail).metadata();
    expect(thumb).toMatchObject({ format: 'jpeg', width: PHOTO_LIMITS.thumbnailSide, height: 240 });
    expect(thumb.exif).toBeUndefined();
  });

  test('EXIF orientation is applied: a sideways-stored photo is stored upright', async () => {
    const result = await checkPhoto(await jpegWithGps(800, 600, 6));
    if (!result.accepted) throw new Error(result.reason);
    expect(result).toMatchObject({ width: 600, height: 800 });
    expect(await sharp(result.photo).metadata()).toMatchObject({ width: 600, height: 800 });
  });

  test('a PNG is accepted and re-encoded as JPEG', async () => {
    const result = await checkPhoto(await png(700, 900));
    if (!result.accepted) throw new Error(result.reason);
    expect((await sharp(result.photo).metadata()).format).toBe('jpeg');
  });

  test('a large photo is stored at most storedMaxSide on its longer side', async () => {
    const result = await checkPhoto(await jpegWithGps(5000, 1000));
    if (!result.accepted) throw new Error(result.reason);
    expect(result).toMatchObject({ width: 5000, height: 1000 });
    expect(await sharp(result.photo).metadata()).toMatchObject({ width: PHOTO_LIMITS.storedMaxSide, height: 819 });
  });

  test.each([
    ['a PDF named .jpg', pdfNamedJpg],
    ['an HTML page named .jpg', htmlNamedJpg],
    ['an SVG (decodable, but not a JPEG or PNG)', svg],
    ['an empty file', () => Buffer.alloc(0)],
  ])('%s is not a JPEG or PNG image', async (_, make) => {
    expect(await checkPhoto(make())).toEqual({ accepted: false, reason: REFUSAL.notImage });
  });

  test('a truncated JPEG is refused as damaged', async () => {
    expect(await checkPhoto(await truncatedJpeg())).toMatchObject({ accepted: false, reason: 'could not be decoded (file is damaged or truncated)' });
  });

  test('JPEG magic bytes followed by garbage are refused as damaged', async () => {
    expect(await checkPhoto(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(1000, 7)]))).toMatchObject({
      accepted: false,
      reason: REFUSAL.undecodable,
    });
  });

  test('a PNG declaring 10000x10000 is refused from its header, quickly', async () => {
    const started = Date.now();
    const result = await checkPhoto(pngHeaderOnly(10_000, 10_000));
    expect(result).toEqual({ accepted: false, reason: 'too large: 100 megapixels, the limit is 50', width: 10_000, height: 10_000 });
    expect(Date.now() - started).toBeLessThan(2000); // nothing was decoded (a 100-megapixel decode takes seconds)
  });

  test('a photo under the minimum side is refused with its size', async () => {
    expect(await checkPhoto(await jpegWithGps(300, 400))).toEqual({
      accepted: false,
      reason: 'too small: 300x400, needs at least 512 px on the shorter side',
      width: 300,
      height: 400,
    });
  });

  test('exactly the minimum side is enough', async () => {
    expect((await checkPhoto(await png(512, 2000))).accepted).toBe(true);
  });
});
