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
