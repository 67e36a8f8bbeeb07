// `make test-browser`: the console's suites in headless Chromium (test/e2e/console*.test.ts), with the same setup
// as `make test` (jest.config.js), which leaves them out.
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/e2e'],
  testMatch: ['**/console*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
