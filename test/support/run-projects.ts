// `npm test` (and `npm run test:jest`, the same without type-check and lint): every step of the
// run on CI's two cores, each started once the steps before it have ended, its output printed
// whole when it ends, and a table of each step's start and wall time and the total at the end.
// A step whose outcome another needs (the sites' build) skips that one when it fails; any other
// failure stops nothing, so one run reports every failure.
//
//   warm                       the twin's and the infra tests' caches (decision 034), so the twins
//                              starting side by side later do not each build them
//   typecheck, lint, build     need nothing; only bench and e2e need the build
//   unit -> workflow -> infra  one jest process at a time, beside the checks
//   integration                once warm, with two workers: its files mostly wait on the twin, so
//                              it fills the cores' idle moments beside the checks and unit tests
//   bench                      once the sites are built: the quick runs, at the lowest CPU priority
//   e2e 1/2, e2e 2/2           after integration: the browser files in two halves of about equal
//                              length, each half one file at a time in a jest process with its own
//                              shared twin, so files that read the library and the console's counts
//                              never run beside another file of the same twin
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const jest = (project: string, ...args: string[]) => [bin('jest'), ...args, '--selectProjects', project];

interface Step {
  name: string;
  /** The command, or a function giving it when the step starts. */
  command: string[] | (() => Promise<string[]>);
  /** Steps that must have ended first, whatever their outcome (to keep the two cores from being overrun). */
  after: string[];
  /** Steps that must have passed: without them this one cannot run and is skipped. */
  needs?: string[];
  /** Run at the lowest CPU priority. */
  nice?: boolean;
}

const CHECKS: Step[] = [
  { name: 'typecheck', command: ['npm', 'run', '-s', 'typecheck'], after: [] },
  { name: 'lint', command: ['npm', 'run', '-s', 'lint'], after: [] },
];
const JEST: Step[] = [
  { name: 'warm', command: [bin('tsx'), 'test/support/warm-caches.ts'], after: [] },
  { name: 'build', command: ['npm', 'run', '-s', 'build'], after: [] },
  { name: 'unit', command: jest('unit'), after: [] },
  { name: 'workflow', command: jest('workflow'), after: ['unit'] },
  { name: 'infra', command: jest('infra'), after: ['warm', 'workflow'] },
  { name: 'integration', command: jest('integration', '--maxWorkers=2'), after: ['warm'] },
  { name: 'bench', command: jest('bench'), after: ['warm'], needs: ['build'], nice: true },
  { name: 'e2e 1/2', command: () => e2eHalf(0), after: ['integration'], needs: ['build'] },
  { name: 'e2e 2/2', command: () => e2eHalf(1), after: ['integration'], needs: ['build'] },
];

/**
 * Seconds each browser file took in a CI run, to split them into halves of about equal length
 * (a file not listed counts 20 s). Only the balance depends on them: any split is correct, as
 * each half has its own twin.
 */
const E2E_SECONDS: Record<string, number> = {
  'site-links-and-a11y': 100,
  'site-routes': 69,
  'founding-application': 60,
  waitlist: 49,
  accounts: 45,
  'review-console': 40,
  admin: 39,
  'admin-statements': 27,
};

let e2eHalves: Promise<string[][]> | undefined;
/** The browser test files of one half: the longest first, each to the half with less so far. */
async function e2eHalf(half: number): Promise<string[]> {
  e2eHalves ??= (async () => {
    const listed = await output([bin('jest'), '--selectProjects', 'e2e', '--listTests', '--json']);
    const files = (JSON.parse(listed) as string[]).map((f) => path.relative(ROOT, f));
    const seconds = (f: string) => E2E_SECONDS[path.basename(f, '.test.ts')] ?? 20;
    const halves: Array<{ files: string[]; seconds: number }> = [{ files: [], seconds: 0 }, { files: [], seconds: 0 }];
    for (const f of files.sort((a, b) => seconds(b) - seconds(a))) {
      const lighter = halves[0].seconds <= halves[1].seconds ? halves[0] : halves[1];
      lighter.files.push(f);
      lighter.seconds += seconds(f);
    }
    return halves.map((h) => h.files);
  })();
  return jest('e2e', '--runTestsByPath', ...(await e2eHalves)[half]);
}

/** A command's standard output. */
function output(command: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${command.join(' ')} exited with ${code}`))));
  });
}

type Outcome = 'passed' | 'failed' | 'skipped';
interface Result {
  outcome: Outcome;
  startedAt: number;
  seconds: number;
}

const started = Date.now();
const clock = (ms: number) => {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
};
const at = () => `[${clock(Date.now() - started).padStart(9)}]`;

async function run(step: Step): Promise<Result> {
  const startedAt = Date.now();
  process.stdout.write(`${at()} ${step.name} started\n`);
  let stepCommand: string[];
  try {
    stepCommand = typeof step.command === 'function' ? await step.command() : step.command;
  } catch (err) {
    process.stdout.write(`\n${step.name}: failed (${(err as Error).message})\n`);
    return { outcome: 'failed', startedAt: startedAt - started, seconds: (Date.now() - startedAt) / 1000 };
  }
  const [command, ...args] = step.nice ? ['nice', '-n', '19', ...stepCommand] : stepCommand;
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => output.push(c));
    child.stderr.on('data', (c: Buffer) => output.push(c));
    const done = (outcome: Outcome, note = '') => {
      const seconds = (Date.now() - startedAt) / 1000;
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      process.stdout.write(`\n${'-'.repeat(20)} ${step.name}: ${outcome} in ${clock(seconds * 1000)}${note} ${'-'.repeat(20)}\n${text}${text ? '\n' : ''}\n`);
      resolve({ outcome, startedAt: startedAt - started, seconds });
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
  process.stdout.write(`\n${'step'.padEnd(12)} ${'started'.padStart(9)} ${'wall time'.padStart(12)}  result\n`);
  for (const [name, r] of rows) {
    process.stdout.write(`${name.padEnd(12)} ${clock(r.startedAt).padStart(9)} ${(r.outcome === 'skipped' ? '-' : clock(r.seconds * 1000)).padStart(12)}  ${r.outcome}\n`);
  }
  const failed = rows.filter(([, r]) => r.outcome !== 'passed').map(([n]) => n);
  process.stdout.write(`${'total'.padEnd(12)} ${''.padStart(9)} ${clock(total).padStart(12)}  ${failed.length ? `not passed: ${failed.join(', ')}` : 'passed'}\n`);
  process.exitCode = failed.length ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
