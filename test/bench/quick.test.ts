import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { shareTwin } from '../support/twin-global-setup';
import { QUICK_BENCH_TWIN } from './twin';

/**
 * Each bench in quick mode (tiny sizes, the same code paths as a full run), so a bench that
 * breaks fails CI instead of rotting until someone runs it. Full runs stay manual: their
 * figures mean something only on a quiet machine.
 *
 * The quick runs share one twin, started here and handed to each bench's process (test/bench/twin.ts):
 * a twin's start is most of a quick run's time. Each bench uses data of its own on it.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

type QuickResult = { code: number | null; output: string };

/** Runs a bench script (`test/bench/<script>`) with --quick; resolves however it ends. */
function runQuick(script: string): Promise<QuickResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSX, path.join(ROOT, 'test', 'bench', script), '--quick'], { cwd: ROOT, env: process.env });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', (err) => resolve({ code: null, output: `${output}\n${err.message}` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The quick runs, longest first. Two run side by side: most of a bench's time is waiting for the
 * twin's answers, and one at a time left a core idle for minutes. A bench that reads the twin's
 * meters and waits for the whole twin to be at rest (`alone`) runs with no other beside it.
 */
const QUICK_RUNS: Array<{ bench: string; alone?: boolean }> = [
  { bench: 'farming' },
  { bench: 'waitlist' },
  { bench: 'site' },
  { bench: 'upload' },
  { bench: 'bots/waitlist.ts' },
  { bench: 'bots/upload-urls.ts' },
  { bench: 'payments' },
  { bench: 'face-thresholds.ts' },
  { bench: 'report-matching' },
  { bench: 'burst' },
  { bench: 'cold' },
  { bench: 'generation', alone: true },
  { bench: 'cost', alone: true },
];
const SIDE_BY_SIDE = 2;

/** Starts every quick run, at most SIDE_BY_SIDE at once and each `alone` one by itself: each bench's result. */
function startQuickRuns(): Map<string, Promise<QuickResult>> {
  const waiting = [...QUICK_RUNS];
  const running = new Set<(typeof QUICK_RUNS)[number]>();
  const ends = new Map<string, (r: QuickResult) => void>();
  const results = new Map(QUICK_RUNS.map(({ bench }) => [bench, new Promise<QuickResult>((resolve) => ends.set(bench, resolve))]));
  const next = () => {
    while (running.size < SIDE_BY_SIDE && ![...running].some((r) => r.alone)) {
      const i = waiting.findIndex((r) => !r.alone || running.size === 0);
      if (i < 0) return;
      const [run] = waiting.splice(i, 1);
      running.add(run);
      void runQuick(run.bench.endsWith('.ts') ? run.bench : `${run.bench}/index.ts`).then((result) => {
        running.delete(run);
        ends.get(run.bench)!(result);
        next();
      });
    }
  };
  next();
  return results;
}

let quickRuns: Map<string, Promise<QuickResult>> | undefined;

/** Waits for the quick run of `test/bench/<bench>/index.ts` (or the script `<bench>.ts` names) and expects each figure in its output. */
async function expectQuickRun(bench: string, figures: RegExp[]): Promise<void> {
  const run = quickRuns?.get(bench);
  if (!run) throw new Error(`bench:${bench} is not in QUICK_RUNS, or the shared twin did not start`);
  const { code, output } = await run;
  // The bench's own output is the useful message when it breaks.
  if (code !== 0) throw new Error(`bench:${bench} --quick exited with ${code}:\n${output}`);
  for (const figure of figures) expect(output).toMatch(figure);
}

const MINUTES = 60_000;

let stopTwin: (() => Promise<void>) | undefined;
beforeAll(async () => {
  stopTwin = await shareTwin(QUICK_BENCH_TWIN);
  quickRuns = startQuickRuns();
}, 8 * MINUTES);
afterAll(async () => {
  // Every run has ended (a failed test leaves its bench's process running otherwise) before the twin stops.
  await Promise.all(quickRuns?.values() ?? []);
  await stopTwin?.();
}, 8 * MINUTES);

describe('benches in quick mode', () => {
  it('bench:waitlist signs up through the twin', async () => {
    await expectQuickRun('waitlist', [/POST \/early-signup\s+\d+ \/s .*\(0 failed\)/]);
  }, 8 * MINUTES);

  it('bench:cold sizes every bundle within its budget and cold-imports a few beside an empty module', async () => {
    // The bench itself fails when a bundle is over its budget (test/bench/cold/budgets.json).
    await expectQuickRun('cold', [
      /console\/routes\/get-admin-stats\s+[\d.]+ KB\s+\d+ KB\s+(-|[\d.]+ ms)\s+\d+ ms/,
      /empty module: [\d.]+ ms in this run, [\d.]+ ms on the reference machine: import budgets scaled by [\d.]+/,
      /bundles: (\d+), median [\d.]+ KB, largest [\d.]+ KB; within their size budget \1 of \1/,
      /cold imports: 2 measured, median [\d.]+ ms/,
    ]);
  }, 8 * MINUTES);

  it('bench:upload uploads through presigned URLs and validates every photo', async () => {
    await expectQuickRun('upload', [/ratio presigned\/raw: [\d.]+/, /accepted 3, refused 0/]);
  }, 8 * MINUTES);

  it('bench:cost prints the unit economics per credit, meters a waitlist signup and a founding application on an instrumented twin and prices them', async () => {
    await expectQuickRun('cost', [
      /Starter plan, a month\s+\$35\.00\s+80\s+\$0\.4375\s+\$0\.0195\s+\$0\.0250\s+\$0\.0875 \/ \$0\.3055/,
      /Enterprise pack of 500\s+\$150\.00\s+500\s/,
      /royalty\/margin at founding 35%/,
      /waitlist signups: sample of \d+/,
      /founding applications \(40 photos\): sample of \d+/,
      /Lambda GB-seconds \(twin wall time\)\s+[\d,.]+\s+\$[\d.]+/,
      /DynamoDB write units\s+[1-9][\d,]*/,
      /SES emails\s+[1-9][\d,]*/,
      /Step Functions state transitions\s+[1-9][\d,]*/,
      /total\s+\$[\d.]+/,
    ]);
  }, 8 * MINUTES);

  it('the upload-URL bot is stopped by the per-session, per-address and per-network caps while a real applicant is not', async () => {
    await expectQuickRun('bots/upload-urls.ts', [
      /URLs requested 1,000, issued ([0-9]|[1-9][0-9]|[1-3][0-9][0-9]|400), refused/,
      /per network \(400 an hour\)\s+[1-9]/,
      /Real applicant \(another network, at the same time\): every step answered 200/,
      /POST \/founding-confirm\s+200/,
    ]);
  }, 8 * MINUTES);

  it('the waitlist bot takes no place while a real person on another network confirms and sees their place', async () => {
    await expectQuickRun('bots/waitlist.ts', [
      /places taken by the bot: 0 of 200/,
      /many addresses from one network .* refused: \d+ per network \(10 an hour\)/,
      /guessed confirmation tokens .* 0 answered 200/,
      /Real person on another network: signup 200 .* confirmation 200 .* place #\d+/,
    ]);
  }, 8 * MINUTES);

  it('the farming bot gets no more accounts from one network than the WAF allows, while a real person on another network gets through', async () => {
    await expectQuickRun('farming', [
      /one network: \d+ sign-ups, \d+ accounts created, [1-9]\d* blocked by the WAF/,
      /2 networks: 2 sign-ups, 2 accounts created, 0 blocked by the WAF/,
      /accounts created: [1-9]\d*, images generated: \d+/,
      /royalties the talent earned from them: \$\d+\.\d\d on \d+ licenses/,
      /Real person on another network: signed up, confirmed and signed in/,
    ]);
  }, 8 * MINUTES);

  it('bench:generation measures webhook and polling delivery on an instrumented twin, within 12 state transitions a generation', async () => {
    // The bench itself fails when a generation fails or the happy path takes more than 12 transitions.
    await expectQuickRun('generation', [
      /by webhook\s+[\d.]+ s/,
      /by polling alone\s+[\d.]+ s/,
      /ratio polling\/webhook: [\d.]+/,
      /state transitions per generation \(happy path\): [\d.]+/,
      /Lambda invocations per generation \(happy path\): [1-9][\d.]*/,
      /without Content Credentials \(PNG \+ XMP\)\s+p50 [\d.]+ ms\s+p95 [\d.]+ ms/,
      /with Content Credentials \(signed, KMS\)\s+p50 [\d.]+ ms\s+p95 [\d.]+ ms/,
      /signing added per image: p50 [\d.]+ ms, p95 [\d.]+ ms/,
    ]);
  }, 8 * MINUTES);

  it('bench:payments pays checkouts, packs and renewals through the Stripe emulator, the webhook answering no 500 and each account holding what it paid for', async () => {
    // The bench itself fails when a payment's credits never show in GET /me or an account holds other credits than it paid for.
    const phases = ['at once', 'twice, reversed', 'renewals'];
    await expectQuickRun('payments', [
      ...phases.map((p) => new RegExp(`${p}\\s+webhook answers >= 500: 0 of [1-9][\\d,]* answers`)),
      ...phases.map((p) => new RegExp(`${p}\\s+payment -> credits in GET /me p50 [\\d.]+ s, p95 [\\d.]+ s`)),
      ...phases.map((p) => new RegExp(`${p}\\s+ratio to a GET /me round trip \\(p50 [\\d.]+ ms\\): p50 [\\d.]+, p95 [\\d.]+`)),
      ...phases.map((p) => new RegExp(`${p}\\s+accounts holding exactly the credits paid for: (\\d+) of \\1`)),
    ]);
  }, 8 * MINUTES);

  it('bench:face-thresholds prints the false-match and false-non-match rates of one pair, of the selfie rule and of copies, no impostor passing the current thresholds', async () => {
    // The bench itself fails when an impostor passes the selfie rule at the current FACE_THRESHOLDS.
    const rateRows = '(\\s+0\\.\\d+\\s+\\d+\\.\\d%\\s+\\d+\\.\\d%\\n){8,}';
    await expectQuickRun('face-thresholds.ts', [
      /photos analysed \d+: the man [1-9]\d*, other people [1-9]\d*/,
      /One pair: same-person pairs [1-9]\d* .*different-person pairs [1-9]\d*/,
      new RegExp(`threshold\\s+false match\\s+false non-match\\n${rateRows}`),
      ...[1, 3, 5].map((k) => new RegExp(`k=${k}: n=\\d+ own [1-9]\\d* / impostor [1-9]\\d* trials\\n.*\\n\\s+threshold\\s+n=\\d+ FMR\\s+FNMR\\n${rateRows}`)),
      /current selfieMatch [\d.]+ with selfieBestOf \d+, sets of \d+: impostors passing 0 of [1-9]/,
      new RegExp(`threshold\\s+copies below\\s+his different photos at or above\\n${rateRows}`),
      /current copySimilarity [\d.]+: copies caught \d+ of [1-9]\d*, his different photos taken for copies 0 of [1-9]/,
    ]);
  }, 8 * MINUTES);

  it('bench:report-matching finds every copy of our images through the index and takes no other image for ours', async () => {
    // The bench itself fails when a copy is missed or another image is taken for ours.
    await expectQuickRun('report-matching', [
      ...['JPEG q60', '50% resize', '10% crop', 'all three'].map((edit) => new RegExp(`${edit}\\s+found (\\d+) of \\1\\s+largest distance [\\d.]+`)),
      /Other images \d+ \(each looked up through the index\): false matches 0/,
      /threshold [\d.]+: copies found (\d+) of \1 .*other images taken for ours 0 of [1-9]\d*/,
    ]);
  }, 8 * MINUTES);

  it('bench:burst starts a burst of generations from heavy and light clients under the creation limit, losing none', async () => {
    // The bench itself fails when a generation is lost.
    await expectQuickRun('burst', [
      /generations lost: 0 of 20/,
      /most creations in any 60 s: \d+ \(limit 600\)/,
      /429s answered by the emulator: \d+/,
      /heavy clients\s+p50 [\d.]+ s\s+p95 [\d.]+ s/,
      /light clients\s+p50 [\d.]+ s\s+p95 [\d.]+ s/,
      /Jain's fairness index over 5 clients .*: [01]\.\d{3}/,
    ]);
  }, 8 * MINUTES);

  it('bench:site runs Lighthouse on one route and sizes the JavaScript of every prerendered route', async () => {
    await expectQuickRun('site', [/run 1\/1 \/\s+score \d+/, /Gzipped JavaScript each prerendered page/, /\/founding-talent-application\s+[\d.]+ KB/]);
  }, 8 * MINUTES);
});
