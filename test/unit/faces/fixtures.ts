// Test photos made in memory from the sample images inside @vladmandic/human (no downloads):
// crops of its screenshots for different people, edits of one photo for the same person.
import sharp, { type Sharp } from 'sharp';
import { assetPath as asset, gridRegion, type Region } from '../../support/face-photos';

/** Where faces are in the package's screenshots (pixels of the JPEG files). */
const SOURCES = {
  /**
   * The Face ID demo's man: used only with edits of this one photo. His similarity to `detect0`
   * (perhaps the same man years earlier) is 0.4, so no test counts him as that man or as another.
   */
  faceId: { file: 'screenshot-faceid.jpg', region: { left: 10, top: 135, width: 150, height: 152 } },
  /** The face-detect demo's five portraits: a man, then four women. */
  detect0: { file: 'screenshot-facedetect.jpg', region: { left: 8, top: 345, width: 152, height: 152 } },
  detect1: { file: 'screenshot-facedetect.jpg', region: { left: 165, top: 345, width: 152, height: 152 } },
  detect2: { file: 'screenshot-facedetect.jpg', region: { left: 322, top: 345, width: 152, height: 152 } },
  detect3: { file: 'screenshot-facedetect.jpg', region: { left: 479, top: 345, width: 152, height: 152 } },
  detect4: { file: 'screenshot-facedetect.jpg', region: { left: 632, top: 345, width: 152, height: 152 } },
  /** The face-match demo's selected face: the man of `detect0` in another photo. */
  selected: { file: 'screenshot-facematch.jpg', region: { left: 0, top: 22, width: 200, height: 200 } },
} as const satisfies Record<string, { file: string; region: Region }>;
type Source = keyof typeof SOURCES;

/** Side of the square test photos. */
const SIDE = 600;

/** A crop of a screenshot, enlarged to a SIDE x SIDE JPEG photo. */
export async function photoOf(source: Source | { file: string; region: Region }, side = SIDE): Promise<Buffer> {
  const { file, region } = typeof source === 'string' ? SOURCES[source] : source;
  return sharp(asset(file)).extract(region).resize(side, side, { kernel: 'lanczos3' }).jpeg({ quality: 92 }).toBuffer();
}

/** A cell of the face-match demo's grid of faces (captions included), as a photo. */
export async function gridPhoto(row: number, column: number): Promise<Buffer> {
  return photoOf({ file: 'screenshot-facematch.jpg', region: gridRegion(row, column) });
}

const jpeg = (image: Sharp) => image.jpeg({ quality: 92 }).toBuffer();

/** Edits of one photo: the same person, and for some of them the same photo. */
export const edit = {
  mirror: (photo: Buffer) => jpeg(sharp(photo).flop()),
  /** A tighter, off-centre crop, enlarged back: another framing. */
  crop: (photo: Buffer, share = 0.8) => {
    const side = Math.round(SIDE * share);
    return jpeg(sharp(photo).extract({ left: SIDE - side, top: Math.round((SIDE - side) / 4), width: side, height: side }).resize(SIDE, SIDE));
  },
  rotate: (photo: Buffer, degrees: number) =>
    jpeg(sharp(photo).rotate(degrees, { background: '#808080' }).resize(SIDE, SIDE, { fit: 'cover' })),
  brighter: (photo: Buffer) => jpeg(sharp(photo).modulate({ brightness: 1.25 })),
  reencode: (photo: Buffer) => sharp(photo).jpeg({ quality: 75 }).toBuffer(),
  blur: (photo: Buffer, sigma: number) => jpeg(sharp(photo).blur(sigma)),
  darken: (photo: Buffer, factor: number) => jpeg(sharp(photo).linear(factor, 0)),
  /** The photo reduced to `share` of its size in the middle of a larger plain background. */
  small: async (photo: Buffer, share: number) => {
    const inner = Math.round(SIDE * share);
    const face = await sharp(photo).resize(inner, inner).toBuffer();
    const offset = Math.round((SIDE - inner) / 2);
    return jpeg(sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: '#d8d4cc' } }).composite([{ input: face, left: offset, top: offset }]));
  },
};

/** Two photos side by side in one (two people, or one person twice). */
export async function sideBySide(left: Buffer, right: Buffer): Promise<Buffer> {
  const half = SIDE / 2;
  const [a, b] = await Promise.all([left, right].map((photo) => sharp(photo).resize(half, half).toBuffer()));
  return jpeg(
    sharp({ create: { width: SIDE, height: half, channels: 3, background: '#808080' } }).composite([
      { input: a, left: 0, top: 0 },
      { input: b, left: half, top: 0 },
    ]),
  );
}

/** A photo with no face: a soft gradient, or the package's 3D avatar screenshot (a figure, no human face). */
export async function plainPhoto(): Promise<Buffer> {
  const pixels = Buffer.alloc(SIDE * SIDE * 3);
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const i = (y * SIDE + x) * 3;
      pixels[i] = 120 + Math.round((80 * x) / SIDE);
      pixels[i + 1] = 140 + Math.round((60 * y) / SIDE);
      pixels[i + 2] = 170;
    }
  }
  return jpeg(sharp(pixels, { raw: { width: SIDE, height: SIDE, channels: 3 } }));
}

export async function avatarPhoto(): Promise<Buffer> {
  return sharp(asset('screenshot-vrm.jpg')).jpeg({ quality: 92 }).toBuffer();
}
