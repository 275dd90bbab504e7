import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import sharp from 'sharp';
import { readTrainingSet, TrainingSetError, weightsArchive } from '../../../infra/local/emulators/replicate/training-set';

/** A small photo of one colour. */
const photo = (rgb: [number, number, number], format: 'jpeg' | 'png' | 'webp' = 'jpeg') =>
  sharp({ create: { width: 96, height: 128, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .toFormat(format)
    .toBuffer();

async function zipOf(entries: Record<string, Buffer | string>): Promise<Uint8Array> {
  const files: Zippable = {};
  for (const [name, body] of Object.entries(entries)) files[name] = typeof body === 'string' ? Buffer.from(body) : body;
  return zipSync(files);
}

async function photos(n: number, first: [number, number, number] = [30, 200, 60]): Promise<Record<string, Buffer>> {
  const out: Record<string, Buffer> = {};
  for (let i = 0; i < n; i++) out[`set/photo-${String(i + 1).padStart(2, '0')}.jpg`] = await photo(i === 0 ? first : [40, 60, 220]);
  return out;
}

const refusal = async (zip: Uint8Array) => {
  const err = await readTrainingSet(zip).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TrainingSetError);
  return (err as Error).message;
};

describe('readTrainingSet (the emulator checks a zip as the LoRA trainer does)', () => {
  it('reads 10 images with captions, leaving out what macOS and Windows add, and keeps the first image as the subject', async () => {
    const zip = await zipOf({
      ...(await photos(9)),
      'set/photo-10.png': await photo([40, 60, 220], 'png'),
      'set/photo-01.txt': 'a photo of TOK',
      '__MACOSX/set/._photo-01.jpg': 'resource fork',
      'set/.DS_Store': 'finder',
      'set/Thumbs.db': 'thumbnails',
    });
    const set = await readTrainingSet(zip);
    expect(set.images).toEqual([...Array.from({ length: 9 }, (_, i) => `set/photo-0${i + 1}.jpg`), 'set/photo-10.png']);
    expect(set.captions).toBe(1);
    const { data, info } = await sharp(set.subject).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 512, height: 512 });
    const at = (256 * info.width + 256) * info.channels;
    // The first photo's green, not the others' blue.
    expect(data[at + 1]).toBeGreaterThan(150);
    expect(data[at + 2]).toBeLessThan(120);
  });

  it('refuses fewer than 10 images, counting only images', async () => {
    const nine = await zipOf({ ...(await photos(9)), 'set/notes.txt': 'x', 'set/readme.md': 'y', '__MACOSX/set/._a.jpg': 'z' });
    expect(await refusal(nine)).toBe('input_images holds 9 images; the trainer needs at least 10');
    expect(await refusal(await zipOf({ 'only.txt': 'x' }))).toBe('input_images holds 0 images; the trainer needs at least 10');
  });

  it('refuses what is not a zip, and a damaged zip', async () => {
    expect(await refusal(Buffer.from('<html>Access denied</html>'))).toBe('input_images is not a zip file');
    expect(await refusal(await photo([1, 2, 3]))).toBe('input_images is not a zip file');
    const zip = await zipOf(await photos(10));
    expect(await refusal(zip.subarray(0, Math.floor(zip.length / 2)))).toMatch(/^input_images could not be read as a zip file/);
  });

  it('refuses an image the trainer cannot read, naming it', async () => {
    const zip = await zipOf({ ...(await photos(10)), 'set/photo-11.jpg': 'not really a jpeg' });
    expect(await refusal(zip)).toBe('set/photo-11.jpg in input_images is not an image the trainer can read');
  });
});

describe('weightsArchive', () => {
  it('is a tar that tar lists and extracts: one note', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weights-'));
    try {
      const file = path.join(dir, 'trained_model.tar');
      fs.writeFileSync(file, weightsArchive('no weights were trained\n'));
      expect(execFileSync('tar', ['-tf', file], { encoding: 'utf8' })).toBe('LOCAL-PREVIEW.txt\n');
      expect(execFileSync('tar', ['-xOf', file, 'LOCAL-PREVIEW.txt'], { encoding: 'utf8' })).toBe('no weights were trained\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
