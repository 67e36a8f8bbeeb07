// Lets a child process that a test spawns run TypeScript sources directly
// (`node -r ./test/support/ts-require.js child.ts`): each .ts file is
// transpiled to CommonJS on require, without type checking, as ts-jest would.
const { readFileSync } = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  module._compile(outputText, filename);
};
