// Jest projects split by speed: `npm test` runs them all; `npm run test:unit` etc. run one.
const transform = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
  // c2pa-ts (and the uuid it brings) ships ES modules only: made CommonJS for jest (esbuild bundles it for the functions).
  '/node_modules/@trustnxt/c2pa-ts/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' }, diagnostics: false }],
};
// Its entry points are in package.json `exports` under `import` only, which jest's require does not take.
const moduleNameMapper = { '^@trustnxt/c2pa-ts/(asset|cose|jumbf|manifest)$': '<rootDir>/node_modules/@trustnxt/c2pa-ts/dist/$1/index.js' };
const project = (name, extra = {}) => ({
  displayName: name,
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: ['^(?!.*/node_modules/@trustnxt/c2pa-ts/).*/node_modules/'],
  moduleNameMapper,
  testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
  ...extra,
});
// Integration and e2e files share one twin, started once per run (test/support/twin-global-setup.ts).
const sharedTwin = { globalTeardown: '<rootDir>/test/support/twin-global-teardown.ts' };
module.exports = {
  // npm test runs the checks and the build beside the tests on two cores: a test that takes 2 s
  // alone may take 10 s then. Files that wait on a twin set their own, longer time-out. Jest reads
  // the time-out from the top level only (a project's own is ignored).
  testTimeout: 30_000,
  projects: [
    project('unit'),
    // One synthesis of the test app per run, shared by the files through the cache (decision 034).
    project('infra', { globalSetup: '<rootDir>/test/support/synth-global-setup.ts' }),
    project('workflow'),
    project('integration', { globalSetup: '<rootDir>/test/support/twin-global-setup.ts', ...sharedTwin }),
    // A failing browser test prints what its open pages showed (test/support/e2e-environment.ts).
    project('e2e', { globalSetup: '<rootDir>/test/e2e/global-setup.ts', testEnvironment: '<rootDir>/test/support/e2e-environment.ts', ...sharedTwin }),
    // Each bench in quick mode (test/bench/quick.test.ts); full runs are `npm run bench:*`.
    project('bench'),
  ],
};
