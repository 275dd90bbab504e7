// bench:burst (decision 065): a burst of generation starts on the twin with the Replicate
// emulator enforcing its creation limit. Many clients start generations over a minute: a few
// heavy clients send their whole allowance (10 starts, the start route's limit a minute) in the
// first seconds, most light clients send 2 or 3 spread over the minute. Prints:
//   - generations lost (answered other than 202, or never succeeded; target 0);
//   - the most prediction creations the emulator accepted in any 60 s (target <= its limit);
//   - the 429s the emulator answered to creates;
//   - p50 and p95 time from POST /generations to the prediction created, all and per class;
//   - Jain's fairness index over clients (target >= 0.9) of x_i = a_i / f_i, where a_i is client
//     i's starts whose prediction was created in the first minute, and f_i what an ideal fair
//     queue would have given it with the same arrivals (the times starts were sent) and the same
//     creations (at each, one start of the waiting client served least so far): 1 when the
//     admission shares the creations as fairly as possible, lower when a client got more or less.
// Full run: `npm run bench:burst` (1,000 starts from 200 clients, limit 600 a minute, on a twin
// of its own at AWS wait scale); `-- --limit 60 --starts 100 --clients 20` scales it down;
// `-- --quick`: 20 starts from 5 clients in 2 s on the shared bench twin (its limit, 600).
import { randomUUID } from 'node:crypto';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { FINAL_STATUSES } from '../../../events/generation-values';
import { Generation, GenerationStarted } from '../../../events/generations';
import { TESTING_LOT } from '../../../events/plans';
import { accountStore } from '../../../functions/accounts/store';
import { creditLedger } from '../../../functions/accounts/credits';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { seedUser } from '../../../infra/local/provision';
import { eventually } from '../../support/eventually';
import { callApi, type TestTwin } from '../../support/twin';
import { benchTwin } from '../twin';

const QUICK = process.argv.includes('--quick');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const LIMIT = QUICK ? 600 : arg('limit', 600);
const STARTS = QUICK ? 20 : arg('starts', 1000);
const CLIENTS = QUICK ? 5 : arg('clients', 200);
/** Heavy clients send their 10 in the first HEAVY_WINDOW_MS; light ones spread theirs over SPREAD_MS. */
const SPREAD_MS = QUICK ? 2_000 : 60_000;
const HEAVY_WINDOW_MS = QUICK ? 500 : 5_000;
const PER_HEAVY = 10;
const MINUTE = 60_000;
const TALENT = 'maya-chen';
const PASSWORD = 'Str0ng!Passw0rd-burst';

interface Client {
  n: number;
  heavy: boolean;
  starts: number;
  accountId: string;
  token: string;
}

interface Start {
  client: Client;
  marker: string;
  at: number;
  postedAt?: number;
  status?: number;
  id?: string;
  final?: string;
  /** The start's refusal, or the generation's failure message. */
  why?: string;
  createdAt?: number;
}

/** Heavy clients: 30% of the starts at 10 each; the rest spread evenly over the light clients. */
function plan(): Array<{ heavy: boolean; starts: number }> {
  const heavy = Math.max(1, Math.round((STARTS * 0.3) / PER_HEAVY));
  const light = CLIENTS - heavy;
  const left = STARTS - heavy * PER_HEAVY;
  return [
    ...Array.from({ length: heavy }, () => ({ heavy: true, starts: PER_HEAVY })),
    ...Array.from({ length: light }, (_, i) => ({ heavy: false, starts: Math.floor(left / light) + (i < left % light ? 1 : 0) })),
  ];
}

const documentClient = (twin: TestTwin) =>
  DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: twin.urls.dynamodb, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } }));

async function newClient(twin: TestTwin, n: number, heavy: boolean, starts: number, tag: string): Promise<Client> {
  const email = `bench.burst.${tag}.${n}@clients.example`;
  const { sub } = await seedUser(twin.urls.cognito, twin.userPoolId, { email, password: PASSWORD, groups: ['client'], attributes: { 'custom:role': 'client' } });
  const doc = documentClient(twin);
  const table = twin.physicalName('AccountsTable');
  await accountStore(doc, table).create({ id: sub!, email, full_name: `Burst Client ${n}`, role: 'client' });
  await creditLedger(doc, table).grant(sub!, { credits: 20, key: `burst-${tag}-${n}`, reason: 'Bench credits', lot: TESTING_LOT });
  const cognito = new CognitoIdentityProviderClient({ endpoint: twin.urls.cognito, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  const out = await cognito.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin.clientIds.web, AuthParameters: { USERNAME: email, PASSWORD } }));
  return { n, heavy, starts, accountId: sub!, token: out.AuthenticationResult!.IdToken! };
}


/** The nearest-rank percentile. */
const percentile = (values: number[], p: number) => (values.length ? [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * values.length) - 1)] : NaN);

/**
 * What an ideal fair queue would have given each client with the same arrivals and the same
 * capacity: at each creation the run made (in time order), one start of the waiting client that
 * has had the fewest so far (the earliest waiting start breaking ties), where a start waits from
 * the time it was sent. Answers each client's count.
 */
function idealFairShares(clients: Client[], sent: Array<{ client: Client; at: number }>, creations: number[]): Map<Client, number> {
  const got = new Map(clients.map((c) => [c, 0]));
  const waiting = new Map(clients.map((c) => [c, [] as number[]]));
  const arrivals = [...sent].sort((a, b) => a.at - b.at);
  let next = 0;
  for (const t of [...creations].sort((a, b) => a - b)) {
    for (; next < arrivals.length && arrivals[next].at <= t; next++) waiting.get(arrivals[next].client)!.push(arrivals[next].at);
    let pick: Client | undefined;
    for (const c of clients) {
      const q = waiting.get(c)!;
      if (!q.length) continue;
      if (!pick || got.get(c)! < got.get(pick)! || (got.get(c) === got.get(pick) && q[0] < waiting.get(pick)![0])) pick = c;
    }
    if (!pick) continue;
    waiting.get(pick)!.shift();
    got.set(pick, got.get(pick)! + 1);
  }
  return got;
}

/** Jain's index of `values`: 1 when all are equal, 1/n when one has everything. */
const jain = (values: number[]) => {
  const sum = values.reduce((a, b) => a + b, 0);
  const squares = values.reduce((a, b) => a + b * b, 0);
  return squares === 0 ? 1 : (sum * sum) / (values.length * squares);
};

/** The most of `times` (ms) within any `windowMs`. */
function mostInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const twin = await benchTwin(QUICK ? {} : { waitScale: 1, context: { replicateCreationsPerMinute: LIMIT } });
  try {
    if (!QUICK) await twin.replicate.setCreationLimit(LIMIT);
    const tag = randomUUID().slice(0, 8);
    const shape = plan();
    const clients: Client[] = [];
    for (let i = 0; i < shape.length; i += 10) {
      clients.push(...(await Promise.all(shape.slice(i, i + 10).map((c, k) => newClient(twin, i + k, c.heavy, c.starts, tag)))));
    }
    const before = await twin.replicate.creations();
    const starts: Start[] = clients.flatMap((client) =>
      Array.from({ length: client.starts }, (_, k) => ({
        client,
        marker: `burst ${tag} c${client.n} s${k}:`,
        // Heavy: all at once at the start; light: evenly over the spread, each client offset.
        at: client.heavy ? (k * HEAVY_WINDOW_MS) / PER_HEAVY : ((k + (client.n % 7) / 7) * SPREAD_MS) / client.starts,
      })),
    );
    console.log(
      `bench:burst${QUICK ? ' [quick]' : ''}: ${starts.length} starts from ${clients.length} clients (${clients.filter((c) => c.heavy).length} heavy x ${PER_HEAVY} in ${seconds(HEAVY_WINDOW_MS)}, the rest ${Math.min(...clients.filter((c) => !c.heavy).map((c) => c.starts))}-${Math.max(...clients.filter((c) => !c.heavy).map((c) => c.starts))} each over ${seconds(SPREAD_MS)}), the emulator's limit ${before.creationsPerMinute} a minute, admission at ${LIMIT} a minute`,
    );
    const t0 = Date.now();
    const post = async (s: Start) => {
      s.postedAt = Date.now();
      const res = await callApi(twin, s.client.token, 'POST', '/generations', { talentId: TALENT, prompt: `${s.marker} a ceramicist at her wheel`, style: 'Editorial', count: 1 });
      s.status = res.status;
      if (res.status === 202) s.id = GenerationStarted.parse(res.json).id;
      else s.why = JSON.stringify(res.json);
    };
    // The arrivals: each start is sent at its time in the schedule.
    await Promise.all(
      starts.map(
        (s) =>
          new Promise<void>((sent, failed) => {
            setTimeout(() => {
              post(s).then(sent, failed);
            }, s.at);
          }),
      ),
    );
    const accepted = starts.filter((s) => s.id);
    await eventually(
      async () => {
        const open = accepted.filter((s) => !s.final);
        for (const s of open.slice(0, 40)) {
          const res = await callApi(twin, s.client.token, 'GET', `/generations/${s.id}`);
          if (res.status !== 200) continue;
          const g = Generation.parse(res.json);
          if (FINAL_STATUSES.includes(g.status)) s.final = g.status;
          if (g.failure) s.why = g.failure.message;
        }
        return open.length === 0 || undefined;
      },
      { timeoutMs: QUICK ? 120_000 : 20 * MINUTE, maxIntervalMs: 1_000, what: 'every started generation to end' },
    );
    const predictions = (await twin.replicate.predictions()).filter((p) => String(p.input.prompt).includes(`burst ${tag} `));
    for (const s of starts) s.createdAt = predictions.find((p) => String(p.input.prompt).includes(s.marker))?.createdAt;
    const after = await twin.replicate.creations();

    const lost = starts.filter((s) => s.status !== 202 || s.final !== 'succeeded');
    const createdTimes = after.accepted.filter((t) => t >= t0);
    const wait = (of: Start[]) => of.filter((s) => s.createdAt && s.postedAt).map((s) => s.createdAt! - s.postedAt!);
    const line = (label: string, of: Start[]) => {
      const w = wait(of);
      console.log(`  ${label.padEnd(28)} p50 ${seconds(percentile(w, 50))}  p95 ${seconds(percentile(w, 95))}  (${w.length} starts)`);
    };
    console.log(`generations lost: ${lost.length} of ${starts.length}${lost.length ? ` (${lost.slice(0, 3).map((s) => `${s.status} ${s.final ?? ''} ${s.why ?? ''}`).join(', ')})` : ''}`);
    console.log(`most creations in any 60 s: ${mostInWindow(createdTimes, MINUTE)} (limit ${before.creationsPerMinute})`);
    console.log(`429s answered by the emulator: ${after.throttled - before.throttled}`);
    console.log('start -> prediction created:');
    line('all', starts);
    line('heavy clients', starts.filter((s) => s.client.heavy));
    line('light clients', starts.filter((s) => !s.client.heavy));

    // Fairness over the first minute (see the header): the starts sent in it and the creations made in it.
    const end = t0 + MINUTE;
    const inWindow = starts.filter((s) => s.postedAt! < end);
    const made = inWindow.filter((s) => s.createdAt !== undefined && s.createdAt < end);
    const ideal = idealFairShares(clients, inWindow.map((s) => ({ client: s.client, at: s.postedAt! })), made.map((s) => s.createdAt!));
    const x = clients.filter((c) => ideal.get(c)! > 0).map((c) => made.filter((s) => s.client === c).length / ideal.get(c)!);
    console.log(`Jain's fairness index over ${clients.length} clients (first ${seconds(end - t0)}: each client's creations / an ideal fair queue's with the same arrivals and ${made.length} creations): ${jain(x).toFixed(3)}`);
    if (lost.length) process.exitCode = 1;
  } finally {
    await twin.stop();
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
