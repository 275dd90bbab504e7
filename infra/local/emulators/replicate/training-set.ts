// A training's `input_images`, as the LoRA trainer takes it: a zip of at least 10 images (JPEG,
// PNG or WebP), optionally with a `.txt` caption beside each, fetched from an HTTP URL (a
// presigned URL of our bucket). The emulator trains nothing: it checks the set the way the trainer
// refuses one, and keeps the first image to draw the trained version's previews from.
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { previewSubject } from './preview';

/** The trainer refuses fewer images. */
const MIN_TRAINING_IMAGES = 10;
const IMAGE = /\.(jpe?g|png|webp)$/i;
const MAX_ZIP_BYTES = 200 * 1024 * 1024;
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** Why a training set was refused; the message goes into the training's `error` and `logs`. */
export class TrainingSetError extends Error {}

export interface TrainingSet {
  /** Image entries, in the archive's order. */
  images: string[];
  captions: number;
  /** The first image, as the previews' subject (512 px PNG). */
  subject: Buffer;
}

/** Folders and the metadata macOS and Windows add to zips are not part of the set. */
function isNoise(name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return name.endsWith('/') || name.startsWith('__MACOSX/') || base.startsWith('.') || /^(thumbs\.db|desktop\.ini)$/i.test(base);
}

/** Reads a zip as the trainer would: refuses one that is not a zip, holds too few images, or an image that does not decode. */
export async function readTrainingSet(zip: Uint8Array): Promise<TrainingSet> {
  const isZip = zip.length >= 4 && zip[0] === 0x50 && zip[1] === 0x4b && [0x03, 0x05].includes(zip[2]);
  if (!isZip) throw new TrainingSetError('input_images is not a zip file');
  let entries: Record<string, Uint8Array>;
  const names: string[] = [];
  try {
    entries = unzipSync(zip, {
      filter: (file) => {
        if (isNoise(file.name)) return false;
        names.push(file.name);
        if (!IMAGE.test(file.name)) return false;
        if (file.originalSize > MAX_IMAGE_BYTES) throw new TrainingSetError(`${file.name} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof TrainingSetError) throw err;
    throw new TrainingSetError(`input_images could not be read as a zip file (${(err as Error).message})`);
  }
  const images = names.filter((n) => IMAGE.test(n));
  if (images.length < MIN_TRAINING_IMAGES) {
    throw new TrainingSetError(`input_images holds ${images.length} image${images.length === 1 ? '' : 's'}; the trainer needs at least ${MIN_TRAINING_IMAGES}`);
  }
  for (const name of images) {
    const ok = await sharp(entries[name])
      .metadata()
      .then((m) => Boolean(m.width && m.height))
      .catch(() => false);
    if (!ok) throw new TrainingSetError(`${name} in input_images is not an image the trainer can read`);
  }
  return { images, captions: names.filter((n) => /\.txt$/i.test(n)).length, subject: await previewSubject(Buffer.from(entries[images[0]])) };
}

/** Fetches `input_images`; a URL that cannot be fetched is refused with the reason. */
export async function downloadTrainingSet(url: string): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (err) {
    throw new TrainingSetError(`input_images could not be downloaded (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message})`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new TrainingSetError(`input_images could not be downloaded (HTTP ${res.status})`);
  }
  if (Number(res.headers.get('content-length') ?? 0) > MAX_ZIP_BYTES) {
    await res.body?.cancel();
    throw new TrainingSetError(`input_images is larger than ${MAX_ZIP_BYTES / 1024 / 1024} MB`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (let read = await reader?.read(); reader && read && !read.done; read = await reader.read()) {
    size += read.value.length;
    if (size > MAX_ZIP_BYTES) {
      await reader.cancel();
      throw new TrainingSetError(`input_images is larger than ${MAX_ZIP_BYTES / 1024 / 1024} MB`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}

/**
 * The `weights` a finished training points to: a tar (as the trainer's `trained_model.tar`)
 * holding only a note that these are a local preview's, not trained weights.
 */
export function weightsArchive(note: string): Buffer {
  const data = Buffer.from(note, 'utf8');
  const header = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'ascii');
  const octal = (n: number, length: number) => `${n.toString(8).padStart(length - 1, '0')}\0`;
  field(0, 100, 'LOCAL-PREVIEW.txt');
  field(100, 8, octal(0o644, 8));
  field(108, 8, octal(0, 8));
  field(116, 8, octal(0, 8));
  field(124, 12, octal(data.length, 12));
  field(136, 12, octal(Math.floor(Date.now() / 1000), 12));
  field(148, 8, ' '.repeat(8));
  field(156, 1, '0');
  field(257, 8, 'ustar\u000000');
  const sum = header.reduce((s, b) => s + b, 0);
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding, Buffer.alloc(1024)]);
}
