// Lets a child process that a test spawns run TypeScript sources directly
// (`node -r ./test/support/ts-require.js child.ts`): each .ts file is
// transpiled to CommonJS on require, without type checking, by swc with the
// options jest uses (swc-options.js).
//
// Each transpiled file is kept in the system's temporary folder under the hash of what made it (swc's version, the
// options, the file's path and text), so that the many processes a test run starts (controller-managers, svcctl,
// `make run`'s processes) transpile each file once, not once each. A changed file hashes anew.
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { tmpdir, userInfo } = require('node:os');
const { join } = require('node:path');
const { transformSync, version } = require('@swc/core');
const { swcOptions } = require('./swc-options');

const options = { ...swcOptions('typescript'), sourceMaps: 'inline' };
const cacheDir = join(tmpdir(), `svc-ts-require-${userInfo().uid}`);
const salt = JSON.stringify([version, options]);

function transpiled(source, filename) {
  const key = createHash('sha256').update(salt).update('\0').update(filename).update('\0').update(source).digest('hex');
  const cached = join(cacheDir, `${key}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    const { code } = transformSync(source, { ...options, filename });
    mkdirSync(cacheDir, { recursive: true });
    // Written beside and renamed into place, so that a process reading at the same time sees all of it or nothing.
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, cached);
    return code;
  }
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(transpiled(readFileSync(filename, 'utf8'), filename), filename);
};
