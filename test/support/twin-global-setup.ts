import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BusEvent } from '../../infra/local/eventbridge';
import type { Fault, FaultKind } from '../../infra/local/instruments';
import { startTwin, type Twin, type TwinOptions } from '../../infra/local/twin';
import { SHARED_TWIN_ENV, type SharedTwinOptions, type TwinHandoff } from './twin';

/**
 * One twin for every integration and e2e file of a run: starting one per file cost most of
 * CI's time. It lives in jest's main process; test files (in worker processes) read its
 * description from a file named by an environment variable and reach its in-process parts
 * (event deliveries, function invocations, sent mail) through a small HTTP harness.
 */
interface Shared {
  twin: Twin;
  harness: http.Server;
  dir: string;
  log?: fs.WriteStream;
}
const KEY = Symbol.for('humanly.sharedTwin');
const holder = globalThis as unknown as Record<symbol, Promise<Shared> | undefined>;

export default async function setupSharedTwin(): Promise<void> {
  // Both projects name this setup; jest runs it once per project in the same process.
  // TWIN_INSTRUMENT=1 puts the meters and faults on the shared twin too (decision 018).
  await (holder[KEY] ??= start({ instrument: process.env.TWIN_INSTRUMENT === '1' }));
}

export async function teardownSharedTwin(): Promise<void> {
  const shared = holder[KEY];
  holder[KEY] = undefined;
  if (shared) await stop(await shared);
}

/**
 * Starts a fast twin with `options` and hands it to every process started after this (test
 * workers, the benches' quick runs: test/bench/quick.test.ts) through SHARED_TWIN_ENV.
 * Resolves to the function that stops it.
 */
export async function shareTwin(options: SharedTwinOptions = {}): Promise<() => Promise<void>> {
  const shared = await start(options);
  return () => stop(shared);
}

async function stop({ twin, harness, dir, log }: Shared): Promise<void> {
  if (process.env[SHARED_TWIN_ENV]?.startsWith(dir)) delete process.env[SHARED_TWIN_ENV];
  harness.closeAllConnections();
  await new Promise((r) => harness.close(r));
  await twin.stop();
  log?.end();
  fs.rmSync(dir, { recursive: true, force: true });
}

async function start(options: SharedTwinOptions): Promise<Shared> {
  const started = Date.now();
  // TWIN_LOG_FILE (set by test/support/run-projects.ts for each step): the functions' logs and the
  // emulators' notes go there, so a failed step can show what the twin did.
  const logFile = process.env.TWIN_LOG_FILE;
  const log = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : undefined;
  const twinOptions: TwinOptions = { fast: true, ...(log && { log: (line: string) => log.write(`${line}\n`) }), ...options };
  const twin = await startTwin(twinOptions);
  try {
    const harness = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        operate(twin, String(req.url).slice(1), body).then(
          (result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: result ?? null })),
          (err: Error) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { name: err.name, message: err.message } })),
        );
      });
    });
    await new Promise<void>((r) => harness.listen(0, '127.0.0.1', r));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-twin-'));
    const templateFile = path.join(dir, 'template.json');
    fs.writeFileSync(templateFile, JSON.stringify(twin.template));
    const names: Array<[string, string]> = [];
    for (const id of Object.keys(twin.template.Resources)) {
      try {
        names.push([id, twin.physicalName(id)]);
      } catch {
        // not a named resource (tables, buckets and buses are)
      }
    }
    const handoff: TwinHandoff = {
      urls: twin.urls,
      admin: twin.admin,
      userPoolId: twin.userPoolId,
      clientIds: twin.clientIds,
      sdkEnv: twin.sdkEnv,
      names,
      inventory: twin.inventory(),
      unsupported: twin.unsupported(),
      functions: twin.functions.functions(),
      harness: `http://127.0.0.1:${(harness.address() as { port: number }).port}`,
      templateFile,
      options,
    };
    const file = path.join(dir, 'twin.json');
    fs.writeFileSync(file, JSON.stringify(handoff));
    // Workers start after the global setup, so they inherit this.
    process.env[SHARED_TWIN_ENV] = file;
    process.stderr.write(`\nShared twin started in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return { twin, harness, dir, log };
  } catch (err) {
    await twin.stop();
    log?.end();
    throw err;
  }
}

interface HarnessCall {
  busName: string;
  event: BusEvent;
  functionArn: string;
  payload: unknown;
  op: 'meters' | 'reset' | 'inject' | 'clear' | 'replay';
  fault: Fault;
  kind?: FaultKind;
  name?: string;
  filter: { source?: string; detailType?: string; detailIncludes?: string };
}

async function operate(twin: Twin, op: string, body: HarnessCall): Promise<unknown> {
  switch (op) {
    case 'emails':
      return twin.emails();
    case 'idle':
      return twin.idle();
    case 'deliveries':
      return twin.events.deliveries;
    case 'route':
      return twin.events.route(body.busName, body.event);
    case 'invoke':
      return twin.functions.invoke(body.functionArn, body.payload);
    case 'instruments': {
      const instruments = twin.instruments;
      if (!instruments) throw new Error('the shared twin runs without instruments: set TWIN_INSTRUMENT=1 for the run, or use useTwin({ instrument: true })');
      switch (body.op) {
        case 'meters':
          return instruments.meters();
        case 'reset':
          return instruments.reset();
        case 'inject':
          return instruments.inject(body.fault);
        case 'clear':
          return instruments.clear(body.kind, body.name);
        case 'replay':
          return instruments.replay(body.filter);
      }
      throw new Error(`the instruments have no operation ${body.op}`);
    }
  }
  throw new Error(`the shared twin's harness has no operation ${op}`);
}
