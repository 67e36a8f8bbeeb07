import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { PluginWorkerData } from './protocol';

/**
 * A new worker thread running worker.ts for one plugin. Built, it runs
 * worker.js beside this file; from TypeScript sources (the tests) the worker
 * transpiles worker.ts on load with the TypeScript compiler, as ts-jest would.
 */
export function newPluginWorker(workerData: PluginWorkerData, resourceLimits: ResourceLimits): Worker {
  const compiled = join(__dirname, 'worker.js');
  if (existsSync(compiled)) return new Worker(compiled, { workerData, resourceLimits });
  const bootstrap = `
    const { readFileSync } = require('node:fs');
    const ts = require(${JSON.stringify(require.resolve('typescript'))});
    require.extensions['.ts'] = (module, filename) => {
      const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
        fileName: filename, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      });
      module._compile(outputText, filename);
    };
    require(${JSON.stringify(join(__dirname, 'worker.ts'))});`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
}
