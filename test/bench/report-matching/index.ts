/**
 * Matching reported images with our delivered images (decision 059): whether copies of our
 * images are found, and whether other images are taken for ours.
 *
 * Our delivered images are drawn the way the twin's Replicate emulator draws its outputs (two
 * talents' pictures and the face grid's first two rows of people as subjects, batches of four),
 * indexed by `indexKeys` in a map that stands in for the DynamoDB index. Each gets four copies:
 * JPEG quality 60, a 50% resize, a 10% crop (a tenth of the width and of the height cut, at a
 * random place) and all three at once; a copy is found when a lookup of its `candidateKeys`
 * reaches its image and `compare` says same. Then 1,000 other images (another talent's and the
 * face grid's other people's generations, the neutral figure, the test face photos, and the image
 * files of node_modules packages, whole and in tiles) look the same way: any image of ours they
 * are taken for is a false match.
 *
 *   npm run bench:report-matching               (180 images of ours, 720 copies, 1,000 others: about two minutes of CPU)
 *   npm run bench:report-matching -- --quick    (4 of ours, 16 copies, 20 others; CI runs it)
 *
 * Exits non-zero when a copy is not found or another image is taken for ours.
 */
import { performance } from 'node:perf_hooks';
import {
  CANDIDATE_BITS,
  candidateKeys,
  compare,
  fingerprintImage,
  indexKeys,
  MATCH_THRESHOLD,
  perceptualDistance,
  type Comparison,
  type Fingerprint,
} from '../../../functions/reports/matching';
import { copyOf, EDITS, type Edit, otherImages, ourImages, seeded } from './images';

const QUICK = process.argv.includes('--quick');
const OTHERS = QUICK ? 20 : 1000;

const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
/** CPU time of this process so far (user and system), the figure to read on a shared machine. */
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return ((user + system) / 1e6).toFixed(1);
};
const fixed = (n: number) => n.toFixed(4);

interface Indexed {
  name: string;
  fp: Fingerprint;
}

/** The stand-in for the DynamoDB index: key -> our images indexed under it. */
function buildIndex(ours: Indexed[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  ours.forEach((image, i) => {
    for (const key of indexKeys(image.fp)) {
      const list = index.get(key) ?? [];
      list.push(i);
      index.set(key, list);
    }
  });
  return index;
}

/** Our images a reported fingerprint reaches through the index, each compared with it. */
function lookUp(index: Map<string, number[]>, ours: Indexed[], reported: Fingerprint): { image: number; comparison: Comparison }[] {
  const candidates = new Set(candidateKeys(reported).flatMap((key) => index.get(key) ?? []));
  return [...candidates].map((image) => ({ image, comparison: compare(reported, ours[image].fp) }));
}

async function main() {
  console.log(`Report matching${QUICK ? ' (quick)' : ''}: candidates within ${CANDIDATE_BITS} bits, same at distance <= ${MATCH_THRESHOLD}`);
  const drawn = await ourImages(QUICK);
  const ours: Indexed[] = [];
  for (const image of drawn) ours.push({ name: image.name, fp: await fingerprintImage(image.file) });
  const index = buildIndex(ours);
  const keysPerImage = ours.map((o) => indexKeys(o.fp).length);
  console.log(
    `our images ${ours.length}, index keys ${index.size} (per image: mean ${(keysPerImage.reduce((a, b) => a + b, 0) / ours.length).toFixed(1)}, max ${Math.max(...keysPerImage)}); lookup keys per report ${candidateKeys(ours[0].fp).length}  [${seconds()} s, CPU ${cpuSeconds()} s]`,
  );

  // Copies of each of our images.
  const random = seeded(35);
  const byEdit = new Map<Edit, { found: number; total: number; distances: number[]; bits: number[]; candidates: number[] }>();
  const missed: string[] = [];
  for (const [i, image] of drawn.entries()) {
    for (const edit of EDITS) {
      const copy = await fingerprintImage(await copyOf(image.file, edit, random));
      const results = lookUp(index, ours, copy);
      const own = results.find((r) => r.image === i);
      const row = byEdit.get(edit) ?? { found: 0, total: 0, distances: [], bits: [], candidates: [] };
      row.total++;
      row.candidates.push(results.length);
      // The distance to its image whether or not the index reached it (the figure the threshold is read against).
      const direct = own?.comparison ?? compare(copy, ours[i].fp);
      row.distances.push(direct.distance);
      row.bits.push(perceptualDistance(copy, ours[i].fp));
      if (own?.comparison.same) row.found++;
      else missed.push(`${edit} of ${image.name}: ${own ? `distance ${fixed(direct.distance)}, ${direct.bits} bits` : `not reached by the index (${direct.bits} bits)`}`);
      byEdit.set(edit, row);
    }
  }
  console.log('');
  console.log(`Copies of our images (each looked up through the index):`);
  for (const [edit, row] of byEdit) {
    console.log(
      `  ${edit.padEnd(11)} found ${row.found} of ${row.total}   largest distance ${fixed(Math.max(...row.distances))}, hash bits max ${Math.max(...row.bits)}, candidates per lookup max ${Math.max(...row.candidates)}`,
    );
  }
  const copies = [...byEdit.values()];
  const found = copies.reduce((a, r) => a + r.found, 0);
  const total = copies.reduce((a, r) => a + r.total, 0);
  const largestCopy = Math.max(...copies.flatMap((r) => r.distances));
  console.log(`  copies found ${found} of ${total}; largest distance of a copy to its image ${fixed(largestCopy)}  [${seconds()} s, CPU ${cpuSeconds()} s]`);
  for (const m of missed.slice(0, 10)) console.log(`  MISSED ${m}`);

  // Other images.
  const others = await otherImages(OTHERS, QUICK);
  let falseMatches = 0;
  let compared = 0;
  let fewestBits = Infinity;
  let closest: { distance: number; other: string; ours: string; bits: number } | undefined;
  const falseNames: string[] = [];
  for (const other of others) {
    const fp = await fingerprintImage(other.file);
    for (const o of ours) fewestBits = Math.min(fewestBits, perceptualDistance(fp, o.fp));
    const results = lookUp(index, ours, fp);
    compared += results.length;
    for (const { image, comparison } of results) {
      if (!closest || comparison.distance < closest.distance) closest = { distance: comparison.distance, other: other.name, ours: ours[image].name, bits: comparison.bits };
      if (comparison.same) {
        falseMatches++;
        falseNames.push(`${other.name} taken for ${ours[image].name} (distance ${fixed(comparison.distance)})`);
      }
    }
  }
  console.log('');
  console.log(`Other images ${others.length} (each looked up through the index): false matches ${falseMatches}`);
  console.log(`  candidates the index returned and compare checked: ${compared}; fewest hash bits to any of our images (all pairs): ${fewestBits}`);
  if (closest) console.log(`  closest distance seen ${fixed(closest.distance)} (${closest.bits} bits): ${closest.other} ~ ${closest.ours}`);
  else console.log('  closest distance seen: none (the index returned no candidate)');
  for (const f of falseNames.slice(0, 10)) console.log(`  FALSE MATCH ${f}`);
  console.log('');
  console.log(
    `threshold ${MATCH_THRESHOLD}: copies found ${found} of ${total} (largest ${fixed(largestCopy)}), other images taken for ours ${falseMatches} of ${others.length} (closest ${closest ? fixed(closest.distance) : 'none'})`,
  );
  console.log(`done in ${seconds()} s (CPU ${cpuSeconds()} s)`);
  if (found < total || falseMatches > 0) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
