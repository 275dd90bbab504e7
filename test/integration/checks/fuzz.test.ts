import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { ACCESS_METADATA } from '../../../infra/lib/platform/http-api';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { resourcesOfType } from '../../../infra/local/template';
import { badBodies, badPathValues, badQueries, type BadRequest } from '../../support/bad-payloads';
import { inParallel, randomLoopback, send, type Answer } from '../../support/callers';
import { ROUTE_EXAMPLES } from '../../support/route-examples';
import { documentClient, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

// Fuzzing (docs/checks.md): every public route of the template that takes a body or a query
// gets FUZZ_RUNS generated bad payloads (`npm run fuzz` sends 1,000). None may answer 5xx;
// every 4xx says what is wrong in `error` and names each field the contract refuses; and
// afterwards nothing carrying the run's marker was stored or mailed. Each request comes from
// another loopback address, so per-address rate limits let payloads reach validation.
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
jest.setTimeout(Math.max(120_000, RUNS * 400));
const twin = useTwin();
const marker = fileMarker('fz');

/** Tables and buckets whose items are product data (rate-limit counters and idempotency records are not). */
const NOT_DOMAIN = /^(RateLimits|Idempotency)/;

interface Sent {
  request: BadRequest;
  answer: Answer;
}

function publicRoutes() {
  return resourcesOfType(twin().template, 'AWS::ApiGatewayV2::Route')
    .filter(([, r]) => r.Properties?.AuthorizationType !== 'JWT' && r.Metadata?.[ACCESS_METADATA] === 'public')
    .map(([, r]) => String(r.Properties?.RouteKey));
}

/** Everything the domain tables and buckets hold, as `where: item` strings. */
async function storedData(): Promise<Set<string>> {
  const doc = documentClient(twin());
  const s3 = new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });
  const seen = new Set<string>();
  for (const [id] of resourcesOfType(twin().template, 'AWS::DynamoDB::Table')) {
    if (NOT_DOMAIN.test(id)) continue;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(new ScanCommand({ TableName: twin().physicalName(id), ExclusiveStartKey: start, ConsistentRead: true }));
      for (const item of page.Items ?? []) seen.add(`${id}: ${JSON.stringify(item)}`);
      start = page.LastEvaluatedKey;
    } while (start);
  }
  for (const [id] of resourcesOfType(twin().template, 'AWS::S3::Bucket')) {
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: twin().physicalName(id), ContinuationToken: token }));
      for (const o of page.Contents ?? []) seen.add(`${id}: ${o.Key}`);
      token = page.NextContinuationToken;
    } while (token);
  }
  s3.destroy();
  return seen;
}

/** What is wrong with an answer to a bad payload, or undefined when it is right. */
function problemOf({ request, answer }: Sent): string | undefined {
  if (answer.status >= 500) return `${answer.status}: ${answer.text.slice(0, 200)}`;
  if (answer.status < 400) return undefined;
  // API Gateway's own answers, to a malformed percent-encoding or a path that dot segments took
  // off the route: the request never reached our code.
  if (request.kind === 'path parameter' && answer.json?.message === { 400: 'Bad Request', 404: 'Not Found' }[answer.status]) return undefined;
  const error = answer.json?.error;
  if (typeof error !== 'string' || !error.trim()) return `${answer.status} without an error message: ${answer.text.slice(0, 200)}`;
  // Size, media type and rate answers speak of the request as a whole.
  if ([413, 415, 429].includes(answer.status)) return undefined;
  const fields = answer.json?.fields && typeof answer.json.fields === 'object' ? Object.keys(answer.json.fields) : [];
  const unnamed = request.broken.filter((name) => !error.includes(name) && !fields.some((f) => f === name || f.startsWith(`${name}.`)));
  return unnamed.length ? `${answer.status} does not name ${unnamed.join(', ')}: ${answer.text.slice(0, 200)}` : undefined;
}

describe('fuzzing the public routes', () => {
  test(`every public route answers ${RUNS} bad payloads with a 4xx that says what is wrong, and stores nothing`, async () => {
    const routes = publicRoutes();
    expect(routes.length).toBeGreaterThan(0);
    const missing = routes.filter((key) => !ROUTE_EXAMPLES[key]);
    expect(missing.map((key) => `${key}: no example in test/support/route-examples.ts`)).toEqual([]);
    const fuzzed = routes.filter((key) => ROUTE_EXAMPLES[key].body || ROUTE_EXAMPLES[key].query || key.includes('{'));
    const withoutContract = fuzzed.filter((key) => (ROUTE_EXAMPLES[key].body || ROUTE_EXAMPLES[key].query) && !ROUTE_EXAMPLES[key].schema);
    expect(withoutContract.map((key) => `${key}: its example names no schema`)).toEqual([]);
    // Each example is valid, so that what a mutation breaks is what the contract names.
    const invalid = fuzzed.filter((key) => ROUTE_EXAMPLES[key].schema && !ROUTE_EXAMPLES[key].schema.safeParse(ROUTE_EXAMPLES[key].body?.(marker) ?? ROUTE_EXAMPLES[key].query?.(marker)).success);
    expect(invalid.map((key) => `${key}: its example does not match its schema`)).toEqual([]);

    const before = await storedData();
    const report: string[] = [];
    const problems: string[] = [];
    const started = Date.now();
    for (const [index, key] of fuzzed.entries()) {
      const routeStarted = Date.now();
      const example = ROUTE_EXAMPLES[key];
      const [method, pathPattern] = key.split(' ');
      // Routes with a body or query get bad payloads on a fixed path; routes with only path parameters, bad parameters.
      const fixedPath = pathPattern.replace(/\{([^}+]+)\+?\}/g, marker);
      const arbitrary: fc.Arbitrary<BadRequest | undefined> = example.body
        ? badBodies(example.body(marker) as never, example.schema!)
        : example.query
          ? badQueries(example.query(marker), example.schema!)
          : badPathValues().map((value) => ({ kind: 'path parameter', headers: {}, path: pathPattern.replace(/\{([^}+]+)\+?\}/g, value), broken: [] }));
      const requests: BadRequest[] = [];
      for (let round = 0; requests.length < RUNS && round < 10; round++) {
        // Each route its own seeds: routes that share an example (aliases) still get other payloads.
        const drawn = fc.sample(arbitrary, { numRuns: RUNS, seed: SEED + index * 100 + round });
        requests.push(...drawn.filter((r): r is BadRequest => r !== undefined).slice(0, RUNS - requests.length));
      }
      const sent: Sent[] = await inParallel(requests, 12, async (request) => ({
        request,
        answer: await send(`${twin().urls.api}${request.path ?? fixedPath}${request.query ? `?${request.query}` : ''}`, {
          method,
          headers: request.headers,
          body: request.body,
          from: randomLoopback(),
        }),
      }));
      const byStatus = new Map<number, number>();
      for (const s of sent) {
        byStatus.set(s.answer.status, (byStatus.get(s.answer.status) ?? 0) + 1);
        const problem = problemOf(s);
        if (problem) problems.push(`${key} [${s.request.kind}] ${String(s.request.body ?? s.request.query ?? s.request.path).slice(0, 160)} -> ${problem}`);
      }
      const statuses = [...byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(', ');
      report.push(`${key.padEnd(42)} ${String(sent.length).padStart(5)} payloads  ${statuses}  (${Date.now() - routeStarted} ms)`);
    }
    report.push(`seed ${SEED}, ${Date.now() - started} ms`);
    if (process.env.FUZZ_RUNS || problems.length) console.log(`Fuzzing, ${RUNS} per route:\n${report.join('\n')}`);

    // Nothing the payloads carried was stored or mailed.
    await twin().idle();
    const after = await storedData();
    const stored = [...after].filter((entry) => !before.has(entry) && entry.toLowerCase().includes(marker));
    const mailed = (await twin().emails()).filter((e) => JSON.stringify(e.to).toLowerCase().includes(marker));
    expect(problems.slice(0, 30)).toEqual([]);
    expect(stored).toEqual([]);
    expect(mailed.map((e) => `${e.to.join(', ')}: ${e.subject}`)).toEqual([]);
  });
});
