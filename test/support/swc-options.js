// The options swc compiles TypeScript with for jest (jest.config.js) and for the child processes tests run from
// sources (ts-require.js), saying what tsconfig.json says: ES2022, CommonJS with esModuleInterop's interop (swc's
// default), class fields defined as ES2022 defines them. Only a transpile, no type checking: `make lint` and the
// build type-check everything, tests included (docs/adr/0061-swc-compiles-for-jest.md).
/** @param {'typescript' | 'ecmascript'} syntax */
const swcOptions = (syntax) => ({
  jsc: { parser: { syntax }, target: 'es2022', transform: { useDefineForClassFields: true } },
  module: { type: 'commonjs' },
});

module.exports = { swcOptions };
