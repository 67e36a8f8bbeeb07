// swc (through @swc/jest) compiles our TypeScript to CommonJS; @kubernetes/client-node and its ESM-only
// dependencies are compiled to CommonJS too, because jest on Node 20 cannot require() an ES module
// (docs/adr/0001-commonjs-with-ts-jest.md, docs/adr/0061-swc-compiles-for-jest.md).
//
// `make test` runs everything but test/scale/ (the cases that put thousands of objects through the system:
// `make test-scale`, jest.scale.config.js) and the console's browser suites (test/e2e/console*.test.ts, headless
// Chromium: `make test-browser`, jest.browser.config.js). CI runs all three, so that a developer's loop stays short.
const esmOnly = ['@kubernetes/client-node', 'openid-client', 'oauth4webapi', 'jose'];

// jest's default is one worker fewer than the cores, which on a 2-core machine is one file at a time in jest's
// own process. Most files wait on sockets, child processes and Redis as much as they compute, so two files at
// a time finish sooner even there (docs/adr/0044-a-short-test-loop.md); larger machines keep jest's default.
const maxWorkers = Math.max(2, require('node:os').availableParallelism() - 1);

// swc only transpiles each file (no type checking; `make lint` and the build type-check everything, tests included),
// as tsconfig.json's `isolatedModules` requires of every file, several times faster than ts-jest's TypeScript
// transpiler did from a cold cache (docs/adr/0061-swc-compiles-for-jest.md). Its options (test/support/swc-options.js)
// say what tsconfig.json says. @swc/jest adds inline source maps (stack traces point into the .ts files) and hoists
// jest.mock() above the imports.
const { swcOptions } = require('./test/support/swc-options');

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
    '^.+\\.tsx?$': ['@swc/jest', swcOptions('typescript')],
    '^.+\\.m?js$': ['@swc/jest', swcOptions('ecmascript')],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 30000,
  maxWorkers,
};
