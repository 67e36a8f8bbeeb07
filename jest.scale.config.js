// `make test-scale`: only the cases under test/scale/, with the same setup as `make test` (jest.config.js).
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/scale'],
  testPathIgnorePatterns: ['/node_modules/'],
};
