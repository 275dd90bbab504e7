// ESLint for the whole repository (`npm run lint`): typescript-eslint everywhere, the rules of
// hooks in the two React apps, no import cycles, the import table of docs/architecture.md (wings,
// shared, events, infra, sites), and no page importing another page's files.
const fs = require('node:fs');
const path = require('node:path');
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const importX = require('eslint-plugin-import-x');
const { createTypeScriptImportResolver } = require('eslint-import-resolver-typescript');
const globals = require('globals');

/**
 * A page under web/src/pages/X may import only from X itself and from shared code (components/,
 * lib/, api/...): what two pages share belongs outside pages/.
 */
const pagesDir = path.join(__dirname, 'web/src/pages');
const pages = new Map(); // page name (folder, or file stem at the top of pages/) -> its paths
for (const entry of fs.readdirSync(pagesDir, { withFileTypes: true })) {
  const name = entry.isDirectory() ? entry.name : entry.name.replace(/\.[^.]+$/, '');
  pages.set(name, [...(pages.get(name) ?? []), path.join(pagesDir, entry.name)]);
}
const pageZones = [...pages].map(([name, own]) => ({
  target: own,
  from: [...pages].filter(([other]) => other !== name).flatMap(([, paths]) => paths),
  message: 'Pages do not import from other pages: move what they share to web/src/components or web/src/lib.',
}));

/**
 * The import table of docs/architecture.md ("Folders"), built from the folders themselves so a
 * new wing, route, step or trigger is covered without being listed here.
 */
const at = (...parts) => path.join(__dirname, ...parts);
const subfolders = (dir) =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : [];
const wings = subfolders(at('functions')).filter((name) => name !== 'shared');
const UNIT_KINDS = ['routes', 'steps', 'triggers'];
const wingZones = wings.flatMap((wing) => {
  const others = wings.filter((other) => other !== wing);
  // Each route, step or trigger folder of the wing, and the wing's own modules beside them.
  const units = UNIT_KINDS.flatMap((kind) => subfolders(at('functions', wing, kind)).map((unit) => at('functions', wing, kind, unit)));
  const wingModules = [at('functions', wing, '*.ts'), at('functions', wing, `!(${UNIT_KINDS.join('|')})`, '**')];
  return [
    ...(others.length === 0
      ? []
      : [
          {
            target: at('functions', wing),
            from: others.map((other) => at('functions', other)),
            except: ['./index.ts'],
            message: `functions/${wing} imports another wing only through its index.ts (functions/<wing>), which re-exports what other wings may use.`,
          },
        ]),
    ...units.map((unit) => ({
      target: unit,
      from: units.filter((other) => other !== unit),
      message: `A route, step or trigger folder imports only its own files, its wing's modules, functions/shared and events/: move what two folders share to a module of the wing (functions/${wing}/<name>.ts).`,
    })),
    ...(units.length === 0
      ? []
      : [
          {
            target: wingModules,
            from: UNIT_KINDS.map((kind) => at('functions', wing, kind)),
            message: `The modules of functions/${wing} serve its route, step and trigger folders and import none of them.`,
          },
        ]),
  ];
});
const boundaryZones = [
  ...wingZones,
  {
    target: at('functions/shared'),
    from: [...wings.map((wing) => at('functions', wing)), at('infra'), at('web'), at('admin'), at('test')],
    message: 'functions/shared is what every wing uses and imports no wing: of our code it imports events/ only.',
  },
  {
    target: at('events'),
    from: [at('functions'), at('infra'), at('web'), at('admin'), at('test')],
    message: 'events/ holds the contracts every side shares and imports nothing of ours.',
  },
  {
    target: at('infra/lib'),
    from: [at('functions'), at('infra/local'), at('web'), at('admin'), at('test')],
    message: 'infra/lib declares the stack and imports no runtime code: of our code it imports events/ only (a name both sides need goes in events/).',
  },
  {
    target: at('infra/local'),
    from: [at('functions'), at('web'), at('admin'), at('test')],
    message: 'The twin runs the handlers from the template (bundled from their entry files): of our code it imports infra/ and events/ only.',
  },
  {
    target: [at('web'), at('admin')],
    from: [at('functions')],
    message: 'The sites never import functions/: what they share with the API is in events/.',
  },
  {
    target: at('web/src'),
    from: [at('infra'), at('test'), at('admin')],
    message: 'The site imports events/ only of our code.',
  },
  {
    target: at('admin/src'),
    from: [at('infra'), at('test'), at('web')],
    message: 'The console imports events/ only of our code.',
  },
];

module.exports = tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'cdk.out/',
      'coverage/',
      'screenshots/',
      'test-results/',
      '.twin/',
      '.twin-build-*/',
      '.scratch/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are deliberately unused (positional parameters, omitted fields).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'web/tsconfig.json', 'admin/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...boundaryZones, ...pageZones] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: globals.browser },
  },
  {
    // CommonJS files run by Node as they are (configs, the twin's Lambda worker).
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
