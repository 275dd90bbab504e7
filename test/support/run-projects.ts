// `npm test` (and `npm run test:jest`, the same without type-check and lint): every step of the
// run on CI's two cores, each started once the steps before it have ended, its output printed
// whole when it ends, and a table of each step's start and wall time and the total at the end.
// A step whose outcome another needs (the sites' build) skips that one when it fails; any other
// failure stops nothing, so one run reports every failure.
//
//   warm                       the twin's and the infra tests' caches (decision 034), so the twins
//                              starting side by side later do not each build them
//   typecheck, lint            needed by nothing, from the start at the usual priority: about two
//                              minutes of CPU; at the lowest priority they got none until the tests
//                              ended and became the run's last step (decision 060)
//   build                      needs nothing; only bench and e2e need it
//   unit -> workflow           one jest process at a time, beside the checks
//   integration                after unit, beside workflow (a few seconds of CPU), with two workers:
//                              its files mostly wait on the twin
//   e2e                        as soon as the build and the caches are ready, beside workflow and
//                              integration, two files at a time on its shared twin: run after
//                              integration, one at a time, its last minutes had the machine to itself
//                              while the run waited on it (decision 060)
//   bench                      once e2e has ended, beside the end of integration: the quick runs, two
//                              at a time, on one twin they share (decision 053), at the usual priority
//                              like every step that runs a twin (a twin starved of CPU lets its
//                              functions' wall-clock time-outs run out and answers 500)
//   infra                      once integration has ended, beside the benches: it needs no twin and
//                              fills the core the benches' last runs, one at a time, leave idle;
//                              beside integration and e2e it slowed both by as much as it took
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const jest = (project: string, ...args: string[]) => [bin('jest'), '--selectProjects', project, ...args];

interface Step {
  name: string;
  command: string[];
  /** Steps that must have ended first, whatever their outcome (to keep the two cores from being overrun). */
  after: string[];
  /** Steps that must have passed: without them this one cannot run and is skipped. */
  needs?: string[];
}

const CHECKS: Step[] = [
  { name: 'typecheck', command: ['npm', 'run', '-s', 'typecheck'], after: [] },
  { name: 'lint', command: ['npm', 'run', '-s', 'lint'], after: [] },
];
const JEST: Step[] = [
  { name: 'warm', command: [bin('tsx'), 'test/support/warm-caches.ts'], after: [] },
  { name: 'build', command: ['npm', 'run', '-s', 'build'], after: [] },
  // Two workers: the face-model files (most of its time) run beside the rest.
  { name: 'unit', command: jest('unit', '--maxWorkers=2'), after: [] },
  { name: 'workflow', command: jest('workflow'), after: ['unit'] },
  { name: 'integration', command: jest('integration', '--maxWorkers=2'), after: ['warm', 'unit'] },
  { name: 'bench', command: jest('bench'), after: ['warm', 'e2e'], needs: ['build'] },
  { name: 'e2e', command: jest('e2e', '--maxWorkers=2'), after: ['warm'], needs: ['build'] },
  { name: 'infra', command: jest('infra'), after: ['warm', 'integration'] },
];

type Outcome = 'passed' | 'failed' | 'skipped';
interface Result {
  outcome: Outcome;
  /** For a failed step: the failing tests and the first lines of their errors (see digest). */
  digest?: string;
  startedAt: number;
  seconds: number;
  /** CPU seconds (user + system) of the step and every process it waited for: the twin, browsers, workers. */
  cpu?: number;
}

const started = Date.now();
const clock = (ms: number) => {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
};
const at = () => `[${clock(Date.now() - started).padStart(9)}]`;

const cpuDir = fs.mkdtempSync(path.join(os.tmpdir(), 'humanly-steps-'));

/** The children's user and system time that bash's `times` printed (its second line, "1m2.5s 0m3.1s"). */
function cpuSeconds(file: string): number | undefined {
  const line = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n')[1] : undefined;
  const parts = line?.match(/(\d+)m([\d.]+)s/g)?.map((t) => {
    const [, m, s] = t.match(/(\d+)m([\d.]+)s/)!;
    return Number(m) * 60 + Number(s);
  });
  return parts?.length === 2 ? parts[0] + parts[1] : undefined;
}

/**
 * What went wrong on the step's shared twin (test/support/twin-global-setup.ts writes its log
 * there): the last error, warning and time-out lines, so a failure seen only on CI can be read.
 */
function twinTrouble(file: string): string {
  if (!fs.existsSync(file)) return '';
  // Functions' errors and warnings, time-outs, crashed workers, event deliveries that failed.
  const trouble = /"level":"(ERROR|WARN)"|timed out|time-out|worker (crashed|exited|stopped)|^delivery of .* failed/i;
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => trouble.test(l));
  if (lines.length === 0) return '';
  const last = lines.slice(-80).map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l));
  return `\n\nThe twin's last ${last.length} of ${lines.length} error, warning and time-out lines:\n${last.join('\n')}`;
}

/**
 * The failing tests of a step's output (Jest's "●" headings) with the first lines of each error,
 * or, for a step that is not jest, its last lines,
 * printed again beside the summary table: a long run's output may be cut in the middle, and the
 * end is what is always read.
 */
function digest(text: string): string {
  // eslint-disable-next-line no-control-regex
  const all = text.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  // Jest repeats every failure under this heading at the end; read them once.
  const repeat = all.findIndex((l) => l.startsWith('Summary of all failing tests'));
  const lines = repeat < 0 ? all : all.slice(0, repeat);
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (/^FAIL /.test(line)) out.push(line.trim());
    if (!/^\s*● /.test(line) || /● Console$/.test(line)) return;
    const body = lines.slice(i + 1, i + 12).filter((l) => l.trim() !== '').slice(0, 6);
    out.push(line.trim(), ...body.map((l) => `    ${l.trim().slice(0, 300)}`));
  });
  // Not a jest step (type-check, lint): its last lines say what failed.
  if (out.length === 0) return lines.filter((l) => l.trim() !== '').slice(-20).join('\n');
  return out.slice(0, 80).join('\n');
}

function run(step: Step): Promise<Result> {
  const startedAt = Date.now();
  process.stdout.write(`${at()} ${step.name} started\n`);
  // Through bash, whose `times` reports the CPU the step used, so a run shows where the cores went.
  const cpuFile = path.join(cpuDir, step.name);
  const twinLog = path.join(cpuDir, `${step.name}.twin.log`);
  const script = '"$@"; status=$?; times > "$STEP_CPU_FILE"; exit $status';
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script, 'bash', ...step.command], {
      cwd: ROOT,
      env: { ...process.env, STEP_CPU_FILE: cpuFile, TWIN_LOG_FILE: twinLog },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => output.push(c));
    child.stderr.on('data', (c: Buffer) => output.push(c));
    const done = (outcome: Outcome, note = '') => {
      const seconds = (Date.now() - startedAt) / 1000;
      const text = Buffer.concat(output).toString('utf8').trimEnd() + (outcome === 'failed' ? twinTrouble(twinLog) : '');
      process.stdout.write(`\n${'-'.repeat(20)} ${step.name}: ${outcome} in ${clock(seconds * 1000)}${note} ${'-'.repeat(20)}\n${text}${text ? '\n' : ''}\n`);
      resolve({ outcome, startedAt: startedAt - started, seconds, cpu: cpuSeconds(cpuFile), digest: outcome === 'failed' ? digest(text) : undefined });
    };
    child.on('error', (err) => done('failed', ` (${err.message})`));
    child.on('close', (code, signal) => done(code === 0 ? 'passed' : 'failed', code === 0 ? '' : ` (exit ${code ?? signal})`));
  });
}

async function main() {
  const steps = process.argv.includes('--jest-only') ? JEST : [...CHECKS, ...JEST];
  const results = new Map<string, Result>();
  const pending = new Map<string, Promise<Result>>();
  const runStep = (step: Step): Promise<Result> => {
    let p = pending.get(step.name);
    if (!p) {
      p = (async () => {
        const needs = step.needs ?? [];
        await Promise.all([...step.after, ...needs].filter((n) => steps.some((s) => s.name === n)).map((n) => runStep(steps.find((s) => s.name === n)!)));
        const missing = needs.filter((n) => results.get(n)?.outcome !== 'passed');
        const result: Result = missing.length === 0 ? await run(step) : { outcome: 'skipped', startedAt: Date.now() - started, seconds: 0 };
        if (result.outcome === 'skipped') process.stdout.write(`${at()} ${step.name} skipped: ${missing.join(', ')} did not pass\n`);
        results.set(step.name, result);
        return result;
      })();
      pending.set(step.name, p);
    }
    return p;
  };
  await Promise.all(steps.map(runStep));

  const total = Date.now() - started;
  const rows = steps.map((s) => [s.name, results.get(s.name)!] as const);
  const cpu = (r: Result) => (r.cpu === undefined ? '-' : clock(r.cpu * 1000));
  for (const [name, r] of rows) {
    if (r.digest) process.stdout.write(`\n${name} failed:\n${r.digest}\n`);
  }
  process.stdout.write(`\n${'step'.padEnd(12)} ${'started'.padStart(9)} ${'wall time'.padStart(12)} ${'CPU time'.padStart(12)}  result\n`);
  for (const [name, r] of rows) {
    process.stdout.write(`${name.padEnd(12)} ${clock(r.startedAt).padStart(9)} ${(r.outcome === 'skipped' ? '-' : clock(r.seconds * 1000)).padStart(12)} ${cpu(r).padStart(12)}  ${r.outcome}\n`);
  }
  const failed = rows.filter(([, r]) => r.outcome !== 'passed').map(([n]) => n);
  const cpuTotal = rows.reduce((sum, [, r]) => sum + (r.cpu ?? 0), 0);
  process.stdout.write(`${'total'.padEnd(12)} ${''.padStart(9)} ${clock(total).padStart(12)} ${clock(cpuTotal * 1000).padStart(12)}  ${failed.length ? `not passed: ${failed.join(', ')}` : 'passed'}\n`);
  fs.rmSync(cpuDir, { recursive: true, force: true });
  process.exitCode = failed.length ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
