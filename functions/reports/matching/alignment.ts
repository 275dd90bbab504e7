// Verifying a close pair (decision 059): the reported image's thumbnail against the part of the
// delivered image's thumbnail it lines up with best. Two different pictures can share a layout
// (and so a perceptual hash within a few bits: the same banner, frame and pose); lined up, their
// colours still differ where a copy's do not.
import { PARTS } from './parts';
import { averageDown, type Grey, type Part, WHOLE } from './perceptual-hash';

/** The side of the RGB thumbnail a fingerprint keeps. */
export const THUMBNAIL_SIDE = 48;
/** The side both images are averaged down to before they are correlated. */
const COMPARED_SIDE = 16;
/** The smallest fraction of the delivered image's side a reported copy may have kept. */
const SMALLEST_PART = 0.8;
/** The steps the alignment moves by, in thumbnail pixels, coarse to fine. */
const STEPS = [1, 0.5];
const MOVES: readonly (readonly [number, number, number, number])[] = [
  [1, 0, 0, 0], [-1, 0, 0, 0], [0, 1, 0, 0], [0, -1, 0, 0],
  [0, 0, 1, 0], [0, 0, -1, 0], [0, 0, 0, 1], [0, 0, 0, -1],
  [0, 0, 1, 1], [0, 0, -1, -1],
];

/** The three colour planes of a thumbnail (base64 RGB, THUMBNAIL_SIDE square). */
function planes(thumbnail: string): Grey[] {
  const rgb = Buffer.from(thumbnail, 'base64');
  const side = THUMBNAIL_SIDE;
  if (rgb.length !== side * side * 3) throw new Error('a thumbnail of another size');
  return [0, 1, 2].map((c) => {
    const data = new Uint8Array(side * side);
    for (let i = 0; i < data.length; i++) data[i] = rgb[i * 3 + c];
    return { data, width: side, height: side };
  });
}

/** The part averaged down to COMPARED_SIDE, each plane less its mean, the whole scaled to length 1. */
function vectorOf(image: Grey[], part: Part): Float64Array {
  const n = COMPARED_SIDE * COMPARED_SIDE;
  const v = new Float64Array(3 * n);
  image.forEach((plane, c) => {
    const values = averageDown(plane, part, COMPARED_SIDE);
    let mean = 0;
    for (const x of values) mean += x;
    mean /= n;
    for (let i = 0; i < n; i++) v[c * n + i] = values[i] - mean;
  });
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

const inside = (p: Part) =>
  p.left >= 0 && p.top >= 0 && p.width >= SMALLEST_PART && p.height >= SMALLEST_PART && p.left + p.width <= 1 + 1e-9 && p.top + p.height <= 1 + 1e-9;

/**
 * How alike the reported image is to the part of the delivered image it lines up with best: the
 * correlation (1 the same, 0 unrelated) of their colours, after a search from the whole and each
 * of PARTS (the two best starts), moving the part's edges by STEPS while the correlation grows.
 */
export function alignedSimilarity(reportedThumbnail: string, deliveredThumbnail: string): number {
  const reported = vectorOf(planes(reportedThumbnail), WHOLE);
  const delivered = planes(deliveredThumbnail);
  const score = (part: Part) => dot(reported, vectorOf(delivered, part));
  const starts = [WHOLE, ...PARTS].map((part) => ({ part, score: score(part) })).sort((a, b) => b.score - a.score);
  let best = starts[0].score;
  for (const start of starts.slice(0, 2)) {
    let { part, score: current } = start;
    for (const step of STEPS.map((s) => s / THUMBNAIL_SIDE)) {
      for (let moved = true, rounds = 0; moved && rounds < 20; rounds++) {
        moved = false;
        for (const [dl, dt, dw, dh] of MOVES) {
          const next = { left: part.left + dl * step, top: part.top + dt * step, width: part.width + dw * step, height: part.height + dh * step };
          if (!inside(next)) continue;
          const s = score(next);
          if (s > current + 1e-9) {
            current = s;
            part = next;
            moved = true;
          }
        }
      }
    }
    best = Math.max(best, current);
  }
  return best;
}
