// ESLint for the whole repository (`npm run lint`): typescript-eslint everywhere, the rules of
// hooks in the two React apps, no import cycles, and no page importing another page's files.
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
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: pageZones }],
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
