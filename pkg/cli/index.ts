/**
 * svcctl, the kubectl-like command line: `runSvcctl(argv, io)` runs one
 * command and answers its exit code. Each command group has its own file.
 */
export { runSvcctl } from './program';
export type { CliIo } from './io';
