/**
 * Cold-start benchmark: each Lambda bundle's minified size and the median CPU time to import it in a
 * fresh Node process with the environment the twin gives that function, beside an empty module
 * imported the same way in the same run, against each function's budget (budgets.json,
 * decision 064).
 *
 *   npm run bench:cold [-- --import-runs 5]
 *   npm run bench:cold -- --quick    (every bundle's size, a few cold imports; fails when a bundle
 *                                     is over its budget: CI runs it)
 *
 * Sizes are deterministic, so a bundle over its budget fails every run. Cold imports are noisy on a
 * shared machine: each function's budget in ms is scaled by the empty module's median in this run
 * over its median on the reference machine, and an import over its budget is flagged, not failed.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../../../infra/lib/platform/app-function';
import { bundlePaths } from '../../../infra/local/bundle-cache';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { templateFunctions, type LocalFunction } from '../../../infra/local/functions';
import { Resolver, synthTemplate, type CfnTemplate } from '../../../infra/local/template';
import { coldImportBudget, readBudgets, type Budgets } from './budgets';

const QUICK = process.argv.includes('--quick');
const arg = (name: string, fallback: number, quick: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : QUICK ? quick : fallback;
};
const IMPORT_RUNS = arg('import-runs', 5, 3);
/** A quick run imports this many functions: the largest bundle, and the one at the median size. */
const QUICK_IMPORTS = 2;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The context the twin's caches are warmed with before a test run (`warmTwinCaches({ fast: true })`
 * in infra/local/twin.ts; its ports are stand-ins in the synthesis cache), so in CI the template
 * and every bundle come from the caches and the bench builds nothing.
 */
const TWIN_CONTEXT = {
  stage: 'local',
  siteUrl: 'http://127.0.0.1:1',
  siteOrigins: ['http://127.0.0.1:1', 'http://127.0.0.1:2'],
  removalNoticeSeconds: 5,
};
/** Where the twin points each SDK client and third-party API (infra/local/twin.ts); nothing listens here. */
const ENDPOINT = 'http://127.0.0.1:9';

/**
 * The environment the twin gives a function's worker (infra/local/twin.ts, infra/local/functions.ts):
 * the SDK's region, credentials and endpoints, the template's variables, the emulators' addresses
 * and the function's name and memory. What only exists once deployed has a stand-in (a resource's
 * name is its logical id, an attribute a plausible ARN or host name), so a function that gains a
 * variable is measured with it and the bench cannot go stale.
 */
function twinEnvironment(template: CfnTemplate, fn: LocalFunction): Record<string, string> {
  const resolver = new Resolver(template);
  for (const id of Object.keys(template.Resources)) {
    const attrs = new Proxy({} as Record<string, string>, {
      get: (_, attr) => (String(attr).endsWith('DomainName') ? `${id.toLowerCase()}.bench.example` : `arn:aws:bench:${TWIN_REGION}:000000000000:${id}`),
    });
    resolver.set(id, { ref: id, attrs });
  }
  const endpoints = ['DYNAMODB', 'S3', 'SESV2', 'SES', 'COGNITO_IDENTITY_PROVIDER', 'EVENTBRIDGE', 'SFN', 'LAMBDA', 'SECRETS_MANAGER', 'KMS'];
  return {
    PATH: process.env.PATH ?? '',
    AWS_REGION: TWIN_REGION,
    AWS_DEFAULT_REGION: TWIN_REGION,
    AWS_ACCESS_KEY_ID: TWIN_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: TWIN_CREDENTIALS.secretAccessKey,
    ...Object.fromEntries(endpoints.map((s) => [`AWS_ENDPOINT_URL_${s}`, ENDPOINT])),
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    ...resolver.resolve(template.Resources[fn.logicalId].Properties?.Environment?.Variables ?? {}),
    REPLICATE_API_URL: `${ENDPOINT}/v1`,
    STRIPE_API_URL: ENDPOINT,
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
  };
}

/**
 * One cold import: a new Node process requires the file and reports the CPU time (user and
 * system) and the wall time the require took, measured inside that process. The CPU time is the
 * figure budgeted: on a shared machine the wall time is mostly the neighbours' load.
 */
function coldImport(file: string, env: Record<string, string>): { cpuMs: number; wallMs: number } {
  const script = `const c=process.cpuUsage(),t=process.hrtime.bigint();require(${JSON.stringify(file)});const u=process.cpuUsage(c);process.stdout.write(JSON.stringify({cpuMs:(u.user+u.system)/1e3,wallMs:Number(process.hrtime.bigint()-t)/1e6}))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: REPO_ROOT, env }).toString()) as { cpuMs: number; wallMs: number };
}

/** A function's name in the table and in budgets.json: its entry without `functions/` and `/handler.ts`. */
const nameOf = (entry: string) => entry.replace(/^functions\//, '').replace(/\/handler\.ts$/, '');

interface Row {
  fn: string;
  bytes: number;
  /** Median CPU time of the cold import. */
  ms?: number;
  wallMs?: number;
  budget: { kb: number; ms: number; reason?: string };
}

async function measure(budgets: Budgets) {
  const template = synthTemplate(TWIN_CONTEXT);
  // Several functions of one entry share one bundle: one row each entry.
  const fns = [...new Map(templateFunctions(template).map((fn) => [fn.entry, fn])).values()];
  const dir = fs.mkdtempSync(path.join(REPO_ROOT, '.twin-build-cold-'));
  try {
    // The bundles the twin runs, from the bundle cache (decision 034): built with the deploy options.
    const outs = await bundlePaths(fns, dir);
    const rows: Row[] = fns.map((fn, i) => ({ fn: nameOf(fn.entry), bytes: fs.statSync(outs[i]).size, budget: budgets.of(nameOf(fn.entry)) }));

    const bySize = rows.map((r, i) => ({ r, i })).sort((a, b) => b.r.bytes - a.r.bytes);
    const imported = QUICK ? new Set([bySize[0].i, bySize[Math.floor(bySize.length / 2)].i].slice(0, QUICK_IMPORTS)) : new Set(rows.keys());
    const empty = path.join(dir, 'empty.js');
    fs.writeFileSync(empty, 'module.exports = {};');
    // The empty module is imported between the functions, so both see the same machine load.
    const emptyMs: number[] = [];
    for (const i of imported) {
      const env = twinEnvironment(template, fns[i]);
      const runs = [];
      for (let run = 0; run < IMPORT_RUNS; run++) {
        emptyMs.push(coldImport(empty, env).cpuMs);
        runs.push(coldImport(outs[i], env));
      }
      rows[i].ms = median(runs.map((r) => r.cpuMs));
      rows[i].wallMs = median(runs.map((r) => r.wallMs));
    }
    // A budget left behind by a function renamed or removed: said, and harmless.
    const stale = budgets.named().filter((name) => !rows.some((r) => r.fn === name));
    return { rows, emptyMs: median(emptyMs), stale };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const budgets = readBudgets();
  console.log(`Machine: ${os.cpus().length} cores, Node ${process.version}; ${QUICK ? 'quick run' : 'full run'}, ${IMPORT_RUNS} cold imports a function`);
  const { rows, emptyMs, stale } = await measure(budgets);
  const scale = emptyMs / budgets.referenceEmptyMs;
  console.log('\nLambda bundles (minified; the AWS SDK comes with the runtime, native packages such as sharp sit beside the bundle):');
  console.log(`  ${'function'.padEnd(40)} ${'size'.padStart(9)} ${'budget'.padStart(9)}  ${'cold import'.padStart(11)} ${'budget'.padStart(9)}  x empty  ${'wall'.padStart(9)}`);
  const overSize: Row[] = [];
  const overImport: Row[] = [];
  for (const r of rows) {
    const importBudget = coldImportBudget(r.budget.ms, scale);
    const sizeOver = r.bytes > r.budget.kb * 1024;
    const importOver = r.ms !== undefined && r.ms > importBudget;
    if (sizeOver) overSize.push(r);
    if (importOver) overImport.push(r);
    const ms = r.ms === undefined ? '-' : `${r.ms.toFixed(1)} ms`;
    const ratio = r.ms === undefined ? '-' : `${(r.ms / emptyMs).toFixed(1)}x`;
    const wall = r.wallMs === undefined ? '-' : `${r.wallMs.toFixed(1)} ms`;
    const flags = [sizeOver && 'SIZE OVER BUDGET', importOver && 'IMPORT OVER BUDGET'].filter(Boolean).join(', ');
    console.log(
      `  ${r.fn.padEnd(40)} ${kb(r.bytes).padStart(9)} ${`${r.budget.kb} KB`.padStart(9)}  ${ms.padStart(11)} ${`${importBudget.toFixed(0)} ms`.padStart(9)}  ${ratio.padStart(7)}  ${wall.padStart(9)}${flags ? `  ${flags}` : ''}`,
    );
  }
  const measured = rows.filter((r) => r.ms !== undefined);
  console.log(
    `\n  cold import: CPU time of the require in a fresh process (wall: its wall time)\n  empty module: ${emptyMs.toFixed(2)} ms in this run, ${budgets.referenceEmptyMs.toFixed(2)} ms on the reference machine: import budgets scaled by ${scale.toFixed(2)}`,
  );
  console.log(`  bundles: ${rows.length}, median ${kb(median(rows.map((r) => r.bytes)))}, largest ${kb(Math.max(...rows.map((r) => r.bytes)))}; within their size budget ${rows.length - overSize.length} of ${rows.length}`);
  console.log(
    `  cold imports: ${measured.length} measured, median ${median(measured.map((r) => r.ms!)).toFixed(1)} ms; within their budget ${measured.length - overImport.length} of ${measured.length}`,
  );
  if (stale.length) console.log(`  budgets.json names functions the template does not have (remove them): ${stale.join(', ')}`);
  const own = rows.filter((r) => r.budget.reason);
  if (own.length) {
    console.log('\n  Functions with a budget of their own (test/bench/cold/budgets.json):');
    for (const r of own) console.log(`  ${r.fn.padEnd(40)} ${`${r.budget.kb} KB`.padStart(9)} ${`${r.budget.ms} ms`.padStart(9)}  ${r.budget.reason}`);
  }
  if (overSize.length) {
    const list = overSize.map((r) => `${r.fn} ${kb(r.bytes)} > ${r.budget.kb} KB`);
    throw new Error(`${overSize.length} bundles over their size budget (test/bench/cold/budgets.json): ${list.slice(0, 10).join(', ')}${list.length > 10 ? ', ...' : ''}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
