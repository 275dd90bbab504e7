// The training set of a likeness model (docs/training.md "The training set"): the application's
// usable photos, each cropped to a square centred on the face at the trainer's size, re-encoded
// as JPEG without metadata (sharp writes none unless asked), and zipped. Photos are personal data:
// they are read from the founding bucket and written to the training wing's private bucket only.
import { zipSync, type Zippable } from 'fflate';
import sharp from 'sharp';

/** A face's box as the identity check stores it: shares of the upright photo's width and height, 0..1. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A stored photo of the application to train with: its index (`photos/{index}.jpg`) and its face, when known. */
export interface TrainingPhoto {
  index: number;
  box?: FaceBox;
}

/** The face is this share of the crop's side: head, hair and shoulders show, as portrait trainers like. */
const FACE_SHARE_OF_CROP = 0.45;
/** The face's centre sits a little above the crop's (more room below for the neck and shoulders). */
const FACE_CENTRE_HEIGHT = 0.42;
const JPEG_QUALITY = 92;

const share = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

function boxOf(value: unknown): FaceBox | undefined {
  const b = value as Partial<FaceBox> | null | undefined;
  if (!b || !share(b.x) || !share(b.y) || !share(b.width) || !share(b.height) || b.width <= 0 || b.height <= 0) return undefined;
  return { x: b.x, y: b.y, width: b.width, height: b.height };
}

/**
 * The photos to train with, from the application's `photoResults`: accepted ones with a stored
 * index, except those the identity check marked `usable: false` and those the applicant replaced;
 * with the face box where the check stored one (`face`, `face.box` or `analysis.face.box`).
 */
export function usablePhotos(photoResults: readonly unknown[] | undefined): TrainingPhoto[] {
  const photos: TrainingPhoto[] = [];
  for (const raw of photoResults ?? []) {
    const r = (raw ?? {}) as Record<string, unknown> & { face?: { box?: unknown }; analysis?: { face?: { box?: unknown } | null } };
    if (r.accepted !== true || typeof r.index !== 'number' || !Number.isInteger(r.index) || r.index < 0) continue;
    if (r.usable === false || r.replacedAt !== undefined) continue;
    const box = boxOf(r.face) ?? boxOf(r.face?.box) ?? boxOf(r.analysis?.face?.box);
    photos.push({ index: r.index, ...(box ? { box } : {}) });
  }
  return photos;
}

/**
 * One photo as the trainer gets it: a `size` square JPEG without metadata. With a face box the
 * square is centred on the face, as large as the face allows (within the photo); without one,
 * sharp's attention strategy picks the square (it favours skin tones and contrast: the face).
 */
export async function cropForTraining(bytes: Buffer, size: number, box?: FaceBox): Promise<Buffer> {
  const meta = await sharp(bytes).metadata();
  // Stored photos are upright already; an EXIF orientation that turns them swaps the sides.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = (turned ? meta.height : meta.width) ?? 0;
  const height = (turned ? meta.width : meta.height) ?? 0;
  if (!box || width === 0 || height === 0) {
    return sharp(bytes).rotate().resize(size, size, { fit: 'cover', position: sharp.strategy.attention }).jpeg({ quality: JPEG_QUALITY }).toBuffer();
  }
  const faceSide = Math.max(box.width * width, box.height * height);
  const side = Math.max(1, Math.floor(Math.min(Math.max(faceSide / FACE_SHARE_OF_CROP, faceSide), width, height)));
  const cx = (box.x + box.width / 2) * width;
  const cy = (box.y + box.height / 2) * height;
  const left = Math.round(Math.min(Math.max(cx - side / 2, 0), width - side));
  const top = Math.round(Math.min(Math.max(cy - side * FACE_CENTRE_HEIGHT, 0), height - side));
  return sharp(bytes)
    .rotate()
    .extract({ left, top, width: side, height: side })
    .resize(size, size)
    .jpeg({ quality: JPEG_QUALITY })
    .toBuffer();
}

/** The zip the trainer downloads: `photo-01.jpg`, ... stored as they are (JPEGs do not compress). */
export function trainingZip(images: readonly Buffer[]): Buffer {
  const files: Zippable = {};
  images.forEach((image, i) => {
    files[`photo-${String(i + 1).padStart(2, '0')}.jpg`] = [image, { level: 0 }];
  });
  return Buffer.from(zipSync(files));
}
