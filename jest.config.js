// Jest projects split by speed: `npm test` runs them all; `npm run test:unit` etc. run one.
const transform = { '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] };
const project = (name, extra = {}) => ({
  displayName: name,
  testEnvironment: 'node',
  transform,
  testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
  ...extra,
});
module.exports = {
  projects: [
    project('unit'),
    project('infra'),
    project('workflow'),
    project('integration'),
    project('e2e', { globalSetup: '<rootDir>/test/e2e/global-setup.ts' }),
  ],
};
