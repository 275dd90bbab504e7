import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FunctionRuntime } from '../../../infra/local/functions';
import { Resolver, type CfnTemplate } from '../../../infra/local/template';
import { eventually } from '../../support/eventually';
import type { TimeoutFunctionEvent } from './fixtures/timeout-function';

jest.setTimeout(60_000);

// One function with a one-second time-out (Lambda's smallest), bundled and run as the twin runs
// every function of the template.
const template = {
  Resources: {
    Sleeper: {
      Type: 'AWS::Lambda::Function',
      Metadata: { 'app:entry': 'test/unit/local/fixtures/timeout-function.ts' },
      Properties: { Handler: 'index.handler', Timeout: 1, MemorySize: 128 },
    },
  },
} as unknown as CfnTemplate;

type Answer = { environment: number; invocations: number };

describe('the twin stops a function at its time-out, as Lambda does', () => {
  let dir: string;
  let runtime: FunctionRuntime;
  const logged: string[] = [];
  const cacheSetting = process.env.TWIN_CACHE;
  const invoke = (event: TimeoutFunctionEvent) => runtime.invoke('Sleeper', event) as Promise<Answer>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'twin-timeout-'));
    // The fixture's bundle goes to this test's own folder, not the shared bundle cache.
    process.env.TWIN_CACHE = 'off';
    runtime = new FunctionRuntime(template, new Resolver(template), {}, { buildDir: path.join(dir, 'build'), log: (_fn, line) => logged.push(line) });
    await runtime.start();
  });

  afterAll(async () => {
    await runtime?.stop();
    if (cacheSetting === undefined) delete process.env.TWIN_CACHE;
    else process.env.TWIN_CACHE = cacheSetting;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stoppedAfterTimeout = () => logged.filter((l) => l.startsWith('worker stopped after a time-out')).length;

  it('never does the work after the time-out, and the next invocation is a cold start', async () => {
    const warm = await invoke({});
    expect(await invoke({})).toEqual({ environment: warm.environment, invocations: warm.invocations + 1 });

    const marker = path.join(dir, 'after-timeout');
    const stopsBefore = stoppedAfterTimeout();
    await expect(invoke({ sleepMs: 3_000, marker })).rejects.toMatchObject({ name: 'TimeoutError', message: 'Task timed out after 1 seconds' });
    expect(fs.existsSync(`${marker}.started`)).toBe(true);

    // Once its worker has stopped, the rest of the handler can never run.
    await eventually(() => stoppedAfterTimeout() > stopsBefore, { what: 'the timed-out worker to be stopped', timeoutMs: 10_000 });
    expect(fs.existsSync(marker)).toBe(false);

    // A fresh environment: another worker, its module state from the start.
    const cold = await invoke({});
    expect(cold.environment).not.toBe(warm.environment);
    expect(cold.invocations).toBe(1);
    expect(await invoke({})).toEqual({ environment: cold.environment, invocations: 2 });
  });

  it('fails an invocation at once when its worker crashes, and the next gets a fresh one', async () => {
    const before = await invoke({});
    const started = Date.now();
    await expect(invoke({ crash: true })).rejects.toMatchObject({ name: 'Runtime.ExitError', message: expect.stringContaining('Sleeper') });
    // Not the time-out: the crash itself ends the invocation.
    expect(Date.now() - started).toBeLessThan(1_000);
    const after = await invoke({});
    expect(after.environment).not.toBe(before.environment);
    expect(after.invocations).toBe(1);
  });
});

describe('the twin gives each invocation its own time-out, however many start at once', () => {
  let dir: string;
  let runtime: FunctionRuntime;
  const cacheSetting = process.env.TWIN_CACHE;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'twin-turns-'));
    process.env.TWIN_CACHE = 'off';
    // One invocation at a time on the worker, so four CPU-bound ones are plainly more than it runs at once.
    runtime = new FunctionRuntime(template, new Resolver(template), {}, { buildDir: path.join(dir, 'build'), invocationsPerWorker: 1 });
    await runtime.start();
  });

  afterAll(async () => {
    await runtime?.stop();
    if (cacheSetting === undefined) delete process.env.TWIN_CACHE;
    else process.env.TWIN_CACHE = cacheSetting;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs invocations beyond the bound in turn, each timed from its turn, in one environment', async () => {
    const warm = (await runtime.invoke('Sleeper', {})) as Answer;
    // Four invocations of 0.4 s of CPU each, started together, with a 1 s time-out: all four
    // running on the worker from the start would end at 0.4, 0.8, 1.2 and 1.6 s, the last two
    // past their time-out.
    const answers = (await Promise.all(Array.from({ length: 4 }, () => runtime.invoke('Sleeper', { busyMs: 400 })))) as Answer[];
    expect(answers.map((a) => a.environment)).toEqual(Array(4).fill(warm.environment));
    expect(answers.map((a) => a.invocations).sort()).toEqual([2, 3, 4, 5]);
  });

  it('fails the invocations still waiting for their turn when the twin stops', async () => {
    const running = runtime.invoke('Sleeper', { sleepMs: 300 });
    const waiting = runtime.invoke('Sleeper', {});
    const settled = Promise.allSettled([running, waiting]);
    await runtime.stop();
    const [ran, waited] = await settled;
    expect(waited).toMatchObject({ status: 'rejected', reason: { name: 'ServiceException', message: 'The twin stopped before the invocation ran' } });
    expect(ran).toMatchObject({ status: 'rejected', reason: { name: 'ServiceException' } });
  });
});
