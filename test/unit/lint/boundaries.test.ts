import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { ESLint } from 'eslint';

// The import table of docs/architecture.md ("Folders") as ESLint holds it: small snippets are
// linted as if they sat at a path in the repository (the file need not exist; what it imports
// must, for the resolver to find it).
const root = path.resolve(__dirname, '../../..');
// The repository's own config, handed over as loaded: ESLint would load eslint.config.js with a
// dynamic import, which jest's module sandbox refuses.
const config = createRequire(__filename)(path.join(root, 'eslint.config.js'));
const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });

/** The boundary errors ESLint reports for `code` placed at `file` (relative to the repository). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

const importing = (from: string) => `import * as imported from '${from}';\nexport const used = imported;\n`;

// The resolver's first call loads TypeScript; the machine may be busy with other tests.
jest.setTimeout(60_000);

describe('wings', () => {
  const wings = fs
    .readdirSync(path.join(root, 'functions'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'shared')
    .map((e) => e.name);

  it('every wing reaches another wing only through its index.ts', async () => {
    expect(wings.length).toBeGreaterThan(1);
    for (const wing of wings) {
      const other = wing === 'catalog' ? 'founding' : 'catalog';
      const file = `functions/${wing}/boundary-probe.ts`;
      expect(await boundaryErrors(file, importing(`../${other}/store`))).toEqual([expect.stringContaining('through its index.ts')]);
      expect(await boundaryErrors(file, importing(`../${other}`))).toEqual([]);
    }
  });

  it('a route reaches another wing only through its index.ts', async () => {
    const file = 'functions/royalties/routes/my-statements/boundary-probe.ts';
    expect(await boundaryErrors(file, importing('../../../accounts/access'))).toHaveLength(1);
    expect(await boundaryErrors(file, importing('../../../accounts'))).toEqual([]);
  });

  it('a route folder imports no other route, step or trigger folder, but its wing, shared and events', async () => {
    const file = 'functions/accounts/routes/update-me/boundary-probe.ts';
    expect(await boundaryErrors(file, importing('../get-me/service'))).toEqual([expect.stringContaining('move what two folders share')]);
    expect(await boundaryErrors('functions/founding/routes/preview-decision-email/boundary-probe.ts', importing('../../steps/send-application-email/service'))).toHaveLength(1);
    expect(await boundaryErrors(file, importing('./handler'))).toEqual([]);
    expect(await boundaryErrors(file, importing('../../profile'))).toEqual([]);
    expect(await boundaryErrors(file, importing('../../../shared/errors'))).toEqual([]);
    expect(await boundaryErrors(file, importing('../../../../events/accounts'))).toEqual([]);
  });

  it("a wing's own modules import none of its route, step or trigger folders", async () => {
    expect(await boundaryErrors('functions/accounts/boundary-probe.ts', importing('./routes/get-me/service'))).toHaveLength(1);
    expect(await boundaryErrors('functions/founding/emails/boundary-probe.ts', importing('../steps/send-application-email/service'))).toHaveLength(1);
    expect(await boundaryErrors('functions/founding/emails/boundary-probe.ts', importing('../store'))).toEqual([]);
  });
});

describe('shared, events, infra and the sites', () => {
  it('functions/shared imports no wing, not even its index', async () => {
    expect(await boundaryErrors('functions/shared/boundary-probe.ts', importing('../accounts'))).toHaveLength(1);
    expect(await boundaryErrors('functions/shared/boundary-probe.ts', importing('../catalog/store'))).toHaveLength(1);
    expect(await boundaryErrors('functions/shared/boundary-probe.ts', importing('./errors'))).toEqual([]);
    expect(await boundaryErrors('functions/shared/boundary-probe.ts', importing('../../events/product'))).toEqual([]);
  });

  it('events/ imports nothing of ours but events/', async () => {
    expect(await boundaryErrors('events/boundary-probe.ts', importing('../functions/shared/errors'))).toHaveLength(1);
    expect(await boundaryErrors('events/boundary-probe.ts', importing('../infra/local/totp'))).toHaveLength(1);
    expect(await boundaryErrors('events/boundary-probe.ts', importing('./product'))).toEqual([]);
  });

  it('infra/lib imports no runtime code', async () => {
    expect(await boundaryErrors('infra/lib/boundary-probe.ts', importing('../../functions/shared/errors'))).toHaveLength(1);
    expect(await boundaryErrors('infra/lib/boundary-probe.ts', importing('../../functions/catalog'))).toHaveLength(1);
    expect(await boundaryErrors('infra/lib/boundary-probe.ts', importing('../../events/product'))).toEqual([]);
  });

  it('the site and the console import events/ only of our code', async () => {
    expect(await boundaryErrors('web/src/boundary-probe.ts', importing('../../functions/shared/errors'))).toHaveLength(1);
    expect(await boundaryErrors('admin/src/boundary-probe.ts', importing('../../infra/local/totp'))).toHaveLength(1);
    expect(await boundaryErrors('web/src/boundary-probe.ts', importing('../../events/product'))).toEqual([]);
  });
});
