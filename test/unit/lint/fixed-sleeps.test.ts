import { createRequire } from 'node:module';
import * as path from 'node:path';
import { ESLint } from 'eslint';

// Tests wait for conditions, never for a length of time (decision 053): the lint rule that keeps
// fixed sleeps out of test/, shown firing on each shape of sleep and quiet on the waits that remain.
const root = path.resolve(__dirname, '../../..');
// The repository's own config, handed over as loaded (see boundaries.test.ts).
const config = createRequire(__filename)(path.join(root, 'eslint.config.js'));
const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });

/** The fixed-sleep errors ESLint reports for `code` placed at `file` (relative to the repository). */
async function sleeps(file: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax' && m.message.includes('decision 053')).length;
}

jest.setTimeout(60_000);

const TEST_FILE = 'test/integration/probe.test.ts';

describe('fixed sleeps in tests', () => {
  it.each([
    ['a promise resolved by a timer', 'export async function f() {\n  await new Promise((r) => setTimeout(r, 2000));\n}\n'],
    ['a timer calling the resolver', 'export async function f() {\n  await new Promise<void>((resolve) => {\n    setTimeout(() => resolve(), 500);\n  });\n}\n'],
    ['a sleep helper', 'declare function sleep(ms: number): Promise<void>;\nexport async function f() {\n  await sleep(200);\n}\n'],
    ['a delay helper', 'declare function delay(ms: number): Promise<void>;\nexport async function f() {\n  await delay(200);\n}\n'],
    ["Playwright's waitForTimeout", 'declare const page: { waitForTimeout(ms: number): Promise<void> };\nexport async function f() {\n  await page.waitForTimeout(150);\n}\n'],
    ["node:timers/promises' setTimeout", "import { setTimeout as wait } from 'node:timers/promises';\nexport const f = () => wait(100);\n"],
    ['a promisified setTimeout', "import { promisify } from 'node:util';\nexport const wait = promisify(setTimeout);\n"],
  ])('fires on %s', async (_, code) => {
    expect(await sleeps(TEST_FILE, code)).toBe(1);
  });

  it('stays quiet on a wait for a condition, a time-out timer and a turn of the event loop', async () => {
    const code = [
      "import { eventually } from '../support/eventually';",
      'declare const done: () => boolean;',
      'export async function f() {',
      "  await eventually(() => done(), { what: 'done' });",
      '  const controller = new AbortController();',
      '  setTimeout(() => controller.abort(), 20);',
      '  await new Promise((r) => setImmediate(r));',
      '  await new Promise((_, reject) => setTimeout(() => reject(new Error("late")), 5000));',
      '}',
      '',
    ].join('\n');
    expect(await sleeps(TEST_FILE, code)).toBe(0);
  });

  it('lets eventually() pause between tries, and checks no code outside test/', async () => {
    const sleep = 'export async function f() {\n  await new Promise((r) => setTimeout(r, 20));\n}\n';
    expect(await sleeps('test/support/eventually.ts', sleep)).toBe(0);
    expect(await sleeps('functions/shared/probe.ts', sleep)).toBe(0);
    expect(await sleeps('test/bench/probe.ts', sleep)).toBe(1);
  });
});
