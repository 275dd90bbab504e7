// Shared plumbing for the local twin's emulators: loopback ports, the twin's fixed credentials,
// readiness polling and child processes that never outlive the twin.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every emulator binds here; `localhost` can resolve to ::1 and breaks S3 path-style URLs. */
export const LOOPBACK = '127.0.0.1';

/** The region the twin pretends to be in (tokens, ARNs, SigV4 scopes). */
export const TWIN_REGION = 'us-east-1';

/**
 * The only credentials the twin accepts where an emulator checks signatures (S3).
 * Not frozen, and pass a copy to SDK clients (`{ ...TWIN_CREDENTIALS }`): the SDK v3 writes
 * bookkeeping (`$source`) onto the credentials object and throws on a frozen one.
 */
export const TWIN_CREDENTIALS: { readonly accessKeyId: string; readonly secretAccessKey: string } = {
  accessKeyId: 'twin',
  secretAccessKey: 'twin-secret',
};

/** Options every `startX` function accepts. */
export interface EmulatorOptions {
  /** 0 or undefined: let the OS pick a free port. */
  port?: number;
  /** Forward the emulator's own logging to this process's stdout/stderr. */
  verbose?: boolean;
}

/** What every `startX` function resolves to. */
export interface EmulatorHandle {
  /** `http://127.0.0.1:PORT` */
  endpoint: string;
  port: number;
  /** Stops the emulator and releases every handle (process, socket, timer, temp dir). */
  stop(): Promise<void>;
}

/**
 * Listens on 127.0.0.1:`port`; a port taken meanwhile rejects (EADDRINUSE) instead of crashing
 * the process with an unhandled 'error' event, so the start can try fresh ports.
 */
export function listenOnLoopback(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Asks the OS for a port that is free on 127.0.0.1 right now. */
async function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

/** `port` when it is a real port, otherwise a free one. */
export async function resolvePort(port?: number): Promise<number> {
  return port ? port : getFreePort();
}

/**
 * Starts an emulator on a port the OS picked, again on a new one if the first was taken before
 * the emulator bound it: a child process (Java, above all) binds a second or more after the port
 * was found free, and twins starting side by side in a test run can pick the same port then.
 * A port the caller chose is never changed.
 */
export async function withFreshPortOnClash<T>(requested: number | undefined, start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      const clash = /Address already in use|EADDRINUSE|BindException/.test((err as Error).message);
      if (requested || !clash || attempt >= attempts) throw err;
    }
  }
}

export function endpointFor(port: number): string {
  return `http://${LOOPBACK}:${port}`;
}

/**
 * How long a child-process emulator (DynamoDB Local's JVM, cognito-local) may take to answer its
 * first call. A dead process fails the wait at once (`failFast`), so this bounds only a live one
 * that is slow: on 2 cores busy with tests, a JVM started at the lowest CPU priority (the benches'
 * twins) has taken over 30 s, and its share of the CPU can stay near nothing for minutes.
 */
export const EMULATOR_START_TIMEOUT_MS = 180_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it resolves truthy. `failFast` is checked between attempts and aborts the
 * wait with its message (e.g. the child process died).
 */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  opts: { timeoutMs?: number; intervalMs?: number; failFast?: () => string | undefined } = {},
): Promise<void> {
  const { timeoutMs = 30_000, intervalMs = 50 } = opts;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const reason = opts.failFast?.();
    if (reason) throw new Error(`${what}: ${reason}`);
    try {
      if (await probe()) return;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`${what}: not ready after ${timeoutMs} ms${detail}`);
    }
    await sleep(intervalMs);
  }
}

// One 'exit' listener for everything: SIGKILL the children still running and remove the temp
// dirs still registered when this process exits, so a crashed test run or an aborted `npm start`
// leaves no Java or Node emulator (or data) behind. ('exit' does not fire when the process is
// killed by a signal it does not handle; the twin's launcher handles SIGINT/SIGTERM.)
const liveChildren = new Set<ChildProcess>();
const liveTempDirs = new Set<string>();
let exitHookInstalled = false;
function onProcessExit() {
  for (const child of liveChildren) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const dir of liveTempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
}
function installExitHook() {
  if (exitHookInstalled) return;
  process.on('exit', onProcessExit);
  exitHookInstalled = true;
}

/** Creates a temp dir that is removed on process exit unless `release`d (removed) first. */
export async function makeTempDir(prefix: string): Promise<{ path: string; release(): Promise<void> }> {
  installExitHook();
  const path = await mkdtemp(join(tmpdir(), prefix));
  liveTempDirs.add(path);
  return {
    path,
    async release() {
      liveTempDirs.delete(path);
      await rm(path, { recursive: true, force: true });
    },
  };
}

export interface ManagedChild {
  child: ChildProcess;
  /** Last ~16 KB of the child's stdout+stderr, for error messages. */
  output(): string;
  /** Set once the child has exited. */
  exitReason(): string | undefined;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process and its pipes are closed. */
  stop(graceMs?: number): Promise<void>;
}

export function spawnManaged(
  name: string,
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; verbose?: boolean },
): ManagedChild {
  installExitHook();
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  let buffer = '';
  const collect = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
    buffer = (buffer + chunk.toString('utf8')).slice(-16_384);
    if (opts.verbose) stream.write(`[${name}] ${chunk.toString('utf8')}`);
  };
  child.stdout?.on('data', collect(process.stdout));
  child.stderr?.on('data', collect(process.stderr));

  let exited: string | undefined;
  let spawnError: Error | undefined;
  const closed = new Promise<void>((resolve) => {
    child.once('error', (err) => {
      spawnError = err;
      exited = `could not start ${command}: ${err.message}`;
      liveChildren.delete(child);
      resolve();
    });
    child.once('close', (code, signal) => {
      exited ??= `exited with ${signal ?? `code ${code}`}\n${buffer.slice(-4000)}`;
      liveChildren.delete(child);
      resolve();
    });
  });

  return {
    child,
    output: () => buffer,
    exitReason: () => exited,
    async stop(graceMs = 3000) {
      if (!exited && !spawnError) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await closed;
        clearTimeout(timer);
      }
      await closed;
    },
  };
}
