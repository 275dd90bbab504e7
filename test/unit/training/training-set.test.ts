// The training set's photos (functions/training/training-set.ts): which of an application's photos
// are trained with, the square crop centred on the face at the trainer's size without metadata,
// and the zip the trainer downloads.
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { cropForTraining, trainingZip, usablePhotos } from '../../../functions/training/training-set';

type Rgb = [number, number, number];
const RED: Rgb = [220, 30, 30];
const GREY: Rgb = [120, 120, 120];

/** A grey photo with a red square ("the face") at the box, in shares of the photo. */
async function photo(width: number, height: number, face: { x: number; y: number; width: number; height: number }): Promise<Buffer> {
  const square = await sharp({
    create: { width: Math.round(face.width * width), height: Math.round(face.height * height), channels: 3, background: { r: RED[0], g: RED[1], b: RED[2] } },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: GREY[0], g: GREY[1], b: GREY[2] } } })
    .composite([{ input: square, left: Math.round(face.x * width), top: Math.round(face.y * height) }])
    .withMetadata({ exif: { IFD0: { Copyright: 'Ada Lovelace', ImageDescription: 'Lisbon' } } })
    .jpeg()
    .toBuffer();
}

async function pixel(jpeg: Buffer, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}
const near = (a: Rgb, b: Rgb) => a.every((v, i) => Math.abs(v - b[i]) <= 30);

describe('usablePhotos', () => {
  it('keeps accepted, stored photos the identity check did not refuse or the applicant did not replace, with their face box in any of its stored forms', () => {
    const box = { x: 0.2, y: 0.1, width: 0.3, height: 0.3 };
    const results = [
      { source: 'a', accepted: true, index: 0 },
      { source: 'b', accepted: false, reason: 'Too small' },
      { source: 'c', accepted: true, index: 2, usable: false, findings: [{ code: 'no-face' }] },
      { source: 'd', accepted: true, index: 3, usable: true, face: box },
      { source: 'e', accepted: true, index: 4, face: { box } },
      { source: 'f', accepted: true, index: 5, analysis: { face: { box } } },
      { source: 'g', accepted: true, index: 6, replacedAt: '2026-11-20T00:00:00Z' },
      { source: 'h', accepted: true, index: 7, face: { x: 1.5, y: 0, width: 0.2, height: 0.2 } },
      { source: 'i', accepted: true },
    ];
    expect(usablePhotos(results)).toEqual([{ index: 0 }, { index: 3, box }, { index: 4, box }, { index: 5, box }, { index: 7 }]);
    expect(usablePhotos(undefined)).toEqual([]);
  });
});

describe('cropForTraining', () => {
  it('crops a square around the face, at the trainer\'s size, with no metadata left', async () => {
    // The face in the lower right of a tall photo: a centre crop would miss it.
    const face = { x: 0.6, y: 0.7, width: 0.2, height: 0.15 };
    const original = await photo(400, 800, face);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const crop = await cropForTraining(original, 128, face);
    const meta = await sharp(crop).metadata();
    expect({ width: meta.width, height: meta.height, format: meta.format, exif: meta.exif, icc: meta.icc, xmp: meta.xmp }).toEqual({
      width: 128,
      height: 128,
      format: 'jpeg',
      exif: undefined,
      icc: undefined,
      xmp: undefined,
    });
    // The face's centre is near the crop's centre, a little above it.
    expect(near(await pixel(crop, 64, 56), RED)).toBe(true);
    // And the crop is larger than the face: grey around it.
    expect(near(await pixel(crop, 2, 2), GREY)).toBe(true);
  });

  it('keeps the square inside the photo when the face is at its edge', async () => {
    const face = { x: 0, y: 0, width: 0.25, height: 0.2 };
    const crop = await cropForTraining(await photo(300, 400, face), 64, face);
    expect(near(await pixel(crop, 4, 4), RED)).toBe(true);
    expect((await sharp(crop).metadata()).width).toBe(64);
  });

  it('without a face box, still a square of the trainer\'s size without metadata', async () => {
    const crop = await cropForTraining(await photo(300, 200, { x: 0.4, y: 0.4, width: 0.2, height: 0.2 }), 96);
    const meta = await sharp(crop).metadata();
    expect({ width: meta.width, height: meta.height, exif: meta.exif }).toEqual({ width: 96, height: 96, exif: undefined });
  });
});

describe('trainingZip', () => {
  it('names the photos in order and stores them as they are', () => {
    const images = [Buffer.from('first'), Buffer.from('second')];
    const files = unzipSync(trainingZip(images));
    expect(Object.keys(files)).toEqual(['photo-01.jpg', 'photo-02.jpg']);
    expect(Buffer.from(files['photo-02.jpg']).toString()).toBe('second');
  });
});
