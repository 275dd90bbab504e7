/**
 * Face match thresholds from measurement (docs/identity.md, "Thresholds and why"; decision 057).
 * Scores pairs of faces whose identity is known, from the sample screenshots inside
 * @vladmandic/human, and prints for candidate thresholds the false-match rate (different people
 * at or above) and the false-non-match rate (the same person below): for one pair, and for the
 * selfie rule (the mean of the best k similarities of a selfie to a set of n photos, k = 1, 3, 5,
 * 10). Then how close copies of one photo come to it, against different photos of the same man
 * (`copySimilarity`).
 *
 *   npm run bench:face-thresholds               (every labelled face and 44 copies: about 160 photos, under a minute)
 *   npm run bench:face-thresholds -- --quick    (ten faces and three copies, the same tables; CI runs it)
 *
 * Who is who (looked at, face by face):
 * - The man: the 18 faces of the first row of the face-match demo's grid, and the face-detect
 *   demo's portrait of him. The demo's "selected face" is not used: it is the grid's first face,
 *   cut from the same photo.
 * - Other people: the faces of the grid's other rows that are clearly someone else (women, and
 *   men of another age, build, skin or hair), and the face-detect demo's four women. Those four
 *   come from one group photo, so they are four people: the only pairs of other people counted.
 *   Other pairs within the grid's other rows are not labelled (the demo's photos are of one circle
 *   of friends: a woman may be in several).
 * - Unsure: faces that might be the man (sunglasses, a blurred face, a similar build), and the
 *   Face ID demo's man. Printed apart, counted nowhere.
 *
 * Photos: each face cut from its screenshot (the grid's cells without the demo's captions),
 * enlarged to 600 pixels on its shorter side, JPEG quality 92, analysed once each with
 * `analyzePhoto`; similarities are the checks' own (`descriptorSimilarity`). The faces are
 * thumbnails of 70 to 150 pixels: softer than any phone photo, so both rates are on the poor side.
 * Every face with a detection counts, soft or not (the selfie is not checked for blur).
 * Exits non-zero if an impostor passes at the current FACE_THRESHOLDS.
 */
import sharp, { type Sharp } from 'sharp';
import { FACE_THRESHOLDS } from '../../events/identity-values';
import { analyzePhoto, loadFaceModel, type PhotoAnalysis } from '../../functions/founding/faces';
import { descriptorSimilarity } from '../../functions/founding/faces/model';
import { assetPath, type Region } from '../support/face-photos';

const QUICK = process.argv.includes('--quick');

type Who = 'man' | 'other' | 'unsure' | 'left out';
interface Face {
  id: string;
  who: Who;
  file: string;
  region: Region;
  /** Pixels of border added around the crop, its edges repeated (a face that fills the frame is often missed). */
  border?: number;
}

const FACEMATCH = 'screenshot-facematch.jpg';
const FACEDETECT = 'screenshot-facedetect.jpg';

/**
 * A grid cell without the demo's captions (the score above, the age and gender below). The grid's
 * rows are 112.5 pixels apart from y = 283 (the dark lines between them, read off the
 * screenshot); the captions take the first 15 and the last 20 of a row's 107 pixels. Cut that
 * tight, the face fills the frame and the detector misses one in ten: a border of 16 pixels (the
 * edges repeated) finds all but one.
 */
function cell(row: number, column: number, who: Who): Face {
  const top = Math.round(283 + row * 112.5) + 15;
  return { id: `grid r${row} c${column}`, who, file: FACEMATCH, region: { left: Math.round((column * 1920) / 18), top, width: 104, height: 72 }, border: 16 };
}
const portrait = (index: number, who: Who): Face => ({
  id: index === 0 ? 'detect man' : `detect woman ${index}`,
  who,
  file: FACEDETECT,
  region: { left: [8, 165, 322, 479, 632][index], top: 345, width: 152, height: 152 },
});

/**
 * His photo with a woman's face half in the frame beside his (and her lipstick on his cheek): one
 * face is found, but its descriptor takes in some of hers (it scores about 0.8 with women). A
 * set photo must show the applicant alone, so it is left out of his photos, and printed apart.
 */
const LEFT_OUT = 'grid r0 c7';

/** Cells of rows 1-5 that might be the man: in no count. */
const UNSURE_CELLS = ['1,0', '1,1', '1,2', '1,3', '1,8', '1,13', '1,15', '1,16', '2,0', '2,7', '3,1', '4,11'];

function allFaces(): Face[] {
  const faces: Face[] = [];
  for (let column = 0; column < 18; column++) faces.push(cell(0, column, 'man'));
  faces.find((face) => face.id === LEFT_OUT)!.who = 'left out';
  faces.push(portrait(0, 'man'));
  for (let row = 1; row < 6; row++) {
    for (let column = 0; column < 18; column++) faces.push(cell(row, column, UNSURE_CELLS.includes(`${row},${column}`) ? 'unsure' : 'other'));
  }
  for (const index of [1, 2, 3, 4]) faces.push(portrait(index, 'other'));
  faces.push({ id: 'faceid man', who: 'unsure', file: 'screenshot-faceid.jpg', region: { left: 10, top: 135, width: 150, height: 152 } });
  return faces;
}

/** Quick: six of the man (so sets of five), three other people (two from the group photo), one unsure. */
function quickFaces(faces: Face[]): Face[] {
  const ids = ['grid r0 c1', 'grid r0 c3', 'grid r0 c8', 'grid r0 c10', 'grid r0 c12', 'detect man', 'detect woman 1', 'detect woman 2', 'grid r2 c5', 'faceid man'];
  return faces.filter((face) => ids.includes(face.id));
}

const SIDE = 600;

async function photoOf(face: Face): Promise<Buffer> {
  const border = face.border ?? 0;
  const width = face.region.width + 2 * border;
  const height = face.region.height + 2 * border;
  const scale = SIDE / Math.min(width, height);
  const crop = await sharp(assetPath(face.file))
    .extract(face.region)
    .extend({ top: border, bottom: border, left: border, right: border, extendWith: 'copy' })
    .png()
    .toBuffer();
  return sharp(crop)
    .resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Analyses by key, each photo analysed once in the run. */
const analyses = new Map<string, Promise<PhotoAnalysis>>();
function analysed(key: string, make: () => Promise<Buffer>): Promise<PhotoAnalysis> {
  let found = analyses.get(key);
  if (!found) {
    found = make().then((bytes) => analyzePhoto(bytes));
    analyses.set(key, found);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Rates

/** 0.45 to 0.80 by 0.05, and the current selfieMatch among them. */
const THRESHOLDS = [...new Set([0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, FACE_THRESHOLDS.selfieMatch])].sort((a, b) => a - b);
const KS = [1, 3, 5, 10];
/** A threshold as written in the tables: two decimals, three when it has them. */
const shown = (t: number) => (Number(t.toFixed(2)) === t ? t.toFixed(2) : t.toFixed(3));
const percent = (count: number, total: number) => (total === 0 ? '-' : `${((100 * count) / total).toFixed(1)}%`);
const falseMatches = (impostor: number[], threshold: number) => impostor.filter((s) => s >= threshold - 1e-9).length;
const falseNonMatches = (genuine: number[], threshold: number) => genuine.filter((s) => s < threshold - 1e-9).length;
const fixed = (value: number) => value.toFixed(3);
const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

/** Deterministic pseudo-random numbers (mulberry32), so every run draws the same sets. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` subsets of `n` indexes of 0..size-1 (the whole range once when n is size). */
function subsets(size: number, n: number, count: number, seed: number): number[][] {
  const all = [...Array(size).keys()];
  if (n >= size) return [all];
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const pool = [...all];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    return pool.slice(0, n);
  });
}

/**
 * The selfie rule as `matchSelfie` scores it: the mean of the best k similarities of the selfie to
 * the set (all of them when the set has fewer), rounded to 0.01.
 */
function bestOf(similarities: number[], k: number): number {
  const best = [...similarities].sort((a, b) => b - a).slice(0, k);
  return Math.round((best.reduce((sum, value) => sum + value, 0) / best.length) * 100) / 100;
}

interface Labelled {
  face: Face;
  descriptor: number[];
}

async function main() {
  const started = performance.now();
  const model = await loadFaceModel();
  const every = allFaces();
  const faces = QUICK ? quickFaces(every) : every;

  const labelled: Labelled[] = [];
  const noFace: string[] = [];
  for (const face of faces) {
    const analysis = await analysed(face.id, () => photoOf(face));
    if (analysis.face) labelled.push({ face, descriptor: analysis.face.descriptor });
    else noFace.push(face.id);
  }
  const man = labelled.filter((l) => l.face.who === 'man');
  const others = labelled.filter((l) => l.face.who === 'other');
  const unsure = labelled.filter((l) => l.face.who === 'unsure');
  const leftOut = labelled.filter((l) => l.face.who === 'left out');
  const similarity = (a: Labelled, b: Labelled) => descriptorSimilarity(a.descriptor, b.descriptor);

  console.log(`Face match thresholds${QUICK ? ' (quick)' : ''}: Human ${model.version} on ${model.backend}`);
  console.log(`photos analysed ${faces.length}: the man ${man.length}, other people ${others.length}, unsure ${unsure.length}, left out ${leftOut.length}, no face found ${noFace.length}${noFace.length ? ` (${noFace.join(', ')})` : ''}`);

  // --- One pair --------------------------------------------------------------------------------
  const genuine: number[] = [];
  for (let i = 0; i < man.length; i++) for (let j = i + 1; j < man.length; j++) genuine.push(similarity(man[i], man[j]));
  const impostor: Array<{ score: number; pair: string }> = [];
  for (const a of man) for (const b of others) impostor.push({ score: similarity(a, b), pair: `${a.face.id} / ${b.face.id}` });
  const group = others.filter((o) => o.face.id.startsWith('detect woman'));
  for (let i = 0; i < group.length; i++) {
    for (let j = i + 1; j < group.length; j++) impostor.push({ score: similarity(group[i], group[j]), pair: `${group[i].face.id} / ${group[j].face.id}` });
  }
  const impostorScores = impostor.map((p) => p.score);
  if (genuine.length === 0 || impostor.length === 0) throw new Error('no pairs to score');

  console.log('');
  console.log(`One pair: same-person pairs ${genuine.length} (the man's photos, two by two), different-person pairs ${impostor.length} (the man against other people, and the group photo's women among themselves)`);
  console.log(`  same person:      min ${fixed(Math.min(...genuine))}, median ${fixed(median(genuine))}, max ${fixed(Math.max(...genuine))}`);
  console.log(`  different people: min ${fixed(Math.min(...impostorScores))}, median ${fixed(median(impostorScores))}, max ${fixed(Math.max(...impostorScores))}`);
  for (const top of [...impostor].sort((a, b) => b.score - a.score).slice(0, 3)) console.log(`  closest different pair: ${fixed(top.score)}  ${top.pair}`);
  console.log(`  ${pad('threshold', 10)} ${padLeft('false match', 12)} ${padLeft('false non-match', 16)}`);
  for (const t of THRESHOLDS) {
    console.log(`  ${pad(shown(t), 10)} ${padLeft(percent(falseMatches(impostorScores, t), impostor.length), 12)} ${padLeft(percent(falseNonMatches(genuine, t), genuine.length), 16)}`);
  }

  // --- The selfie rule ---------------------------------------------------------------------------
  // Own selfie: each photo of the man against sets drawn from his other photos. Impostor: each
  // other person against sets drawn from all of his photos. Sets of n: every subset when n is all
  // there is, else SAMPLES drawn sets per selfie.
  const largest = man.length - 1;
  const sizes = QUICK ? [largest] : [5, 10, largest];
  const SAMPLES = QUICK ? 1 : 40;
  const manSimilarity = man.map((a) => man.map((b) => similarity(a, b)));
  const otherSimilarity = others.map((o) => man.map((m) => similarity(o, m)));

  type Trials = { genuine: number[]; impostor: number[] };
  const trialsOf = (k: number, n: number): Trials => {
    const trials: Trials = { genuine: [], impostor: [] };
    man.forEach((_, selfie) => {
      const rest = man.map((__, i) => i).filter((i) => i !== selfie);
      for (const set of subsets(rest.length, n, SAMPLES, 1000 + selfie)) trials.genuine.push(bestOf(set.map((i) => manSimilarity[selfie][rest[i]]), k));
    });
    otherSimilarity.forEach((row, o) => {
      for (const set of subsets(man.length, n, SAMPLES, 5000 + o)) trials.impostor.push(bestOf(set.map((i) => row[i]), k));
    });
    return trials;
  };
  const rule = new Map<string, Trials>();
  for (const n of sizes) for (const k of KS.filter((k) => k <= n)) rule.set(`${k},${n}`, trialsOf(k, n));

  console.log('');
  console.log(`The selfie rule (mean of the best k of a set of n): own selfies ${man.length} (each of his photos against sets of his others), impostor selfies ${others.length} (each other person against sets of his)`);
  console.log(`  sets per selfie: ${sizes.map((n) => `n=${n}: ${n >= largest ? 1 : SAMPLES}`).join(', ')}${sizes.includes(man.length) ? '' : `; an impostor's set of n=${largest} is drawn from his ${man.length}`}`);
  for (const k of KS) {
    const ns = sizes.filter((n) => k <= n);
    // Quick mode's sets are too small for the largest k; every other k must have a table.
    if (ns.length === 0 && k <= 5) throw new Error(`no set of ${k} or more photos of the man`);
    if (ns.length === 0) continue;
    console.log(`  k=${k}: ${ns.map((n) => `n=${n} own ${rule.get(`${k},${n}`)!.genuine.length} / impostor ${rule.get(`${k},${n}`)!.impostor.length}`).join(', ')} trials`);
    const lows = ns.map((n) => {
      const trials = rule.get(`${k},${n}`)!;
      return `n=${n}: own min ${fixed(Math.min(...trials.genuine))}, impostor max ${fixed(Math.max(...trials.impostor))}`;
    });
    console.log(`    ${lows.join('; ')}`);
    console.log(`    ${pad('threshold', 10)} ${ns.map((n) => padLeft(`n=${n} FMR`, 11) + padLeft('FNMR', 8)).join('  ')}`);
    for (const t of THRESHOLDS) {
      const cells = ns.map((n) => {
        const trials = rule.get(`${k},${n}`)!;
        return padLeft(percent(falseMatches(trials.impostor, t), trials.impostor.length), 11) + padLeft(percent(falseNonMatches(trials.genuine, t), trials.genuine.length), 8);
      });
      console.log(`    ${pad(shown(t), 10)} ${cells.join('  ')}`);
    }
  }

  // The current values, on every set size (a set smaller than selfieBestOf: the mean of all of it).
  let failed = false;
  const currentK = FACE_THRESHOLDS.selfieBestOf;
  const threshold = FACE_THRESHOLDS.selfieMatch;
  for (const n of sizes) {
    const current = rule.get(`${currentK},${n}`) ?? trialsOf(currentK, n);
    const passes = falseMatches(current.impostor, threshold);
    const fails = falseNonMatches(current.genuine, threshold);
    const margin = threshold - Math.max(...current.impostor);
    console.log(
      `  current selfieMatch ${threshold} with selfieBestOf ${currentK}, sets of ${n}: impostors passing ${passes} of ${current.impostor.length} (margin ${margin.toFixed(3)}), own selfies failing ${fails} of ${current.genuine.length} (${percent(fails, current.genuine.length)})`,
    );
    if (passes > 0) failed = true;
  }

  // Faces that might be the man: their scores, counted nowhere.
  if (unsure.length > 0) {
    const k = Math.min(currentK, man.length);
    const scores = unsure.map((u) => `${u.face.id} ${fixed(bestOf(man.map((m) => similarity(u, m)), k))}`);
    console.log(`  unsure faces (maybe the man), best ${k} of his ${man.length}: ${scores.join(', ')}`);
  }

  for (const l of leftOut) {
    const closest = Math.max(...others.map((o) => similarity(l, o)));
    console.log(`  left out: ${l.face.id} (his, with a woman's face half in the frame): up to ${fixed(closest)} with other people`);
  }

  // --- Copies ------------------------------------------------------------------------------------
  await copies(man);

  console.log('');
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (failed) {
    console.error('an impostor passes the selfie rule at the current FACE_THRESHOLDS');
    process.exitCode = 1;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Copies of one photo, as a selfie that is not new would be: re-encoded, resized, relit, turned, shot off a screen. */
const jpeg = (image: Sharp, quality = 92) => image.jpeg({ quality }).toBuffer();
/** The photo resized to `share` of its width, then back (sharp keeps one resize a pipeline). */
async function resized(photo: Buffer, share: number, then: (image: Sharp) => Sharp = (image) => image): Promise<Sharp> {
  const { width } = await sharp(photo).metadata();
  const small = await then(sharp(photo).resize(Math.round(width * share))).png().toBuffer();
  return sharp(small).resize(width);
}
const EDITS: Record<string, (photo: Buffer) => Promise<Buffer>> = {
  're-encoded q60': (photo) => jpeg(sharp(photo), 60),
  'halved and enlarged': async (photo) => jpeg(await resized(photo, 0.5)),
  'brighter 1.1': (photo) => jpeg(sharp(photo).modulate({ brightness: 1.1 })),
  'brighter 1.25': (photo) => jpeg(sharp(photo).modulate({ brightness: 1.25 })),
  'darker 0.75': (photo) => jpeg(sharp(photo).modulate({ brightness: 0.75 })),
  'warmer, paler': (photo) => jpeg(sharp(photo).modulate({ hue: 8, saturation: 0.8 })),
  'blurred sigma 1.5': (photo) => jpeg(sharp(photo).blur(1.5)),
  mirrored: (photo) => jpeg(sharp(photo).flop()),
  'cropped to 90%': async (photo) => {
    const { width, height } = await sharp(photo).metadata();
    const [dx, dy] = [Math.round(width * 0.05), Math.round(height * 0.05)];
    return jpeg(sharp(photo).extract({ left: dx, top: dy, width: width - 2 * dx, height: height - 2 * dy }).resize(width, height));
  },
  'turned 4 degrees': async (photo) => {
    const { width, height } = await sharp(photo).metadata();
    const turned = await sharp(photo).rotate(4, { background: '#303030' }).png().toBuffer();
    return jpeg(sharp(turned).resize(width, height, { fit: 'cover' }));
  },
  'off a screen': async (photo) =>
    jpeg(await resized(photo, 0.6, (image) => image.blur(0.8).modulate({ brightness: 0.92, saturation: 0.9 })), 70),
};
const QUICK_EDITS = ['re-encoded q60', 'mirrored', 'off a screen'];

/** The man's sharp photos (test/support/face-photos.ts; his face-paint photo loses its face cut this way). */
const COPY_SOURCES = ['detect man', 'grid r0 c1', 'grid r0 c3', 'grid r0 c8'];
const COPY_THRESHOLDS = [...new Set([0.8, 0.85, 0.9, 0.92, 0.94, 0.95, 0.96, 0.97, 0.98, FACE_THRESHOLDS.copySimilarity])].sort((a, b) => a - b);

async function copies(man: Labelled[]) {
  const sources = man.filter((m) => COPY_SOURCES.includes(m.face.id)).slice(0, QUICK ? 1 : COPY_SOURCES.length);
  const edits = Object.entries(EDITS).filter(([name]) => !QUICK || QUICK_EDITS.includes(name));
  const copyScores: Array<{ score: number; edit: string; source: string }> = [];
  for (const source of sources) {
    for (const [name, edit] of edits) {
      const analysis = await analysed(`${source.face.id} ${name}`, async () => {
        return edit(await photoOf(source.face));
      });
      if (analysis.face) copyScores.push({ score: descriptorSimilarity(analysis.face.descriptor, source.descriptor), edit: name, source: source.face.id });
    }
  }
  // New photos of the same man: his photos two by two, and each one's closest other photo (what a
  // copy check on a new selfie would see).
  const pairs: number[] = [];
  for (let i = 0; i < man.length; i++) for (let j = i + 1; j < man.length; j++) pairs.push(descriptorSimilarity(man[i].descriptor, man[j].descriptor));
  const closest = man.map((a, i) => Math.max(...man.filter((_, j) => j !== i).map((b) => descriptorSimilarity(a.descriptor, b.descriptor))));
  if (copyScores.length === 0) throw new Error('no copy had a face');
  const copyValues = copyScores.map((c) => c.score);

  console.log('');
  console.log(`Copies: ${copyScores.length} copies of ${sources.length} of his photos (${edits.length} edits each) against their photo; ${pairs.length} pairs of his different photos`);
  const byEdit = edits.map(([name]) => {
    const scores = copyScores.filter((c) => c.edit === name).map((c) => c.score);
    return `${name} ${scores.length ? fixed(Math.min(...scores)) : '-'}`;
  });
  console.log(`  lowest per edit: ${byEdit.join(', ')}`);
  console.log(`  copies:          min ${fixed(Math.min(...copyValues))}, median ${fixed(median(copyValues))}`);
  console.log(`  different photos of the man: max ${fixed(Math.max(...pairs))}, median ${fixed(median(pairs))}; each photo's closest other: median ${fixed(median(closest))}`);
  console.log(`  ${pad('threshold', 10)} ${padLeft('copies below', 13)} ${padLeft('his different photos at or above', 33)}`);
  for (const t of COPY_THRESHOLDS) {
    console.log(`  ${pad(shown(t), 10)} ${padLeft(percent(falseNonMatches(copyValues, t), copyValues.length), 13)} ${padLeft(percent(falseMatches(pairs, t), pairs.length), 33)}`);
  }
  const copyAt = FACE_THRESHOLDS.copySimilarity;
  console.log(
    `  current copySimilarity ${copyAt}: copies caught ${falseMatches(copyValues, copyAt)} of ${copyValues.length}, his different photos taken for copies ${falseMatches(pairs, copyAt)} of ${pairs.length} (margin ${(copyAt - Math.max(...pairs)).toFixed(3)})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
