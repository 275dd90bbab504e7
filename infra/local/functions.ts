import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ENTRY_METADATA, NODE_MODULES_METADATA } from '../lib/platform/template-names';
import { bundlePaths } from './bundle-cache';
import type { Instruments } from './instruments';
import { LOCAL_ACCOUNT, LOCAL_REGION, resourcesOfType, type CfnTemplate, type Resolver } from './template';

export interface LocalFunction {
  logicalId: string;
  name: string;
  arn: string;
  entry: string;
  timeoutMs: number;
  /** The template's MemorySize (MB). */
  memoryMb: number;
  /** Packages left out of the bundle; the bundle resolves them from the repo's node_modules. */
  nodeModules: string[];
}

class LambdaError extends Error {
  constructor(name: string, message: string, readonly functionName: string) {
    super(message);
    this.name = name;
  }
}

/** An invocation in flight, on the worker that runs it. */
type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout; worker: Worker };

/**
 * How many invocations of one function its worker runs at once. On Lambda each concurrent
 * invocation has an environment of its own; the twin runs them in one worker thread, where they
 * share its CPU. Without a bound, 200 invocations started together each counted its time-out
 * while the other 199 ran, and a busy machine turned that into time-outs Lambda would never
 * give. Beyond the bound an invocation waits its turn (as one waits for a new environment), and
 * its time-out counts from its turn.
 */
const INVOCATIONS_PER_WORKER = 16;

/** A function's invocations running on its worker, and those waiting for their turn. */
interface Turns {
  running: number;
  waiting: Array<{ go: () => void; fail: (e: Error) => void }>;
}

/** A function's worker (its execution environment) and its init phase. */
interface PooledWorker {
  worker: Worker;
  /** Resolves once the module has loaded. */
  ready: Promise<Worker>;
}

/** The template's functions that have a source entry, with their twin names and ARNs. */
export function templateFunctions(template: CfnTemplate): LocalFunction[] {
  return resourcesOfType(template, 'AWS::Lambda::Function')
    .filter(([, r]) => r.Metadata?.[ENTRY_METADATA])
    .map(([logicalId, r]) => ({
      logicalId,
      name: logicalId,
      arn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${logicalId}`,
      entry: r.Metadata![ENTRY_METADATA],
      timeoutMs: Number(r.Properties?.Timeout ?? 3) * 1000,
      memoryMb: Number(r.Properties?.MemorySize ?? 128),
      nodeModules: r.Metadata?.[NODE_MODULES_METADATA] ?? [],
    }));
}

/**
 * Runs the template's Lambda functions: each is bundled with the deploy bundling options and
 * loaded in its own worker thread with exactly the environment the template gives it.
 */
export class FunctionRuntime {
  /** The warm worker of each function; a worker stopped at a time-out or crashed is no longer here. */
  private readonly workers = new Map<string, PooledWorker>();
  private readonly pending = new Map<string, Pending>();
  private readonly turns = new Map<string, Turns>();
  private readonly byName = new Map<string, LocalFunction>();
  /** Each function's bundle, by logical id (several functions of one entry share one). */
  private readonly bundles = new Map<string, string>();
  private stopped = false;

  constructor(
    private readonly template: CfnTemplate,
    private readonly resolver: Resolver,
    private readonly baseEnv: Record<string, string>,
    private readonly opts: {
      /** Where bundles go when the cache is off (`TWIN_CACHE=off`). */
      buildDir: string;
      log?: (fn: string, line: string) => void;
      instruments?: Instruments;
      /** Variables that win over the template's (a third-party API's address, pointed at its emulator). */
      envOverrides?: Record<string, string>;
      /** Invocations of one function that run at once (default INVOCATIONS_PER_WORKER). */
      invocationsPerWorker?: number;
    },
  ) {
    for (const fn of templateFunctions(template)) this.byName.set(fn.name, fn);
  }

  functions(): LocalFunction[] {
    return [...this.byName.values()];
  }

  /**
   * Bundles every function (in parallel; from the bundle cache when its sources did not change),
   * so a function that does not build fails the start.
   * Each function's worker starts at its first invocation, as a Lambda container does: most
   * twins (a test's, a bench's) call a few of the functions, and loading every bundle up front
   * took most of a twin's start.
   */
  async start(): Promise<void> {
    const fns = this.functions();
    const paths = await bundlePaths(fns, this.opts.buildDir);
    fns.forEach((fn, i) => this.bundles.set(fn.logicalId, paths[i]));
  }

  private bundlePath(fn: LocalFunction): string {
    const bundle = this.bundles.get(fn.logicalId);
    if (!bundle) throw new Error(`${fn.logicalId} has no bundle: the runtime has not started`);
    return bundle;
  }

  /** The function's worker, started on first use; resolves once its module has loaded (the init phase). */
  private worker(fn: LocalFunction): Promise<Worker> {
    let pooled = this.workers.get(fn.name);
    if (!pooled) {
      const started = this.startWorker(fn);
      this.workers.set(fn.name, started);
      // A worker whose module failed to load is started again on the next invocation.
      started.ready.catch(() => this.leavePool(fn, started.worker));
      pooled = started;
    }
    return pooled.ready;
  }

  /** Takes `worker` out of the pool if it is still there: the next invocation starts a fresh one. */
  private leavePool(fn: LocalFunction, worker: Worker): void {
    if (this.workers.get(fn.name)?.worker === worker) this.workers.delete(fn.name);
  }

  /** Fails every invocation still in flight on `worker` (which has stopped or is stopping). */
  private failInFlight(worker: Worker, error: () => Error): void {
    for (const [id, p] of this.pending) {
      if (p.worker !== worker) continue;
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(error());
    }
  }

  /**
   * Lambda stops an execution environment whose invocation ran past its time-out: nothing the
   * handler would still have done happens, and the next invocation gets a fresh environment (a
   * cold start). The twin does the same with the worker: out of the pool at once, then
   * terminated. Invocations sharing the worker (the twin's one difference: on Lambda each has
   * its own environment) fail with it rather than keep running in a worker that is being stopped.
   */
  private stopAtTimeout(fn: LocalFunction, worker: Worker): void {
    this.leavePool(fn, worker);
    this.failInFlight(
      worker,
      () =>
        new LambdaError(
          'Runtime.ExitError',
          `${fn.name} was stopped during the invocation: another invocation sharing its twin worker timed out (on Lambda each has an environment of its own)`,
          fn.name,
        ),
    );
    void worker.terminate().then(
      () => this.opts.log?.(fn.name, `worker stopped after a time-out of ${fn.timeoutMs / 1000} s; the next invocation starts a new one`),
      (err: Error) => this.opts.log?.(fn.name, `worker could not be stopped after its time-out: ${err.message}`),
    );
  }

  private startWorker(fn: LocalFunction): PooledWorker {
    const props = this.template.Resources[fn.logicalId].Properties ?? {};
    const templateEnv: Record<string, string> = this.resolver.resolve(props.Environment?.Variables ?? {});
    const worker = new Worker(path.join(__dirname, 'lambda-worker.js'), {
      workerData: { bundlePath: this.bundlePath(fn), handlerExport: String(props.Handler ?? 'index.handler').split('.').pop() },
      env: {
        ...this.baseEnv,
        ...templateEnv,
        ...this.opts.envOverrides,
        AWS_LAMBDA_FUNCTION_NAME: fn.name,
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(props.MemorySize ?? 128),
      },
      stdout: true,
      stderr: true,
    });
    const forward = (stream: NodeJS.ReadableStream) => {
      let buffered = '';
      stream.setEncoding?.('utf8');
      stream.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) this.opts.log?.(fn.name, line);
      });
    };
    forward(worker.stdout);
    forward(worker.stderr);
    worker.unref();
    const ready = new Promise<Worker>((resolve, reject) => {
      worker.on('message', (msg: { id?: string; ready?: boolean; result?: unknown; error?: { name: string; message: string } }) => {
        if (msg.ready) {
          resolve(worker);
          return;
        }
        const p = msg.id ? this.pending.get(msg.id) : undefined;
        if (!p) return;
        this.pending.delete(msg.id!);
        clearTimeout(p.timer);
        if (msg.error) p.reject(new LambdaError(msg.error.name, msg.error.message, fn.name));
        else p.resolve(msg.result);
      });
      worker.on('error', (err) => {
        this.opts.log?.(fn.name, `worker crashed: ${err.message}`);
        reject(new LambdaError('Runtime.ImportModuleError', err.message, fn.name));
      });
      // However it ended (crashed, stopped at a time-out, the twin stopping), a worker that has
      // exited serves nothing more: out of the pool, and what was in flight on it fails now
      // instead of waiting for its time-out.
      worker.on('exit', (code) => {
        this.leavePool(fn, worker);
        this.failInFlight(worker, () => new LambdaError('Runtime.ExitError', `${fn.name}'s worker exited (code ${code}) during the invocation`, fn.name));
        reject(new LambdaError('Runtime.ImportModuleError', `${fn.name}'s worker exited (code ${code}) before its module loaded`, fn.name));
      });
    });
    return { worker, ready };
  }

  /** Resolves a function name, ARN or `...:function:name:alias` to the function. */
  find(nameOrArn: string): LocalFunction | undefined {
    const name = nameOrArn.startsWith('arn:') ? nameOrArn.split(':')[6] : nameOrArn;
    return this.byName.get(name);
  }

  async invoke(nameOrArn: string, event: unknown): Promise<unknown> {
    // A stopped runtime starts no worker and no time-out timer (which would keep the process alive).
    if (this.stopped) throw new LambdaError('ServiceException', 'The twin has stopped', nameOrArn);
    const fn = this.find(nameOrArn);
    if (!fn) throw new LambdaError('ResourceNotFoundException', `Function not found: ${nameOrArn}`, nameOrArn);
    const end = await this.turn(fn);
    try {
      return await this.metered(fn, event);
    } finally {
      end();
    }
  }

  /** Runs the invocation, metered (and faulted) when the twin has instruments: from its turn, as Lambda bills. */
  private async metered(fn: LocalFunction, event: unknown): Promise<unknown> {
    const instruments = this.opts.instruments;
    if (!instruments) return this.run(fn, event);
    const fault = instruments.functionFault(fn.name);
    const started = performance.now();
    instruments.invocationStarted();
    const meter = (failed: boolean) => instruments.invocation(fn.name, fn.memoryMb, performance.now() - started, failed);
    if (fault === 'throw') {
      meter(true);
      instruments.invocationEnded();
      throw new LambdaError('Error', `${fn.name} failed (twin fault)`, fn.name);
    }
    try {
      const result = await this.run(fn, event);
      if (fault === 'slow') throw new LambdaError('TimeoutError', `Task timed out after ${fn.timeoutMs / 1000} seconds`, fn.name);
      meter(false);
      return result;
    } catch (err) {
      // A slow invocation is billed for its whole time-out, as Lambda bills one it stops.
      if (fault === 'slow') instruments.invocation(fn.name, fn.memoryMb, fn.timeoutMs, true);
      else meter(true);
      throw err;
    } finally {
      instruments.invocationEnded();
    }
  }

  /** Waits for the function's turn (see INVOCATIONS_PER_WORKER); resolves to the function that ends it. */
  private async turn(fn: LocalFunction): Promise<() => void> {
    let turns = this.turns.get(fn.name);
    if (!turns) this.turns.set(fn.name, (turns = { running: 0, waiting: [] }));
    const t = turns;
    if (t.running < (this.opts.invocationsPerWorker ?? INVOCATIONS_PER_WORKER)) t.running++;
    // The invocation that ends hands its turn straight to the next waiting one.
    else await new Promise<void>((go, fail) => t.waiting.push({ go, fail }));
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const next = t.waiting.shift();
      if (next) next.go();
      else t.running--;
    };
  }

  /** Runs one invocation on the function's worker; its time-out counts from here. */
  private async run(fn: LocalFunction, event: unknown): Promise<unknown> {
    // The time-out counts from the handler's start, not the cold start (Lambda's init phase has its own).
    let worker = await this.worker(fn);
    // A worker stopped (another invocation's time-out) between its start and now is not used.
    while (!this.stopped && this.workers.get(fn.name)?.worker !== worker) worker = await this.worker(fn);
    if (this.stopped) throw new LambdaError('ServiceException', 'The twin stopped during the invocation', fn.name);
    const id = randomUUID();
    const deadline = Date.now() + fn.timeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new LambdaError('TimeoutError', `Task timed out after ${fn.timeoutMs / 1000} seconds`, fn.name));
        this.stopAtTimeout(fn, worker);
      }, fn.timeoutMs);
      this.pending.set(id, { resolve, reject, timer, worker });
      worker.postMessage({
        id,
        event,
        context: {
          awsRequestId: id,
          functionName: fn.name,
          invokedFunctionArn: fn.arn,
          memoryLimitInMB: String(fn.memoryMb),
          deadline,
        },
      });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const turns of this.turns.values()) {
      for (const w of turns.waiting.splice(0)) w.fail(new LambdaError('ServiceException', 'The twin stopped before the invocation ran', ''));
    }
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new LambdaError('ServiceException', 'The twin stopped during the invocation', ''));
    }
    this.pending.clear();
    const started = await Promise.allSettled([...this.workers.values()].map((w) => w.ready));
    await Promise.all(started.flatMap((w) => (w.status === 'fulfilled' ? [w.value.terminate()] : [])));
    this.workers.clear();
  }
}
