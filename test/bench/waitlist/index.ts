/**
 * Waitlist benchmark: signups per second and latency through the twin's API at 50
 * concurrent connections, beside the raw DynamoDB Local put rate measured in the same run,
 * and each Lambda bundle's minified size and cold import time in a fresh process.
 *
 *   npm run bench:waitlist [-- --signups 2000 --concurrency 50]
 *   npm run bench:waitlist -- --quick    (tiny sizes, one cold import per wing, fails on any refused
 *                                         signup: CI runs it)
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { REPO_ROOT } from '../../../infra/lib/platform/app-function';
import { bundlePaths } from '../../../infra/local/bundle-cache';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { templateFunctions } from '../../../infra/local/functions';
import { Resolver, synthTemplate, type CfnTemplate } from '../../../infra/local/template';
import { postJsonFrom } from '../../support/from-address';
import { benchTwin } from '../twin';

const QUICK = process.argv.includes('--quick');
const arg = (name: string, fallback: number, quick: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : QUICK ? quick : fallback;
};
const SIGNUPS = arg('signups', 2000, 20);
const CONCURRENCY = arg('concurrency', 50, 5);
const IMPORT_RUNS = arg('import-runs', 7, 1);
const SIZE_TARGET = 300 * 1024;
const IMPORT_TARGET_MS = 200;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** Runs `count` tasks with `concurrency` in flight; returns each task's latency in ms. */
async function load(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        await task(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** Time to require a file in a new Node process, measured inside that process. */
function coldImportMs(file: string, env: Record<string, string>): number {
  const script = `const t=process.hrtime.bigint();require(${JSON.stringify(file)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`;
  return Number(execFileSync(process.execPath, ['-e', script], { cwd: REPO_ROOT, env: { ...process.env, ...env } }).toString());
}

/**
 * The environment the template gives a function, with stand-ins for what only exists once
 * deployed (a resource's name is its logical id, an attribute a plausible ARN or host name), so
 * a function that gains a variable is measured with it and the bench cannot go stale.
 */
function templateEnvironment(template: CfnTemplate, logicalId: string): Record<string, string> {
  const resolver = new Resolver(template);
  for (const id of Object.keys(template.Resources)) {
    const attrs = new Proxy({} as Record<string, string>, {
      get: (_, attr) => (String(attr).endsWith('DomainName') ? `${id.toLowerCase()}.bench.example` : `arn:aws:bench:${TWIN_REGION}:000000000000:${id}`),
    });
    resolver.set(id, { ref: id, attrs });
  }
  return { AWS_REGION: TWIN_REGION, ...resolver.resolve(template.Resources[logicalId].Properties?.Environment?.Variables ?? {}) };
}

async function bundles() {
  const template = synthTemplate({ stage: 'bench' });
  const dir = fs.mkdtempSync(path.join(REPO_ROOT, '.twin-build-bench-'));
  try {
    const empty = path.join(dir, 'empty.js');
    fs.writeFileSync(empty, 'module.exports = {};');
    const baseline = median(Array.from({ length: IMPORT_RUNS }, () => coldImportMs(empty, { AWS_REGION: TWIN_REGION })));
    const rows = [];
    // The bundles the twin runs, from the bundle cache (decision 034): built with the deploy options.
    const fns = templateFunctions(template);
    const outs = await bundlePaths(fns, dir);
    // A quick run imports one function of each wing (and the console's stats, which CI reads):
    // each is a new Node process, and a hundred of them on a busy machine take minutes.
    const wings = new Set<string>();
    const imported = (entry: string) => {
      if (!QUICK || entry.includes('console/routes/get-admin-stats/')) return true;
      const wing = entry.split('/')[1] ?? entry;
      if (wings.has(wing)) return false;
      wings.add(wing);
      return true;
    };
    for (const [i, fn] of fns.entries()) {
      const out = outs[i];
      const bytes = fs.statSync(out).size;
      const env = templateEnvironment(template, fn.logicalId);
      const ms = imported(fn.entry) ? median(Array.from({ length: IMPORT_RUNS }, () => coldImportMs(out, env))) : undefined;
      rows.push({ fn: fn.entry.replace(/^functions\//, '').replace(/\/handler\.ts$/, ''), bytes, ms });
    }
    return { rows, baseline };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`Machine: ${os.cpus().length} cores, Node ${process.version}`);
  console.log('\nLambda bundles (minified; the AWS SDK comes with the runtime, native packages such as sharp sit beside the bundle):');
  const { rows, baseline } = await bundles();
  console.log(`  ${'function'.padEnd(34)} ${'size'.padStart(9)}  ${'cold import'.padStart(11)}  vs empty module`);
  for (const r of rows) {
    const size = `${(r.bytes / 1024).toFixed(1)} KB`;
    const flag = r.bytes > SIZE_TARGET || (r.ms ?? 0) > IMPORT_TARGET_MS ? '  OVER TARGET' : '';
    const ms = r.ms === undefined ? '-' : `${r.ms.toFixed(1)} ms`;
    const ratio = r.ms === undefined ? '-' : `${(r.ms / baseline).toFixed(1)}x`;
    console.log(`  ${r.fn.padEnd(34)} ${size.padStart(9)}  ${ms.padStart(11)}  ${ratio}${flag}`);
  }
  console.log(`  (empty module imports in ${baseline.toFixed(2)} ms; targets: under 300 KB and under 200 ms)`);

  const twin = await benchTwin({ context: { waitlistCapacity: 10_000_000 } });
  try {
    const doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: twin.urls.dynamodb, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } }),
    );
    const table = twin.physicalName('WaitlistTable');
    // Warm both paths so neither pays first-connection costs inside the measurement.
    await load(Math.min(100, SIGNUPS), CONCURRENCY, async (i) => {
      await doc.send(new PutCommand({ TableName: table, Item: { pk: `WARM#${i}` } }));
    });
    const raw = await load(SIGNUPS, CONCURRENCY, async (i) => {
      await doc.send(new PutCommand({ TableName: table, Item: { pk: `RAW#${i}`, email: `raw${i}@bench.example`, n: i } }));
    });
    let failures = 0;
    const api = await load(SIGNUPS, CONCURRENCY, async (i) => {
      // Each from a network of its own, as many people are: the per-IP limits are not measured here.
      const res = await postJsonFrom(`127.5.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`, `${twin.urls.api}/early-signup`, { email: `bench${i}@bench.example`, terms: true });
      if (res.status !== 200) failures++;
    });
    await twin.idle();
    console.log(`\nThrough the twin, ${SIGNUPS} operations at ${CONCURRENCY} concurrent connections:`);
    console.log(`  raw DynamoDB Local PutItem   ${raw.perSecond.toFixed(0).padStart(6)} /s   p50 ${raw.p50.toFixed(1)} ms   p99 ${raw.p99.toFixed(1)} ms`);
    console.log(`  POST /early-signup           ${api.perSecond.toFixed(0).padStart(6)} /s   p50 ${api.p50.toFixed(1)} ms   p99 ${api.p99.toFixed(1)} ms   (${failures} failed)`);
    console.log(`  signups per raw put          ${(api.perSecond / raw.perSecond).toFixed(2)} (a signup is a pending item, a link item, its limits and a confirmation email)`);
    if (QUICK && failures > 0) throw new Error(`${failures} of ${SIGNUPS} signups failed`);
  } finally {
    await twin.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
