import { join, resolve } from 'node:path';

/** The repository's root, from where this file lands when compiled (`dist/bench/support/`). */
const ROOT = resolve(__dirname, '../../..');

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
