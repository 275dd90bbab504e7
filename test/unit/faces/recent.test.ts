// The face check's memory of what it analysed lately (functions/founding/faces/recent.ts): the same
// bytes are analysed once within the time-out, a failure is tried again, and nothing outlives the
// time-out or the bound.
import { RECENT_ANALYSES, recentAnalyses } from '../../../functions/founding/faces/recent';
import type { PhotoAnalysis } from '../../../functions/founding/faces';

const analysisOf = (bytes: Uint8Array): PhotoAnalysis => ({
  width: bytes.length,
  height: 1,
  faceCount: 1,
  face: null,
  brightness: bytes[0] ?? 0,
  hash: Buffer.from(bytes).toString('hex'),
  mirroredHash: '',
});

function counted() {
  const calls: string[] = [];
  let clock = 1_000_000;
  const analyze = recentAnalyses(
    async (bytes) => {
      calls.push(Buffer.from(bytes).toString('hex'));
      return analysisOf(bytes);
    },
    () => clock,
  );
  return { analyze, calls, advance: (ms: number) => (clock += ms) };
}

const photo = (n: number) => Uint8Array.from([n, n + 1, n + 2]);

it('analyses the same bytes once, other bytes each, and gives each caller its own copy', async () => {
  const { analyze, calls } = counted();
  const [a, b] = await Promise.all([analyze(photo(1)), analyze(photo(1))]);
  expect(calls).toEqual(['010203']);
  expect(a).toEqual(analysisOf(photo(1)));
  expect(a).not.toBe(b);
  a.brightness = 99;
  expect((await analyze(Uint8Array.from([1, 2, 3]))).brightness).toBe(1);
  await analyze(photo(2));
  expect(calls).toEqual(['010203', '020304']);
});

it('analyses again once the time-out has passed', async () => {
  const { analyze, calls, advance } = counted();
  await analyze(photo(1));
  advance(RECENT_ANALYSES.ttlMs - 1);
  await analyze(photo(1));
  expect(calls).toHaveLength(1);
  advance(1);
  await analyze(photo(1));
  expect(calls).toHaveLength(2);
});

it('keeps no failure: the next call analyses again', async () => {
  let fail = true;
  const calls: number[] = [];
  const analyze = recentAnalyses(async (bytes) => {
    calls.push(bytes[0]);
    if (fail) throw new Error('model failed');
    return analysisOf(bytes);
  });
  await expect(analyze(photo(5))).rejects.toThrow('model failed');
  fail = false;
  await expect(analyze(photo(5))).resolves.toEqual(analysisOf(photo(5)));
  expect(calls).toEqual([5, 5]);
});

it(`keeps at most ${RECENT_ANALYSES.max}, dropping the oldest first`, async () => {
  const { analyze, calls } = counted();
  for (let i = 0; i <= RECENT_ANALYSES.max; i++) await analyze(Uint8Array.from([i % 256, Math.floor(i / 256)]));
  expect(calls).toHaveLength(RECENT_ANALYSES.max + 1);
  // The newest is still kept; the first was dropped.
  await analyze(Uint8Array.from([RECENT_ANALYSES.max % 256, Math.floor(RECENT_ANALYSES.max / 256)]));
  expect(calls).toHaveLength(RECENT_ANALYSES.max + 1);
  await analyze(Uint8Array.from([0, 0]));
  expect(calls).toHaveLength(RECENT_ANALYSES.max + 2);
});
