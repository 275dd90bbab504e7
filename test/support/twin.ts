import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { CognitoIdentityProviderClient, InitiateAuthCommand, RespondToAuthChallengeCommand } from '@aws-sdk/client-cognito-identity-provider';
import { totpCode } from '../../infra/local/totp';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { Delivery, BusEvent } from '../../infra/local/eventbridge';
import type { LocalFunction } from '../../infra/local/functions';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../infra/local/emulators/ports';
import type { Fault, FaultKind, Meters } from '../../infra/local/instruments';
import type { Inventory } from '../../infra/local/parity';
import { replicateControlClient, type ReplicateControlClient } from '../../infra/local/emulators/replicate';
import { stripeControlClient, type StripeControlClient } from '../../infra/local/emulators/stripe';
import type { CfnTemplate } from '../../infra/local/template';
import type { Twin, TwinOptions } from '../../infra/local/twin';

/** Where the jest global setup leaves the shared twin's description for test files. */
export const SHARED_TWIN_ENV = 'SHARED_TWIN_HANDOFF';

type Email = Awaited<ReturnType<Twin['emails']>>[number];

/**
 * What a test sees of a twin, whether its own or the one shared by every file of a run: the
 * shared twin lives in jest's main process, so everything here is data or a call over HTTP.
 */
export interface TestTwin {
  urls: Twin['urls'];
  admin: Twin['admin'];
  userPoolId: string;
  clientIds: Twin['clientIds'];
  template: CfnTemplate;
  sdkEnv: Record<string, string>;
  /** Physical name of a resource, by the start of its logical id (e.g. 'WaitlistTable'). */
  physicalName(logicalIdPrefix: string): string;
  inventory(): Inventory;
  unsupported(): string[];
  functions(): LocalFunction[];
  emails(): Promise<Email[]>;
  /** Resolves when no event delivery is under way. */
  idle(): Promise<void>;
  deliveries(): Promise<Delivery[]>;
  /** Puts an event on a bus as EventBridge delivers it (the event's id kept, for replays). */
  route(busName: string, event: BusEvent): Promise<void>;
  invoke(functionArn: string, payload: unknown): Promise<unknown>;
  /**
   * Meters and faults (decision 018). Only on a twin started with `instrument: true`
   * (`useTwin({ instrument: true })`, or the shared twin when TWIN_INSTRUMENT=1); otherwise
   * every call rejects saying so.
   */
  instruments: TestInstruments;
  /** The Replicate emulator's faults, latency, predictions and outputs (every call over HTTP). */
  replicate: ReplicateControlClient;
  /** The Stripe emulator's keys, faults, deliveries and clock (every call over HTTP; decision 042). */
  stripe: StripeControlClient;
  events: {
    /**
     * Fires the scheduled rules whose logical id starts with the prefix; resolves once delivered
     * (a state machine target: once its execution started). `time`: as if the schedule fired then.
     */
    runScheduled(ruleLogicalIdPrefix: string, time?: string): Promise<void>;
  };
}

/** Fires scheduled rules through the twin's control plane (`POST /_twin/schedules/<prefix>`). */
async function runScheduled(controlUrl: string, prefix: string, time?: string): Promise<void> {
  const query = time ? `?time=${encodeURIComponent(time)}` : '';
  const res = await fetch(`${controlUrl}/_twin/schedules/${encodeURIComponent(prefix)}${query}`, { method: 'POST' });
  if (!res.ok) throw new Error(((await res.json()) as { message?: string }).message ?? `the control plane answered ${res.status}`);
  await res.body?.cancel();
}

interface TestInstruments {
  meters(): Promise<Meters>;
  reset(): Promise<void>;
  inject(fault: Fault): Promise<void>;
  clear(kind?: FaultKind, name?: string): Promise<void>;
  replay(filter: { source?: string; detailType?: string; detailIncludes?: string }): Promise<number>;
}

const NOT_INSTRUMENTED = 'this twin runs without instruments: start it with instrument: true (useTwin({ instrument: true }), or TWIN_INSTRUMENT=1 for the shared twin)';

/** The serialisable part of a twin, handed from the global setup to the test files. */
export interface TwinHandoff {
  urls: Twin['urls'];
  admin: Twin['admin'];
  userPoolId: string;
  clientIds: Twin['clientIds'];
  sdkEnv: Record<string, string>;
  /** Logical id to physical name, in template order. */
  names: Array<[string, string]>;
  inventory: Inventory;
  unsupported: string[];
  functions: LocalFunction[];
  /** The harness server that runs the twin's in-process calls (see twin-global-setup.ts). */
  harness: string;
  templateFile: string;
  /** What the twin was started with, beyond `fast` (a bench checks it suits it: test/bench/twin.ts). */
  options: SharedTwinOptions;
}

/** The options of a shared twin: those that can be written down for the processes it is handed to. */
export type SharedTwinOptions = Pick<TwinOptions, 'instrument' | 'waitScale' | 'context'>;

/**
 * A twin for a test file. Without options it is the run's shared twin (started once by the
 * integration and e2e projects' global setup), so tests must not rely on empty tables or on
 * counting every email sent: filter by your own unique addresses. Options that change the app
 * (a tiny waitlist capacity, another contact address) start a twin of the file's own, stopped
 * after the file; so do `own: true` (a test that uses up a shared limit) and a run without the
 * global setup.
 */
export function useTwin({ own = false, ...options }: TwinOptions & { own?: boolean } = {}): () => TestTwin {
  const handoff = process.env[SHARED_TWIN_ENV];
  if (!own && Object.keys(options).length === 0 && handoff) {
    let shared: TestTwin | undefined;
    return () => (shared ??= sharedTwin(handoff));
  }
  let twin: TestTwin | undefined;
  let starting: Promise<Twin> | undefined;
  beforeAll(async () => {
    // Loaded here, not at the top: a file on the shared twin never needs the twin's code (about
    // 0.7 s of CPU to load in each test file).
    const { startTwin } = await import('../../infra/local/twin');
    starting = startTwin({ fast: true, ...options });
    twin = ownTwin(await starting);
  }, 240_000);
  afterAll(async () => {
    // Even when the start outlived beforeAll's timeout: a twin left running keeps jest alive.
    await (await starting?.catch(() => undefined))?.stop();
  }, 240_000);
  return () => {
    if (!twin) throw new Error('the twin did not start');
    return twin;
  };
}

/** What a test sees of a twin started in its own process. */
export function ownTwin(twin: Twin): TestTwin {
  return {
    urls: twin.urls,
    admin: twin.admin,
    userPoolId: twin.userPoolId,
    clientIds: twin.clientIds,
    template: twin.template,
    sdkEnv: twin.sdkEnv,
    physicalName: (prefix) => twin.physicalName(prefix),
    inventory: () => twin.inventory(),
    unsupported: () => twin.unsupported(),
    functions: () => twin.functions.functions(),
    emails: () => twin.emails(),
    idle: () => twin.idle(),
    deliveries: async () => [...twin.events.deliveries],
    route: async (bus, event) => twin.events.route(bus, event),
    invoke: (arn, payload) => twin.functions.invoke(arn, payload),
    replicate: replicateControlClient(twin.urls.replicate),
    stripe: stripeControlClient(twin.urls.stripe),
    events: { runScheduled: (prefix, time) => runScheduled(twin.urls.control, prefix, time) },
    instruments: {
      meters: async () => on(twin).meters(),
      reset: async () => on(twin).reset(),
      inject: (fault) => on(twin).inject(fault),
      clear: (kind, name) => on(twin).clear(kind, name),
      replay: async (filter) => on(twin).replay(filter),
    },
  };
}

function on(twin: Twin) {
  if (!twin.instruments) throw new Error(NOT_INSTRUMENTED);
  return twin.instruments;
}

/** What a test sees of the shared twin described in `handoffFile` (SHARED_TWIN_ENV). */
export function sharedTwin(handoffFile: string): TestTwin {
  const h = JSON.parse(fs.readFileSync(handoffFile, 'utf8')) as TwinHandoff;
  let template: CfnTemplate | undefined;
  const call = async (op: string, body: unknown = {}) => {
    const res = await fetch(`${h.harness}/${op}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await res.json()) as { result?: unknown; error?: { name: string; message: string } };
    if (answer.error) throw Object.assign(new Error(answer.error.message), { name: answer.error.name });
    return answer.result;
  };
  return {
    urls: h.urls,
    admin: h.admin,
    userPoolId: h.userPoolId,
    clientIds: h.clientIds,
    get template() {
      return (template ??= JSON.parse(fs.readFileSync(h.templateFile, 'utf8')) as CfnTemplate);
    },
    sdkEnv: h.sdkEnv,
    physicalName: (prefix) => {
      const hit = h.names.find(([id]) => id.startsWith(prefix));
      if (!hit) throw new Error(`No resource whose logical id starts with ${prefix}`);
      return hit[1];
    },
    inventory: () => h.inventory,
    unsupported: () => h.unsupported,
    functions: () => h.functions,
    emails: async () => (await call('emails')) as Email[],
    idle: async () => void (await call('idle')),
    deliveries: async () => (await call('deliveries')) as Delivery[],
    route: async (busName, event) => void (await call('route', { busName, event })),
    invoke: (functionArn, payload) => call('invoke', { functionArn, payload }),
    replicate: replicateControlClient(h.urls.replicate),
    stripe: stripeControlClient(h.urls.stripe),
    events: { runScheduled: (prefix, time) => runScheduled(h.urls.control, prefix, time) },
    instruments: {
      meters: async () => (await call('instruments', { op: 'meters' })) as Meters,
      reset: async () => void (await call('instruments', { op: 'reset' })),
      inject: async (fault) => void (await call('instruments', { op: 'inject', fault })),
      clear: async (kind, name) => void (await call('instruments', { op: 'clear', kind, name })),
      replay: async (filter) => (await call('instruments', { op: 'replay', filter })) as number,
    },
  };
}

export function documentClient(twin: Pick<TestTwin, 'urls'>): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: twin.urls.dynamodb, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } }),
  );
}

/** Every item of a table whose key starts with a prefix. */
export async function itemsWithPrefix(twin: TestTwin, tablePrefix: string, keyPrefix: string): Promise<Record<string, NativeAttributeValue>[]> {
  const doc = documentClient(twin);
  const items: Record<string, NativeAttributeValue>[] = [];
  let start: Record<string, NativeAttributeValue> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: twin.physicalName(tablePrefix),
        ExclusiveStartKey: start,
        ConsistentRead: true,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': keyPrefix },
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * A Cognito client for one person. It calls from a loopback address of its own (127.100-199.x.y),
 * as people call from their own networks: the twin's Cognito enforces the user pool's per-IP WAF
 * rules (decision 040), so test people must not all come from 127.0.0.1.
 */
export function cognitoClient(twin: TestTwin): CognitoIdentityProviderClient {
  const localAddress = `127.${randomInt(100, 200)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  return new CognitoIdentityProviderClient({
    endpoint: twin.urls.cognito,
    region: TWIN_REGION,
    credentials: { ...TWIN_CREDENTIALS },
    requestHandler: { httpAgent: new http.Agent({ localAddress }) },
  });
}

/**
 * Signs in with a password on the given app client and returns the id token. When Cognito
 * asks for a two-factor code it answers with one computed from `totpSecret` (by default the
 * seeded admin's, for the seeded admin).
 */
export async function idToken(
  twin: TestTwin,
  email: string,
  password: string,
  client: 'web' | 'admin' = 'admin',
  totpSecret: string | undefined = email === twin.admin.email ? twin.admin.totpSecret : undefined,
): Promise<string> {
  const cognito = cognitoClient(twin);
  const out = await cognito.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: twin.clientIds[client],
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  if (out.ChallengeName === 'SOFTWARE_TOKEN_MFA') {
    if (!totpSecret) throw new Error(`${email} has two-factor sign-in on; pass its TOTP secret to idToken`);
    const answered = await cognito.send(
      new RespondToAuthChallengeCommand({
        ClientId: twin.clientIds[client],
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: out.Session,
        ChallengeResponses: { USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: totpCode(totpSecret) },
      }),
    );
    return answered.AuthenticationResult!.IdToken!;
  }
  if (!out.AuthenticationResult?.IdToken) throw new Error(`sign-in of ${email} answered ${out.ChallengeName ?? 'no tokens'}`);
  return out.AuthenticationResult.IdToken;
}

/** An answer of the API: its status, its body parsed when it is JSON (each test asserts the shape it expects), its text and headers. */
export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body of any shape
  json: any;
  text: string;
  headers: Headers;
}

async function answerOf(res: Response): Promise<ApiAnswer> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  return answerOf(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** Calls the twin's API at `path`, with the ID token when given and the body as JSON when given. */
export async function callApi(twin: { urls: Pick<TestTwin['urls'], 'api'> }, token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  return answerOf(
    await fetch(`${twin.urls.api}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}
