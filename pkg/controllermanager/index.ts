/**
 * The controller-manager process's wiring, beyond its flags:
 * `startControllerManager(config, log)` runs the selected controllers in a
 * leader-elected Manager, with `/metrics`, `/healthz`, `/livez` and `/readyz`; `main.ts` and the
 * tests call it. Controllers plug in by name through a ControllerRegistry.
 */
export {
  DEFAULT_LEADER_ELECTION,
  startControllerManager,
  type ControllerManagerConfig,
  type LeaderElectionSettings,
  type RunningControllerManager,
} from './controller-manager';
export { ControllerRegistry, type ControllerContext, type ControllerRegistration } from './controller-registry';
export { builtinControllers } from './builtin-controllers';
export {
  DEFAULT_SERVER,
  readCaFile,
  readKubeconfig,
  readTokenFile,
  resolveConnection,
  type Connection,
  type ConnectionFlags,
} from './credentials';
export { candidateIdentity } from './identity';
export { parseListen, serveMetrics, type MetricsServer } from './metrics-server';
