// Inside a plugin's worker: `require('svc/plugin')` loads the plugin SDK (sdk.ts/sdk.js beside this file), so that a
// plugin's decorators are the ones the worker reads.
import Module from 'node:module';
import { join } from 'node:path';

export const SDK_MODULE = 'svc/plugin';

type Resolve = (request: string, ...rest: unknown[]) => string;
const moduleInternals = Module as unknown as { _resolveFilename: Resolve };
const resolve = moduleInternals._resolveFilename;
const sdkFile = join(__dirname, __filename.endsWith('.ts') ? 'sdk.ts' : 'sdk.js');

moduleInternals._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return request === SDK_MODULE ? sdkFile : resolve.call(this, request, ...rest);
};
