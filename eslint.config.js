// ESLint for the whole repository (`npm run lint`): typescript-eslint everywhere, the rules of
// hooks in the two React apps, no import cycles, the import table of docs/architecture.md (wings,
// shared, events, infra, sites), no page importing another page's files, and the one way of each
// thing where a second way has crept back before (docs/architecture.md, "One way of each thing").
const fs = require('node:fs');
const path = require('node:path');
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const importX = require('eslint-plugin-import-x');
const { createTypeScriptImportResolver } = require('eslint-import-resolver-typescript');
const globals = require('globals');
const local = require('./eslint.local-rules');

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

const TASK_TOKEN_IMPORTS = {
  name: '@aws-sdk/client-sfn',
  importNames: ['SendTaskSuccessCommand', 'SendTaskFailureCommand'],
  message: 'Resume a task token with resumeTask or failTask (functions/shared/workflows.ts).',
};
const DYNAMODB_IMPORTS = ['@aws-sdk/lib-dynamodb', '@aws-sdk/client-dynamodb'].map((name) => ({
  name,
  message: "A service calls its wing's store by intention (store.markChecked(...)); the store holds the DynamoDB calls.",
}));

/**
 * Fixed sleeps in tests (decision 053): a test waits for a condition (eventually() of
 * test/support/eventually.ts, the one place that pauses between tries) or an event, never for a
 * length of time.
 */
const FIXED_SLEEPS = [
  "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout'][arguments.0.type='Identifier']",
  "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout'][arguments.0.type='ArrowFunctionExpression'][arguments.0.body.type='CallExpression'][arguments.0.body.arguments.length=0]",
  'CallExpression[callee.name=/^(sleep|delay|pause)$/]',
  "CallExpression[callee.property.name='waitForTimeout']",
  "CallExpression[callee.name='promisify'][arguments.0.name='setTimeout']",
  'ImportDeclaration[source.value=/^(node:)?timers.promises$/]',
].map((selector) => ({
  selector,
  message: 'Wait for a condition, not for a length of time: eventually() of test/support/eventually.ts, or an event (decision 053).',
}));

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
    // Comments cite only files in the repository (eslint.local-rules.js).
    files: ['**/*.{ts,tsx,js}'],
    plugins: { local: local.plugin },
    rules: { 'local/no-outside-citation': 'error' },
  },
  {
    // A Step Functions task is resumed one way: resumeTask/failTask of functions/shared/workflows.ts,
    // which knows which answers mean the token is spent.
    files: ['functions/**/*.ts', 'infra/**/*.ts', 'test/**/*.ts'],
    ignores: ['functions/shared/workflows.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [TASK_TOKEN_IMPORTS] }] },
  },
  {
    // Services state intentions; the wing's store writes the DynamoDB expressions and conditions.
    files: ['functions/**/service.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [TASK_TOKEN_IMPORTS, ...DYNAMODB_IMPORTS] }] },
  },
  {
    // One handler per route: API Gateway's table picks the function, so a handler never reads the
    // path or the method to choose what to do.
    files: ['functions/**/handler.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='rawPath'], Property[key.name='rawPath']", message: 'A handler serves one route: give each path its own route folder and function instead of testing rawPath.' },
        { selector: "MemberExpression[property.name='method'][object.property.name='http']", message: 'A handler serves one route: give each method its own route folder and function instead of branching on it.' },
      ],
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
  {
    // Tests wait for conditions, never for time. The fixtures stand in for slow Lambda code.
    files: ['test/**/*.ts'],
    ignores: ['test/support/eventually.ts', 'test/unit/local/fixtures/**'],
    rules: { 'no-restricted-syntax': ['error', ...FIXED_SLEEPS] },
  },
);
