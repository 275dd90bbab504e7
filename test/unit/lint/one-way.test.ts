import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { ESLint } from 'eslint';

// The one way of each thing as ESLint holds it (eslint.config.js, eslint.local-rules.js): small
// snippets linted as if they sat at a path in the repository, and the docs read for citations.
const root = path.resolve(__dirname, '../../..');
const load = createRequire(__filename);
const config = load(path.join(root, 'eslint.config.js'));
const { outsideCitations } = load(path.join(root, 'eslint.local-rules.js')) as {
  outsideCitations: (text: string, file: string) => string[];
};
const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });

/** The messages of `rule` for `code` placed at `file` (relative to the repository). */
async function errors(rule: string, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

// The resolver's first call loads TypeScript; the machine may be busy with other tests.
jest.setTimeout(60_000);

describe('a handler serves one route', () => {
  const file = 'functions/royalties/routes/my-statements/handler.ts';

  it('refuses a handler that tests the path', async () => {
    const code = "export const handler = (event: { rawPath: string }) => (event.rawPath.endsWith('/csv') ? 1 : 2);\n";
    expect(await errors('no-restricted-syntax', file, code)).toEqual([expect.stringContaining('instead of testing rawPath')]);
    const destructured = 'export const handler = ({ rawPath }: { rawPath: string }) => rawPath.length;\n';
    expect(await errors('no-restricted-syntax', file, destructured)).toEqual([expect.stringContaining('instead of testing rawPath')]);
  });

  it('refuses a handler that branches on the method', async () => {
    const code =
      "export const handler = (event: { requestContext: { http: { method: string } } }) => event.requestContext.http.method === 'PUT';\n";
    expect(await errors('no-restricted-syntax', file, code)).toEqual([expect.stringContaining('instead of branching on it')]);
  });

  it('lets a handler read its path parameters', async () => {
    const code = 'export const handler = (event: { pathParameters?: { id?: string } }) => event.pathParameters?.id;\n';
    expect(await errors('no-restricted-syntax', file, code)).toEqual([]);
  });
});

describe('services call their store by intention', () => {
  it('refuses a service that imports the DynamoDB document client or its commands', async () => {
    for (const from of ['@aws-sdk/lib-dynamodb', '@aws-sdk/client-dynamodb']) {
      const code = `import { UpdateCommand } from '${from}';\nexport const used = UpdateCommand;\n`;
      const found = await errors('no-restricted-imports', 'functions/founding/routes/start-identity-verification/service.ts', code);
      expect(found).toEqual([expect.stringContaining('the store holds the DynamoDB calls')]);
    }
  });

  it('lets the store import them', async () => {
    const code = "import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nexport const used = UpdateCommand;\n";
    expect(await errors('no-restricted-imports', 'functions/founding/store.ts', code)).toEqual([]);
  });
});

describe('a task token is resumed one way', () => {
  const code = "import { SendTaskSuccessCommand } from '@aws-sdk/client-sfn';\nexport const used = SendTaskSuccessCommand;\n";

  it('refuses SendTaskSuccessCommand outside functions/shared/workflows.ts', async () => {
    for (const file of ['functions/generation/steps/await-prediction/handler.ts', 'functions/founding/routes/decide-application/service.ts']) {
      expect(await errors('no-restricted-imports', file, code)).toEqual([expect.stringContaining('resumeTask or failTask')]);
    }
  });

  it('allows it in the one helper', async () => {
    expect(await errors('no-restricted-imports', 'functions/shared/workflows.ts', code)).toEqual([]);
  });
});

describe('citations stay in the repository', () => {
  const file = 'functions/payments/stripe-probe.ts';
  const cite = (text: string) => errors('local/no-outside-citation', file, `// ${text}\nexport const x = 1;\n`);

  it('refuses a comment citing a document the repository does not hold', async () => {
    expect(await cite('Prices as in ROADMAP.md, "Money".')).toEqual([expect.stringContaining('ROADMAP.md')]);
    expect(await cite('See ../../../shared/notes.ts for the reasons.')).toEqual([expect.stringContaining('../../../shared/notes.ts')]);
  });

  it('lets a comment cite the files the repository holds', async () => {
    expect(await cite('How money comes in: docs/payments.md, README.md and ../shared/errors.ts.')).toEqual([]);
  });

  it('finds no such citation in docs/ or the README', () => {
    const pages: string[] = [path.join(root, 'README.md')];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(p);
        else if (entry.name.endsWith('.md')) pages.push(p);
      }
    };
    walk(path.join(root, 'docs'));
    expect(pages.length).toBeGreaterThan(10);
    const found = pages.flatMap((page) => outsideCitations(fs.readFileSync(page, 'utf8'), page).map((cited) => `${path.relative(root, page)}: ${cited}`));
    expect(found).toEqual([]);
  });
});
