import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository's root (the folder of the Makefile), whether this file runs compiled (`dist/bench/support/`) or from source (tests). */
function repositoryRoot(dir: string): string {
  while (!existsSync(join(dir, 'Makefile'))) {
    if (dirname(dir) === dir) throw new Error(`no Makefile above ${__dirname}`);
    dir = dirname(dir);
  }
  return dir;
}

const ROOT = repositoryRoot(__dirname);

/** The compiled files and manifests the benchmarks run, as absolute paths. */
export const PATHS = {
  /** The apiserver's entry point, built by `npm run build`. */
  apiserver: join(ROOT, 'dist/cmd/apiserver/main.js'),
  /** The controller-manager's entry point, built by `npm run build`. */
  controllerManager: join(ROOT, 'dist/cmd/controller-manager/main.js'),
  /** The apiserver benchmark's baseline server, built by `npm run build`. */
  baselineServer: join(ROOT, 'dist/bench/apiserver/baseline-server.js'),
  /** The Person Model the benchmarks register and the baseline reads its indexes from. */
  personModel: join(ROOT, 'manifests/examples/person-model.yaml'),
};
