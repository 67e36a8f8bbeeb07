// Lets a child process that a test spawns run TypeScript sources directly
// (`node -r ./test/support/ts-require.js child.ts`): each .ts file is
// transpiled to CommonJS on require, without type checking, by swc with the
// options jest uses (swc-options.js).
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');
const { swcOptions } = require('./swc-options');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    ...swcOptions('typescript'),
    filename,
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
