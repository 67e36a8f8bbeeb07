import { join, resolve } from 'node:path';

/** The repository's root, from where this file lands when compiled (`dist/bench/apiserver/`). */
const ROOT = resolve(__dirname, '../../..');

/** The compiled files and manifests the benchmark runs, as absolute paths. */
export const PATHS = {
  /** The apiserver's entry point, built by `npm run build`. */
  apiserver: join(ROOT, 'dist/cmd/apiserver/main.js'),
  /** The controller-manager's entry point, built by `npm run build`. */
  controllerManager: join(ROOT, 'dist/cmd/controller-manager/main.js'),
  /** The baseline server's entry point (compiled beside this file). */
  baselineServer: join(__dirname, 'baseline-server.js'),
  /** The Person Model the benchmark registers and the baseline reads its indexes from. */
  personModel: join(ROOT, 'manifests/examples/person-model.yaml'),
};
