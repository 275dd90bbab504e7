/**
 * Cost model on the twin: runs a sample of each scenario through the public API on an
 * instrumented twin (decision 018), reads the meters (Lambda invocations and GB-seconds, state
 * transitions, DynamoDB capacity units, S3 requests and bytes, SES emails, events), scales them
 * linearly to 1,000 of each, and prices them with the list prices of prices.ts.
 *
 *   npm run bench:cost                 (50 waitlist signups, 5 founding applications of 40 photos)
 *   npm run bench:cost -- --quick      (3 signups, 1 application: CI runs it)
 *   npm run bench:cost -- --signups 100 --applications 10
 *   TWIN_LOG=1 npm run bench:cost      (the functions' logs on stderr)
 *
 * Lambda durations are the twin's wall times, not AWS's: see docs/cost.md for how to read them.
 * A new scenario (e.g. image generations) is one more entry in SCENARIOS.
 *
 * It first prints the unit economics per credit of every plan and pack (unit-economics.ts: price,
 * Stripe's fee, the image, royalties and margin) and the cost per likeness model training
 * (training.ts: the trainer's time on Replicate and the samples), which need no twin.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import type { Meters } from '../../../infra/local/instruments';
import { atRest } from '../../support/at-rest';
import { eventually } from '../../support/eventually';
import type { TestTwin } from '../../support/twin';
import { applyFounding, callerIp, joinWaitlist, type Photo } from '../../support/user-flows';
import { costOf, PRICES, PRICES_READ_ON, type PriceName } from './prices';
import { trainingCostTable } from './training';
import { unitEconomicsTable } from './unit-economics';
import { benchTwin } from '../twin';

const QUICK = process.argv.includes('--quick');
const arg = (name: string, full: number, quick: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i > 0 ? Number(process.argv[i + 1]) : QUICK ? quick : full;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number, not ${process.argv[i + 1]}`);
  return value;
};

/** Photos per founding application in the model. */
const PHOTOS_PER_APPLICATION = 40;
/** Stated assumption: a phone photo kept at full size weighs 3.5 MB (the sample uploads small JPEGs). */
const ASSUMED_PHOTO_BYTES = 3.5 * 1024 * 1024;
/** The monthly volumes docs/cost.md prices. */
const MONTH = { 'waitlist signups': 10_000, 'founding applications (40 photos)': 500 } as const;

interface Context {
  twin: TestTwin;
  /** The keys in the photo bucket before the scenario ran (a shared twin holds other benches' too). */
  objectsBefore: Set<string>;
  /** Distinct caller addresses, so per-IP limits see distinct people. */
  nextIp(): string;
  photos: Photo[];
}

interface Scenario {
  name: keyof typeof MONTH;
  sample: number;
  /** One person's whole flow; throws when the product refuses it. */
  run(ctx: Context, i: number): Promise<void>;
  /** Waits until the flow's background work is over (the meters then stay still). */
  done?(ctx: Context, i: number): Promise<void>;
  /** Bytes kept in S3 per flow, under the stated assumption for photos. */
  storedBytes?(ctx: Context, sample: number): Promise<{ measured: number; assumed: number; objects: number }>;
}

const stamp = Date.now().toString(36);
const signupEmail = (i: number) => `cost.waitlist.${stamp}.${i}@example.com`;
const applicantEmail = (i: number) => `cost.founding.${stamp}.${i}@example.com`;

const SCENARIOS: Scenario[] = [
  {
    name: 'waitlist signups',
    sample: arg('signups', 50, 3),
    async run(ctx, i) {
      const { signup, confirmed } = await joinWaitlist(ctx.twin, signupEmail(i), { ip: ctx.nextIp(), firstName: 'Maya' });
      if (signup.status !== 200) throw new Error(`signup ${i} answered ${signup.status}: ${signup.text}`);
      if (confirmed && confirmed.status !== 200) throw new Error(`confirmation ${i} answered ${confirmed.status}: ${confirmed.text}`);
    },
  },
  {
    name: 'founding applications (40 photos)',
    sample: arg('applications', 5, 1),
    async run(ctx, i) {
      const { signup, confirmed } = await applyFounding(ctx.twin, applicantEmail(i), ctx.photos, { ip: ctx.nextIp(), firstName: 'Ada' });
      if (signup.status !== 200) throw new Error(`application ${i} answered ${signup.status}: ${signup.text}`);
      if (confirmed && confirmed.status !== 200) throw new Error(`confirmation ${i} answered ${confirmed.status}: ${confirmed.text}`);
    },
    async done(ctx, i) {
      // Validated and waiting for a reviewer (or refused): the workflow's automatic part is over.
      const status = await eventually(async () => {
        const s = await applicationStatus(ctx.twin, applicantEmail(i));
        return s === 'pending_review' || s === 'invalid' || s === 'failed' ? s : undefined;
      }, { timeoutMs: 180_000, what: `application ${i} validated` });
      if (status !== 'pending_review') throw new Error(`application ${i} ended ${status}, not pending_review: the sample measures the wrong path`);
    },
    async storedBytes(ctx) {
      let measured = 0;
      let objects = 0;
      let photos = 0;
      let otherBytes = 0;
      for (const [key, size] of await photoBucket(ctx.twin)) {
        if (ctx.objectsBefore.has(key)) continue;
        objects++;
        measured += size;
        if (/\/photos\//.test(key)) photos++;
        else otherBytes += size;
      }
      // Photos at the assumed full size; anything else (thumbnails, records) as measured.
      return { measured, objects, assumed: photos * ASSUMED_PHOTO_BYTES + otherBytes };
    },
  },
];

/** Every object of the founding photo bucket, key to size. */
async function photoBucket(twin: TestTwin): Promise<Map<string, number>> {
  const s3 = new S3Client({ endpoint: twin.urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });
  const objects = new Map<string, number>();
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: twin.physicalName('FoundingPhotos'), ContinuationToken: token }));
    for (const o of page.Contents ?? []) objects.set(o.Key!, o.Size ?? 0);
    token = page.NextContinuationToken;
  } while (token);
  s3.destroy();
  return objects;
}

async function applicationStatus(twin: TestTwin, email: string): Promise<string | undefined> {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: twin.urls.dynamodb, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } }));
  const out = await doc.send(
    new ScanCommand({
      TableName: twin.physicalName('FoundingApplicationsTable'),
      ConsistentRead: true,
      FilterExpression: 'email = :e AND sk = :sk',
      ExpressionAttributeValues: { ':e': email, ':sk': 'APPLICATION' },
    }),
  );
  doc.destroy();
  return out.Items?.[0]?.status as string | undefined;
}

interface Line {
  what: string;
  quantity: number;
  price?: PriceName;
}

function lines(m: Meters, apiRequests: number, storedGb: number): Line[] {
  const fns = Object.values(m.lambda);
  return [
    { what: 'API requests (HTTP API)', quantity: apiRequests, price: 'httpApiRequests' },
    { what: 'Lambda invocations', quantity: fns.reduce((n, f) => n + f.invocations, 0), price: 'lambdaRequests' },
    { what: 'Lambda GB-seconds (twin wall time)', quantity: fns.reduce((n, f) => n + f.gbSeconds, 0), price: 'lambdaArmGbSeconds' },
    { what: 'Step Functions state transitions', quantity: m.stepFunctions.transitions, price: 'stepFunctionsTransitions' },
    { what: 'DynamoDB read units', quantity: m.dynamodb.readUnits, price: 'dynamoReadRequestUnits' },
    { what: 'DynamoDB write units', quantity: m.dynamodb.writeUnits, price: 'dynamoWriteRequestUnits' },
    { what: 'S3 PUT/COPY/POST/LIST', quantity: m.s3.tier1, price: 's3Tier1Requests' },
    { what: 'S3 GET/HEAD/other', quantity: m.s3.tier2, price: 's3Tier2Requests' },
    { what: 'S3 GB stored (one month)', quantity: storedGb, price: 's3StandardGbMonth' },
    { what: 'SES emails', quantity: m.ses.recipients, price: 'sesEmails' },
    { what: 'EventBridge events published', quantity: m.events.published, price: 'eventBridgeEvents' },
  ];
}

const dollars = (microDollars: number) => `$${(microDollars / 1e6).toFixed(microDollars < 10_000 ? 4 : 2)}`;
const qty = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 }));

async function main() {
  console.log(`${unitEconomicsTable()}\n`);
  console.log(`${trainingCostTable()}\n`);
  console.log(`Cost model on the twin (${QUICK ? 'quick' : 'full'} run), prices read ${PRICES_READ_ON}, us-east-1 on-demand`);
  const photos: Photo[] = await Promise.all(
    Array.from({ length: PHOTOS_PER_APPLICATION }, async (_, i) => ({
      name: `photo-${i + 1}.jpg`,
      type: 'image/jpeg',
      body: await sharp({ create: { width: 640, height: 640, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 } } }).jpeg({ quality: 80 }).toBuffer(),
    })),
  );
  const twin = await benchTwin({ instrument: true, log: process.env.TWIN_LOG ? (line) => console.error(line) : undefined });
  let callers = 0;
  const ctx: Context = { twin, photos, objectsBefore: new Set(), nextIp: () => callerIp(callers++) };
  const results: Array<{ name: Scenario['name']; sample: number; per1000: Line[]; wallS: number; lambdaByFn: Meters['lambda'] }> = [];
  try {
    for (const scenario of SCENARIOS) {
      // What ran before (another bench on a shared twin, the previous scenario) has ended.
      await atRest(twin, { timeoutMs: 180_000 });
      ctx.objectsBefore = new Set((await photoBucket(twin)).keys());
      await twin.instruments.reset();
      const started = performance.now();
      for (let i = 0; i < scenario.sample; i++) await scenario.run(ctx, i);
      for (let i = 0; i < scenario.sample; i++) await scenario.done?.(ctx, i);
      await atRest(twin, { timeoutMs: 180_000 });
      const wallS = (performance.now() - started) / 1000;
      const m = await twin.instruments.meters();
      const stored = (await scenario.storedBytes?.(ctx, scenario.sample)) ?? { measured: 0, assumed: 0, objects: 0 };
      const scale = 1000 / scenario.sample;
      const apiRequests = countApiInvocations(twin, m);
      const per1000 = lines(m, apiRequests, stored.assumed / 1024 ** 3).map((l) => ({ ...l, quantity: l.quantity * scale }));
      results.push({ name: scenario.name, sample: scenario.sample, per1000, wallS, lambdaByFn: m.lambda });
      console.log(
        `\n${scenario.name}: sample of ${scenario.sample} in ${wallS.toFixed(1)} s, scaled x${scale.toFixed(1)} to 1,000` +
          (stored.objects ? `; ${stored.objects} objects kept (${(stored.measured / 1024 / 1024).toFixed(1)} MB measured, photos counted at ${ASSUMED_PHOTO_BYTES / 1024 / 1024} MB each)` : ''),
      );
      printTable(per1000);
      console.log('  by function (sample):');
      for (const [name, f] of Object.entries(m.lambda).sort((a, b) => b[1].gbSeconds - a[1].gbSeconds)) {
        console.log(`    ${name.padEnd(44)} ${String(f.invocations).padStart(5)} calls ${String(f.memoryMb).padStart(5)} MB ${(f.durationMs / f.invocations).toFixed(0).padStart(6)} ms avg ${f.gbSeconds.toFixed(3).padStart(9)} GB-s`);
      }
      if (m.dynamodb.throttled || m.ses.refused) throw new Error('faults were active during the cost run');
    }
    printMonth(results);
  } finally {
    await twin.stop();
  }
}

/** API requests: one per invocation of a function behind an API route (the flows call nothing else). */
function countApiInvocations(twin: TestTwin, m: Meters): number {
  const routed = new Set(
    Object.values(twin.template.Resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Integration')
      .map((r) => JSON.stringify(r.Properties?.IntegrationUri ?? '')),
  );
  return Object.entries(m.lambda)
    .filter(([name]) => [...routed].some((uri) => uri.includes(`"${name}"`)))
    .reduce((n, [, f]) => n + f.invocations, 0);
}

function printTable(rows: Line[]) {
  let total = 0;
  console.log(`  ${'per 1,000'.padEnd(38)} ${'quantity'.padStart(14)} ${'cost'.padStart(10)}`);
  for (const row of rows) {
    const cost = row.price ? costOf(row.price, row.quantity) : 0;
    total += cost;
    console.log(`  ${row.what.padEnd(38)} ${qty(row.quantity).padStart(14)} ${dollars(cost).padStart(10)}`);
  }
  console.log(`  ${'total per 1,000'.padEnd(38)} ${''.padStart(14)} ${dollars(total).padStart(10)}`);
}

function printMonth(results: Array<{ name: Scenario['name']; per1000: Line[] }>) {
  console.log('\nMonthly, at 10,000 waitlist signups and 500 founding applications (linear from the samples):');
  let total = 0;
  let lambdaCost = 0;
  for (const r of results) {
    const volume = MONTH[r.name];
    let cost = 0;
    for (const l of r.per1000) {
      const c = l.price ? costOf(l.price, (l.quantity * volume) / 1000) : 0;
      cost += c;
      if (l.price === 'lambdaArmGbSeconds') lambdaCost += c;
    }
    total += cost;
    console.log(`  ${`${volume.toLocaleString('en-US')} ${r.name}`.padEnd(48)} ${dollars(cost).padStart(10)}`);
  }
  console.log(`  ${'total'.padEnd(48)} ${dollars(total).padStart(10)}`);
  console.log(`  with Lambda durations 3x the twin's: ${dollars(total + 2 * lambdaCost)}`);
  console.log(`  (storage: one month of that month's photos; photos kept accumulate month after month)`);
  console.log(`\nPrices: ${Object.values(PRICES).filter((p) => !p.verified).length} of ${Object.keys(PRICES).length} not read on an AWS page itself (see test/bench/cost/prices.ts)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
