import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The commands under `cmd/` that tests start as processes of their own. */
export type Command = 'apiserver' | 'controller-manager' | 'local-up' | 'svcctl';

/**
 * The arguments to give `node` (`process.execPath`) to run a command from its TypeScript sources, transpiled as they
 * load (./ts-require.js), so that `make test` needs no build. What the build makes is run by `make run`, CI's
 * browser and scale suites, and the benchmarks.
 * @example spawn(process.execPath, commandArgs('svcctl', ['get', 'roles']))
 */
export function commandArgs(command: Command, args: string[] = []): string[] {
  return ['-r', join(__dirname, 'ts-require.js'), join(ROOT, 'cmd', command, 'main.ts'), ...args];
}
