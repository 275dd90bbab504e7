// Photos of faces for tests of the face checks and of the flows that run them (docs/identity.md),
// made in memory with sharp from the sample screenshots inside @vladmandic/human (no downloads),
// the same bytes on every run. test/unit/faces/face-photos.test.ts proves, through the face
// library and the photo validation, that each set is what its name says.
//
// The person is the man of the package's face-match demo: its screenshot shows him in eleven
// photos (the first row of its grid of faces) and the face-detect demo shows him once more. Cut
// free of the demo's captions (a score above each face, an age and gender below), most of the
// grid's faces read as blurred: they are thumbnails of about 100 pixels, and the letters' edges
// had lifted their sharpness reading (one face: 548 with its captions, 152 without). Five of his
// photos stay sharp and are found, as one face and as him, under every light tried: the
// face-detect portrait, the face-paint photo and three grid faces. (Crops of the face-paint photo
// lose or double the face under small changes of light; another grid face sits at the edge of
// the same-person threshold.) A set is those five, then framings of the portrait (crops to a
// side or a corner, tilts of up to eight degrees, changes of light), each 46 bits or more of the
// difference hash from the others; the five photos are about 40 apart; the duplicate check
// stops at 24. So a set is five different photos and up to 35 re-framings of one: enough for the
// checks, not a training set. His soft photos serve as selfies (a selfie is not checked for blur)
// and as his blurred photo.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type OutputInfo, type Sharp } from 'sharp';

const load = createRequire(__filename);
const assets = path.join(path.dirname(load.resolve('@vladmandic/human')), '..', 'assets');
/** A sample image of the package, by file name. */
/**
 * How long a test waits for the face checks of a set or a selfie. The twin runs every check of a
 * run in the one worker of the check-faces function, so on a busy two-core machine a set waits
 * behind the sets of every other file; on AWS each runs at once.
 */
export const FACE_CHECKS_WAIT_MS = 240_000;

export const assetPath = (name: string) => path.join(assets, name);

export type Region = { left: number; top: number; width: number; height: number };
type Source = Region & { file: string };

/** A cell of the face-match demo's grid of extracted faces: 18 columns, 6 rows, many people. */
export function gridRegion(row: number, column: number): Region {
  return { left: Math.round((column * 1920) / 18), top: Math.round(284 + row * 107.5), width: 104, height: 104 };
}

/** The face-detect demo's five portraits, left to right: the man, then four women. */
const PORTRAITS: readonly Source[] = [8, 165, 322, 479, 632].map((left) => ({
  file: 'screenshot-facedetect.jpg',
  left,
  top: 345,
  width: 152,
  height: 152,
}));

/**
 * A cell of the grid's first row (the man's photos) without the demo's captions: the rows of the
 * score above and of the age and gender below are cut off. (With them, a crop can also find a
 * second face in the letters.)
 */
function uncaptioned(column: number): Source {
  const cell = gridRegion(0, column);
  return { file: 'screenshot-facematch.jpg', left: cell.left, top: cell.top + 13, width: cell.width, height: cell.height - 27 };
}

/** The man's photos that the checks read as sharp: the portrait, the face-paint photo, three more. */
const MAN = { portrait: PORTRAITS[0], paint: uncaptioned(9), g1: uncaptioned(1), g3: uncaptioned(3), g8: uncaptioned(8) };
/** His soft photos, in no set: selfies (a selfie is not checked for blur) and the blurred photo. */
const MAN_SOFT = [uncaptioned(4), uncaptioned(0), uncaptioned(2), uncaptioned(5)];

/** The shorter side of every photo made here: above PHOTO_LIMITS.minSide (512). */
const SHORT_SIDE = 640;

type Corner = 'top left' | 'top right' | 'bottom left' | 'bottom right';
type Light = { brightness?: number; saturation?: number; hue?: number };

/**
 * How a photo is cut from its source: turned by `tilt` degrees (the corners the turn leaves empty
 * are cut away, so the frame holds the photo only), then cropped to `width` x `height` (shares of
 * what is left) at `corner`, enlarged to SHORT_SIDE on its shorter side and relit (sharp's
 * modulate).
 */
interface Framing {
  tilt: number;
  width: number;
  height: number;
  corner: Corner;
  light: Light;
}

const frame = (tilt = 0, width = 1, height = 1, corner: Corner = 'top left'): Omit<Framing, 'light'> => ({ tilt, width, height, corner });

/** Lights taken in turn along a set: a little brighter, dimmer, warmer, paler. */
const LIGHTS: Light[] = [
  {},
  { brightness: 1.08 },
  { brightness: 0.92, saturation: 0.9 },
  { hue: 6, saturation: 1.1 },
  { brightness: 1.04, saturation: 0.85 },
  { brightness: 0.96, hue: -6 },
];

/**
 * A set's photos in order: the five photos first, so a small set is of different photos, then
 * framings of the portrait, each as far as could be from those before it.
 */
const SET: Array<{ source: Source; framing: Omit<Framing, 'light'> }> = [
  { source: MAN.paint, framing: frame() },
  { source: MAN.g1, framing: frame() },
  { source: MAN.g3, framing: frame() },
  { source: MAN.portrait, framing: frame() },
  { source: MAN.g8, framing: frame() },
  { source: MAN.portrait, framing: frame(6, 0.82, 0.82, 'bottom left') },
  { source: MAN.portrait, framing: frame(0, 0.8, 1, 'top right') },
  { source: MAN.portrait, framing: frame(-8, 0.9, 0.9, 'bottom right') },
  { source: MAN.portrait, framing: frame(-2, 0.8) },
  { source: MAN.portrait, framing: frame(8, 0.9, 0.9, 'bottom right') },
  { source: MAN.portrait, framing: frame(8, 0.9, 0.9, 'top right') },
  { source: MAN.portrait, framing: frame(8, 1, 0.8, 'bottom left') },
  { source: MAN.portrait, framing: frame(-8, 0.9, 0.9, 'bottom left') },
  { source: MAN.portrait, framing: frame(-4, 0.82, 0.82) },
  { source: MAN.portrait, framing: frame(-4, 0.82, 0.82, 'bottom right') },
  { source: MAN.portrait, framing: frame(6, 0.9) },
  { source: MAN.portrait, framing: frame(-8, 1, 0.8, 'bottom left') },
  { source: MAN.portrait, framing: frame(-6, 0.9, 0.9, 'top right') },
  { source: MAN.portrait, framing: frame(0, 1, 0.8) },
  { source: MAN.portrait, framing: frame(2, 0.82, 0.82, 'top right') },
  { source: MAN.portrait, framing: frame(8, 0.8, 1, 'top right') },
  { source: MAN.portrait, framing: frame(-8, 0.8, 1, 'top right') },
  { source: MAN.portrait, framing: frame(0, 0.9, 0.9, 'bottom right') },
  { source: MAN.portrait, framing: frame(0, 0.82, 0.82, 'bottom left') },
  { source: MAN.portrait, framing: frame(-8, 0.82, 0.82, 'bottom left') },
  { source: MAN.portrait, framing: frame(0, 0.9, 0.9, 'bottom left') },
  { source: MAN.portrait, framing: frame(8, 1, 0.9) },
  { source: MAN.portrait, framing: frame(8, 0.8) },
  { source: MAN.portrait, framing: frame(2, 1, 0.8, 'bottom left') },
  { source: MAN.portrait, framing: frame(-6, 1, 0.9) },
  { source: MAN.portrait, framing: frame(0, 0.9, 0.9) },
  { source: MAN.portrait, framing: frame(8, 0.82, 0.82) },
  { source: MAN.portrait, framing: frame(-6, 0.9, 0.9) },
  { source: MAN.portrait, framing: frame(-8) },
  { source: MAN.portrait, framing: frame(-8, 0.8) },
  { source: MAN.portrait, framing: frame(0, 0.9, 0.9, 'top right') },
  { source: MAN.portrait, framing: frame(-8, 1, 0.8) },
  { source: MAN.portrait, framing: frame(-4, 0.9) },
  { source: MAN.portrait, framing: frame(8) },
  { source: MAN.portrait, framing: frame(8, 0.9, 0.9, 'bottom left') },
];
/** The most photos `personSet` makes. */
const MAX_SET = SET.length;

/** Enlargement of a source before it is turned: a turn of a small image would soften it. */
const WORKING_SCALE = 3;
const sourcePixels = new Map<string, Promise<{ data: Buffer; info: OutputInfo }>>();

function enlarged({ file, ...region }: Source) {
  const key = JSON.stringify([file, region]);
  let pixels = sourcePixels.get(key);
  if (!pixels) {
    pixels = sharp(assetPath(file))
      .extract(region)
      .resize(region.width * WORKING_SCALE, region.height * WORKING_SCALE, { kernel: 'lanczos3' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    sourcePixels.set(key, pixels);
    pixels.catch(() => sourcePixels.delete(key));
  }
  return pixels;
}

const rawOf = ({ width, height, channels }: { width: number; height: number; channels: number }) => ({
  raw: { width, height, channels: channels as 1 | 2 | 3 | 4 },
});

/** A photo cut from a source (see Framing), not yet encoded. */
async function framed(source: Source, framing: Framing): Promise<Sharp> {
  const { data, info } = await enlarged(source);
  let pixels = data;
  let size = { width: info.width, height: info.height, channels: info.channels };
  if (framing.tilt !== 0) {
    // The largest upright rectangle of the same shape inside the turned one, centred.
    const angle = (Math.abs(framing.tilt) * Math.PI) / 180;
    const keep = (side: number) => Math.floor(side / (Math.cos(angle) + Math.sin(angle)));
    const turned = await sharp(data, rawOf(info)).rotate(framing.tilt).raw().toBuffer({ resolveWithObject: true });
    const width = keep(info.width);
    const height = keep(info.height);
    pixels = await sharp(turned.data, rawOf(turned.info))
      .extract({ left: Math.floor((turned.info.width - width) / 2), top: Math.floor((turned.info.height - height) / 2), width, height })
      .raw()
      .toBuffer();
    size = { width, height, channels: turned.info.channels };
  }
  const width = Math.round(framing.width * size.width);
  const height = Math.round(framing.height * size.height);
  const crop = {
    left: framing.corner.endsWith('right') ? size.width - width : 0,
    top: framing.corner.startsWith('bottom') ? size.height - height : 0,
    width,
    height,
  };
  const scale = SHORT_SIDE / Math.min(width, height);
  const image = sharp(pixels, rawOf(size))
    .extract(crop)
    .resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' });
  return Object.keys(framing.light).length > 0 ? image.modulate(framing.light) : image;
}

/**
 * JPEG at quality 90. A seed other than 0 is written into the EXIF description: other bytes, the
 * same pixels, so the checks see the same photo (and the validation drops the metadata).
 */
const encode = (image: Sharp, seed = 0) =>
  (seed === 0 ? image : image.withExif({ IFD0: { ImageDescription: `test photo, seed ${seed}` } })).jpeg({ quality: 90 }).toBuffer();

/** A source whole, enlarged, as it is. */
const whole = async (source: Source) => encode(await framed(source, { ...frame(), light: {} }));

const sets = new Map<number, Promise<Buffer[]>>();

/**
 * `n` photos of one person (n up to 40) that the face checks judge all usable, all the same person
 * and none a near-duplicate of another; each passes the photo validation (JPEG, shorter side 640).
 * Made once per seed and process; a smaller set is the start of a larger one. Another seed gives
 * other bytes of the same pictures (see `encode`). Callers must not modify the buffers.
 */
export async function personSet(n: number, seed = 0): Promise<Buffer[]> {
  if (!Number.isInteger(n) || n < 0 || n > MAX_SET) throw new Error(`personSet makes 0 to ${MAX_SET} photos, not ${n}`);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`personSet takes a whole seed from 0, not ${seed}`);
  let set = sets.get(seed);
  if (!set) {
    set = Promise.all(
      SET.map(async ({ source, framing }, i) => encode(await framed(source, { ...framing, light: LIGHTS[i % LIGHTS.length] }), seed)),
    );
    sets.set(seed, set);
    set.catch(() => sets.delete(seed));
  }
  return (await set).slice(0, n);
}

/** Photos the face checks refuse, one finding each; each passes the photo validation. */
interface BadPhotos {
  /** A room with nobody in it: `no-face`. */
  noFace: Buffer;
  /** The person beside a woman: `several-faces`. */
  twoFaces: Buffer;
  /** Two other people, one photo each: `another-person`. */
  otherPerson: Buffer[];
  /** The person out of focus: `blurred`. */
  blurred: Buffer;
  /** The person under-exposed: `too-dark` (a framing of the portrait in no set, sharp). */
  dark: Buffer;
}

let bad: Promise<BadPhotos> | undefined;

export function badPhotos(): Promise<BadPhotos> {
  bad ??= (async () => {
    const [noFace, man, woman, otherPerson, blurred, dark] = await Promise.all([
      // The ceiling of the samples' party photo: lamps, no people.
      whole({ file: 'samples.jpg', left: 760, top: 196, width: 520, height: 200 }),
      whole(MAN_SOFT[1]),
      whole(PORTRAITS[4]),
      Promise.all([PORTRAITS[1], PORTRAITS[3]].map(whole)),
      framed(MAN_SOFT[2], { ...frame(), light: {} }).then((image) => encode(image.blur(8))),
      framed(MAN.portrait, { ...frame(-4, 0.9, 1, 'top right'), light: {} }).then((image) => encode(image.linear(0.2, 0))),
    ]);
    const half = (photo: Buffer) => sharp(photo).resize(SHORT_SIDE, SHORT_SIDE, { fit: 'cover' }).toBuffer();
    const twoFaces = await encode(
      sharp({ create: { width: SHORT_SIDE * 2, height: SHORT_SIDE, channels: 3, background: '#202020' } }).composite([
        { input: await half(man), left: 0, top: 0 },
        { input: await half(woman), left: SHORT_SIDE, top: 0 },
      ]),
    );
    return { noFace, twoFaces, otherPerson, blurred, dark };
  })();
  bad.catch(() => {
    bad = undefined;
  });
  return bad;
}

const selfies = new Map<number, Promise<Buffer>>();

/**
 * A new photo of the person of `personSet` (one of his four photos in no set), which
 * `matchSelfie` against a set of his reports as a `match`. Seeds 0 to 3 pick the photo; a larger
 * seed gives other bytes of one of them.
 */
export function selfieOf(seed = 0): Promise<Buffer> {
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`selfieOf takes a whole seed from 0, not ${seed}`);
  let selfie = selfies.get(seed);
  if (!selfie) {
    const source = MAN_SOFT[seed % MAN_SOFT.length];
    selfie = framed(source, { ...frame(), light: {} }).then((image) => encode(image, seed < MAN_SOFT.length ? 0 : seed));
    selfies.set(seed, selfie);
    selfie.catch(() => selfies.delete(seed));
  }
  return selfie;
}

let stranger: Promise<Buffer> | undefined;

/** A selfie of someone else: `matchSelfie` reports `no-match`. */
export function strangerSelfie(): Promise<Buffer> {
  stranger ??= whole(PORTRAITS[2]);
  stranger.catch(() => {
    stranger = undefined;
  });
  return stranger;
}
