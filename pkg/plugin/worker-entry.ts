import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { PluginWorkerData } from './protocol';

let transpiled: string | undefined;

/**
 * A new worker thread running worker.ts for one plugin. Built, it runs
 * worker.js beside this file; from TypeScript sources (the tests) worker.ts is
 * transpiled once, here, and each worker evaluates the result. worker.ts
 * imports nothing but Node's modules, so it needs no other file transpiled.
 */
export function newPluginWorker(workerData: PluginWorkerData, resourceLimits: ResourceLimits): Worker {
  const compiled = join(__dirname, 'worker.js');
  if (existsSync(compiled)) return new Worker(compiled, { workerData, resourceLimits });
  transpiled ??= transpile(join(__dirname, 'worker.ts'));
  return new Worker(transpiled, { eval: true, workerData, resourceLimits });
}

function transpile(file: string): string {
  // Only reached when running from sources, where the TypeScript compiler is installed.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  return ts.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
}
