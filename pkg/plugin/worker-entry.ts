import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { PluginWorkerData } from './protocol';

/** From TypeScript sources: each `.ts` file a worker may load, transpiled once per process (file → JavaScript). */
const transpiled = new Map<string, string>();

/**
 * A new worker thread running worker.ts for one plugin. Built, it runs
 * worker.js beside this file. From TypeScript sources (the tests), worker.ts,
 * a built-in plugin's `index.ts` and the files they import are transpiled
 * here, once per process, and each worker loads them through a `.ts` require
 * hook, so no worker pays for loading the compiler.
 */
export function newPluginWorker(workerData: PluginWorkerData, resourceLimits: ResourceLimits): Worker {
  const compiled = join(__dirname, 'worker.js');
  if (existsSync(compiled)) return new Worker(compiled, { workerData, resourceLimits });
  const entry = join(__dirname, 'worker.ts');
  const code = workerData.main?.endsWith('.ts') ? [workerData.main] : [];
  // sdk.ts is required by name ('svc/plugin', worker-sdk-alias.ts), not imported: transpiled explicitly.
  for (const file of [entry, join(__dirname, 'sdk.ts'), ...code]) transpileTree(file);
  return new Worker(loaderCode(entry), { eval: true, workerData, resourceLimits });
}

/** The code of a worker that requires `entry` with every transpiled file at hand. */
function loaderCode(entry: string): string {
  return `
const sources = new Map(${JSON.stringify([...transpiled])});
require.extensions['.ts'] = (module, filename) => {
  const code = sources.get(filename);
  if (code === undefined) throw new Error('not transpiled for plugin workers: ' + filename);
  module._compile(code, filename);
};
require(${JSON.stringify(entry)});
`;
}

/** Transpiles `file` and, transitively, the relative `.ts` imports of it not transpiled yet. */
function transpileTree(file: string): void {
  const queue = [file];
  while (queue.length) {
    const next = queue.pop()!;
    if (transpiled.has(next)) continue;
    const code = transpile(next);
    transpiled.set(next, code);
    for (const match of code.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
      const target = sourceFile(resolve(dirname(next), match[1]));
      if (target) queue.push(target);
    }
  }
}

/** `path.ts` or `path/index.ts`, whichever exists. */
function sourceFile(path: string): string | undefined {
  return [`${path}.ts`, join(path, 'index.ts')].find((candidate) => existsSync(candidate));
}

function transpile(file: string): string {
  // Only reached when running from sources, where the devDependencies are installed. swc (a native module) rather
  // than TypeScript's transpileModule: each test file that starts plugins gets its own module registry under jest,
  // and loading the TypeScript compiler into each cost more than all its transpiling
  // (docs/adr/0061-swc-compiles-for-jest.md). The options are jest's (test/support/swc-options.js).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const swc = require('@swc/core') as typeof import('@swc/core');
  return swc.transformSync(readFileSync(file, 'utf8'), {
    filename: file,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022', transform: { useDefineForClassFields: true } },
    module: { type: 'commonjs' },
    swcrc: false,
  }).code;
}
