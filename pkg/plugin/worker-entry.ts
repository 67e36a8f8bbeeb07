import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { PluginWorkerData } from './protocol';

let transpiled: string | undefined;

/**
 * A new worker thread running worker.ts for one plugin. Built, it runs
 * worker.js beside this file. From TypeScript sources (the tests) the files
 * of this folder are transpiled once, here, and each worker's `require`
 * takes them from that set, so worker.ts may import its siblings (which
 * import nothing but Node's modules and each other).
 */
export function newPluginWorker(workerData: PluginWorkerData, resourceLimits: ResourceLimits): Worker {
  const compiled = join(__dirname, 'worker.js');
  if (existsSync(compiled)) return new Worker(compiled, { workerData, resourceLimits });
  transpiled ??= fromSources(join(__dirname, 'worker.ts'));
  return new Worker(transpiled, { eval: true, workerData, resourceLimits });
}

/** The code of a worker that loads `main` and its siblings from TypeScript sources, transpiled now. */
function fromSources(main: string): string {
  // Only reached when running from sources, where the TypeScript compiler is installed.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  const sources: Record<string, string> = {};
  for (const name of readdirSync(__dirname)) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
    const file = join(__dirname, name);
    sources[file] = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    }).outputText;
  }
  return `
const sources = ${JSON.stringify(sources)};
require.extensions['.ts'] = (module, filename) => module._compile(sources[filename], filename);
require(${JSON.stringify(main)});
`;
}
