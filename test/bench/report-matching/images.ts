// The images bench:report-matching works on, made in memory (no downloads, the same bytes on
// every run): "our delivered images" drawn the way the twin's Replicate emulator draws its
// outputs (infra/local/emulators/replicate/preview.ts), their copies, and other images: other
// talent's and other people's generations, the test face photos and image files that ship in
// node_modules packages. Ours and the others never share a subject.
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { previewSubject, renderPreview } from '../../../infra/local/emulators/replicate/preview';
import { assetPath, gridRegion, personSet } from '../../support/face-photos';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TALENT_DIR = path.join(ROOT, 'web', 'public', 'talent');

export interface Named {
  name: string;
  file: Buffer;
}

const STYLES = ['photorealistic', 'portrait', 'commercial', 'editorial', 'creative', 'lifestyle'];
const SCENES = [
  'a person reading in a sunlit cafe',
  'a runner crossing a bridge at dawn',
  'a chef plating a dessert in a busy kitchen',
  'a hiker resting on a mountain ridge',
  'a musician tuning a guitar backstage',
  'a teacher at a whiteboard full of equations',
];
const prompt = (k: number) => `${SCENES[k % SCENES.length]}, ${STYLES[Math.floor(k / SCENES.length) % STYLES.length]} style`;

/** A small deterministic random sequence (the same crops on every run). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A talent's pictures from the site's public folder (the preview model's subjects), by name prefix. */
const talentPictures = (prefix: string) =>
  fs
    .readdirSync(TALENT_DIR)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.svg'))
    .sort()
    .map((f) => ({ name: f.replace(/\.svg$/, ''), file: fs.readFileSync(path.join(TALENT_DIR, f)) }));

/** A face of the face-match demo's grid (many people) as a preview subject, the way a trained version's first photo is. */
async function gridFace(row: number, column: number): Promise<Named> {
  const file = await previewSubject(await sharp(assetPath('screenshot-facematch.jpg')).extract(gridRegion(row, column)).png().toBuffer());
  return { name: `face-grid-${row}-${column}`, file };
}

/** Preview outputs of a subject: `indexes` of a batch of 4, each with its own prompt. */
async function previewsOf(subject: Named | undefined, indexes: number[], promptSeed: number): Promise<Named[]> {
  const out: Named[] = [];
  for (const [k, index] of indexes.entries()) {
    const words = prompt(promptSeed + k);
    out.push({ name: `${subject?.name ?? 'neutral-figure'} #${index + 1} (${words.split(', ')[1]})`, file: await renderPreview(subject?.file, words, index, 4) });
  }
  return out;
}

/** The subjects of our images: two talents' pictures and the first three rows of the face grid's people. */
async function ourSubjects(quick: boolean): Promise<Named[]> {
  const talents = [...talentPictures('jordan-rivers'), ...talentPictures('sofia-alvarez')];
  const faces = await Promise.all(Array.from({ length: quick ? 2 : 36 }, (_, i) => gridFace(Math.floor(i / 18), i % 18)));
  return quick ? [...talents.slice(0, 2), ...faces] : [...talents, ...faces];
}

/** Our delivered images: outputs of the preview model (each subject's batch of 4, or 2 in quick mode). */
export async function ourImages(quick: boolean): Promise<Named[]> {
  const images: Named[] = [];
  for (const [s, subject] of (await ourSubjects(quick)).entries()) images.push(...(await previewsOf(subject, quick ? [s % 4] : [0, 1, 2, 3], s * 4)));
  return images;
}

export type Edit = 'JPEG q60' | '50% resize' | '10% crop' | 'all three';
export const EDITS: Edit[] = ['JPEG q60', '50% resize', '10% crop', 'all three'];

/** A tenth of the width and of the height cut off, at a random place around the image (a corner, a side or the centre, or between). */
async function cropTenth(file: Buffer, random: () => number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(file).metadata();
  const w = Math.round(width * 0.9);
  const h = Math.round(height * 0.9);
  return sharp(file)
    .extract({ left: Math.round(random() * (width - w)), top: Math.round(random() * (height - h)), width: w, height: h })
    .png()
    .toBuffer();
}

/** A copy of an image as someone else might publish it. */
export async function copyOf(file: Buffer, edit: Edit, random: () => number): Promise<Buffer> {
  const { width = 0 } = await sharp(file).metadata();
  switch (edit) {
    case 'JPEG q60':
      return sharp(file).jpeg({ quality: 60 }).toBuffer();
    case '50% resize':
      return sharp(file).resize(Math.round(width / 2)).png().toBuffer();
    case '10% crop':
      return cropTenth(file, random);
    case 'all three': {
      const cropped = await cropTenth(file, random);
      return sharp(cropped).resize(Math.round(width * 0.45)).jpeg({ quality: 60 }).toBuffer();
    }
  }
}

/**
 * Image files that ship inside node_modules packages (PNG, JPEG, WebP of at least 2 KB), sorted:
 * within four folders of node_modules, nested node_modules left out (reading all of them takes
 * longer than the rest of the bench).
 */
function packageImageFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && !e.isSymbolicLink() && depth < 4 && e.name !== 'node_modules') walk(p, depth + 1);
      else if (e.isFile() && /\.(png|jpe?g|webp)$/i.test(e.name) && fs.statSync(p).size >= 2048) found.push(p);
    }
  };
  walk(path.join(ROOT, 'node_modules'), 0);
  return found.sort();
}

/**
 * Other images, `count` of them: the preview model's outputs for another talent, for the face
 * grid's other people and for no subject; the test face photos; and the image files of
 * node_modules packages, whole and then cut in tiles (left to right, top to bottom, several tile
 * sizes) until there are enough.
 */
export async function otherImages(count: number, quick: boolean): Promise<Named[]> {
  const others: Named[] = [];
  const add = (items: Named[]) => others.push(...items.slice(0, count - others.length));
  for (const [s, subject] of talentPictures('maya-chen').entries()) if (others.length < count) add(await previewsOf(subject, quick ? [s % 4] : [0, 1, 2, 3], 100 + s * 4));
  const faces = quick ? 2 : 54;
  for (let i = 0; i < faces && others.length < count; i++) add(await previewsOf(await gridFace(3 + Math.floor(i / 18), i % 18), quick ? [i % 4] : [i % 4, (i + 2) % 4], 200 + i));
  if (others.length < count) add(await previewsOf(undefined, quick ? [0] : [0, 1, 2, 3], 300));
  if (others.length < count) add((await personSet(quick ? 2 : 40)).map((file, i) => ({ name: `face photo ${i + 1}`, file })));
  const files = packageImageFiles();
  for (const f of files) if (others.length < count) add([{ name: path.relative(ROOT, f), file: fs.readFileSync(f) }]);
  for (const tile of [512, 384, 256, 192, 128]) {
    for (const f of files) {
      if (others.length >= count) return others;
      const { width = 0, height = 0 } = await sharp(f).metadata();
      for (let top = 0; top + tile <= height && others.length < count; top += tile) {
        for (let left = 0; left + tile <= width && others.length < count; left += tile) {
          const file = await sharp(f).extract({ left, top, width: tile, height: tile }).png({ compressionLevel: 1 }).toBuffer();
          add([{ name: `${path.relative(ROOT, f)} tile ${tile} at ${left},${top}`, file }]);
        }
      }
    }
  }
  if (others.length < count) throw new Error(`only ${others.length} other images, not ${count}`);
  return others;
}
