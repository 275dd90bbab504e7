import sharp from 'sharp';
import { PHOTO_LIMITS } from '../../../events/founding-values';
import { FACE_THRESHOLDS } from '../../../events/identity-values';
import { HASH_HEIGHT, HASH_WIDTH, differenceHash, laplacianVariance, meanLuminance } from './measures';
import { detectFaces } from './model';

/** A box relative to the photo: each value a share of its width or height, 0..1. */
interface RelativeBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The main face of a photo: its largest face at or above minFaceConfidence. */
interface AnalysedFace {
  /** Detection confidence, 0..1. */
  confidence: number;
  box: RelativeBox;
  /** The box's shorter side in pixels of the photo as given (upright). */
  pixels: number;
  /** The box's height as a share of the photo's shorter side. */
  share: number;
  /** Face descriptor (1024 numbers): biometric data, to be encrypted wherever it is stored. */
  descriptor: number[];
  /** Variance of the Laplacian of the face at FACE_THRESHOLDS.sharpnessSide square. */
  sharpness: number;
  /** Mean luminance of the face, 0..255. */
  brightness: number;
}

/** What one photo shows. Holds no pixels. */
export interface PhotoAnalysis {
  /** The photo's size, upright (EXIF orientation applied). */
  width: number;
  height: number;
  /** Faces at or above FACE_THRESHOLDS.minFaceConfidence. */
  faceCount: number;
  /** The largest of them, or null when there is none. */
  face: AnalysedFace | null;
  /** Mean luminance of the whole photo, 0..255. */
  brightness: number;
  /** Perceptual hash of the whole photo (256-bit difference hash, 64 hex digits). */
  hash: string;
  /** The same hash of the photo flipped left to right: a mirrored copy is a duplicate too. */
  mirroredHash: string;
}

/** Like the validation step: refuse a huge image from its header, and a truncated file. */
const INPUT = { limitInputPixels: PHOTO_LIMITS.maxPixels, failOn: 'truncated' } as const;

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * Analyses one photo: any image sharp decodes (JPEG, PNG, WebP; HEIC once decoded). The photo is
 * turned upright, reduced to FACE_THRESHOLDS.analysisMaxSide and decoded to RGB in memory; its
 * pixels are dropped when this returns. Loads the face model on first use.
 */
export async function analyzePhoto(bytes: Uint8Array): Promise<PhotoAnalysis> {
  const { width, height } = (await sharp(bytes, INPUT).metadata()).autoOrient;
  const side = FACE_THRESHOLDS.analysisMaxSide;
  const { data: rgb, info } = await sharp(bytes, INPUT)
    .rotate()
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels after decoding, got ${info.channels}`);
  const raw = { raw: { width: info.width, height: info.height, channels: 3 as const } };

  const grey = await sharp(rgb, raw).greyscale().raw().toBuffer();
  const thumbnail = await sharp(rgb, raw)
    .greyscale()
    .resize(HASH_WIDTH, HASH_HEIGHT, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();

  const faces = (await detectFaces(rgb, info.width, info.height))
    .filter((face) => face.score >= FACE_THRESHOLDS.minFaceConfidence && face.embedding && face.embedding.length > 0)
    // Largest first; equal sizes by confidence, then position, so the order never depends on the detector's.
    .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3] || b.score - a.score || a.box[0] - b.box[0] || a.box[1] - b.box[1]);

  let face: AnalysedFace | null = null;
  const main = faces[0];
  if (main) {
    const left = Math.max(0, Math.floor(main.box[0]));
    const top = Math.max(0, Math.floor(main.box[1]));
    const right = Math.min(info.width, Math.ceil(main.box[0] + main.box[2]));
    const bottom = Math.min(info.height, Math.ceil(main.box[1] + main.box[3]));
    const region = { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
    const faceGrey = await sharp(rgb, raw).extract(region).greyscale().raw().toBuffer();
    const n = FACE_THRESHOLDS.sharpnessSide;
    // Contrast stretched first, so a dark face that is sharp does not read as blurred.
    const faceSquare = await sharp(rgb, raw)
      .extract(region)
      .greyscale()
      .normalise()
      .resize(n, n, { fit: 'fill', kernel: 'cubic' })
      .raw()
      .toBuffer();
    if (faceSquare.length !== n * n) throw new Error('face region did not decode to one channel');
    const scale = width / info.width;
    face = {
      confidence: round(main.score, 3),
      box: {
        x: round(left / info.width, 4),
        y: round(top / info.height, 4),
        width: round(region.width / info.width, 4),
        height: round(region.height / info.height, 4),
      },
      pixels: Math.round(Math.min(region.width, region.height) * scale),
      share: round((region.height * scale) / Math.min(width, height), 4),
      descriptor: Array.from(main.embedding ?? []),
      sharpness: round(laplacianVariance(faceSquare, n, n), 1),
      brightness: round(meanLuminance(faceGrey), 1),
    };
  }

  return {
    width,
    height,
    faceCount: faces.length,
    face,
    brightness: round(meanLuminance(grey), 1),
    hash: differenceHash(thumbnail),
    mirroredHash: differenceHash(thumbnail, true),
  };
}
