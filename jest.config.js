// ts-jest compiles our TypeScript; @kubernetes/client-node and its ESM-only
// dependencies are compiled to CommonJS too, because jest on Node 20 cannot
// require() an ES module (docs/adr/0001-commonjs-with-ts-jest.md).
//
// `make test` runs everything but test/scale/ (the cases that put thousands of objects through the system:
// `make test-scale`, jest.scale.config.js) and the console's browser suites (test/e2e/console*.test.ts, headless
// Chromium: `make test-browser`, jest.browser.config.js). CI runs all three, so that a developer's loop stays short.
const esmOnly = ['@kubernetes/client-node', 'openid-client', 'oauth4webapi', 'jose'];

// jest's default is one worker fewer than the cores, which on a 2-core machine is one file at a time in jest's
// own process. Most files wait on sockets, child processes and Redis as much as they compute, so two files at
// a time finish sooner even there (docs/adr/0044-a-short-test-loop.md); larger machines keep jest's default.
const maxWorkers = Math.max(2, require('node:os').availableParallelism() - 1);

// ts-jest only transpiles each file (no type checking), because tsconfig.json sets `isolatedModules`: `make lint` and
// the build type-check everything, tests included. Type checking per test file took 86 s instead of 16 s for four
// files from a cold cache (docs/adr/0044-a-short-test-loop.md); nothing here relies on type-aware emit (no const enums).
module.exports = {
  testEnvironment: 'node',
  roots: [
    '<rootDir>/pkg',
    '<rootDir>/cmd',
    '<rootDir>/controllers',
    '<rootDir>/modules',
    '<rootDir>/test',
    '<rootDir>/bench',
  ],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/scale/', '<rootDir>/test/e2e/console[^/]*\\.test\\.ts$'],
  transform: {
    '^.+\\.tsx?$': ['ts-jest', {}],
    '^.+\\.m?js$': [
      'ts-jest',
      {
        tsconfig: {
          allowJs: true,
          isolatedModules: true,
          module: 'commonjs',
          target: 'ES2022',
          esModuleInterop: true,
          skipLibCheck: true,
        },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 30000,
  maxWorkers,
};
