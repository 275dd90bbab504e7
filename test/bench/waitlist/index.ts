/**
 * Waitlist benchmark: signups per second and latency through the twin's API at 50
 * concurrent connections, beside the raw DynamoDB Local put rate measured in the same run.
 * The functions' bundle sizes and cold imports are measured by `npm run bench:cold`.
 *
 *   npm run bench:waitlist [-- --signups 2000 --concurrency 50]
 *   npm run bench:waitlist -- --quick    (tiny sizes, fails on any refused signup: CI runs it)
 */
import * as os from 'node:os';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { postJsonFrom } from '../../support/from-address';
import { benchTwin } from '../twin';

const QUICK = process.argv.includes('--quick');
const arg = (name: string, fallback: number, quick: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : QUICK ? quick : fallback;
};
const SIGNUPS = arg('signups', 2000, 20);
const CONCURRENCY = arg('concurrency', 50, 5);

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

async function main() {
  console.log(`Machine: ${os.cpus().length} cores, Node ${process.version}`);

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
