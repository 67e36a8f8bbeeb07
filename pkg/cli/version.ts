import type { Command } from 'commander';
import pkg from '../../package.json';
import { connect, resolveConnection, type ConnectionFlags } from './connection';
import type { CliIo } from './io';

/** svcctl's own version (the svc release it comes with). */
export const CLIENT_VERSION: string = pkg.version;

/** What `GET /version` answers (Kubernetes' shape). */
interface ServerVersion {
  gitVersion?: string;
}

/** `svcctl version [--client]`: svcctl's version, and the server's from its `/version`. */
export function registerVersion(program: Command, io: CliIo): void {
  program
    .command('version')
    .description("Prints svcctl's version and the server's")
    .option('--client', "only svcctl's version; the server is not asked")
    .addHelpText(
      'after',
      `
The server's is its /version "gitVersion": the Kubernetes level it answers to, then +svc.<svc version>.

Examples:
  svcctl version
  svcctl version --client`,
    )
    .action(async (opts: { client?: boolean }, command: Command) => {
      io.stdout(`Client Version: ${CLIENT_VERSION}\n`);
      if (opts.client) return;
      const flags = command.optsWithGlobals<ConnectionFlags>();
      const server = resolveConnection(flags, io).server;
      const answer = await connect(flags, io).request<ServerVersion>({ method: 'GET', path: '/version' });
      io.stdout(`Server Version: ${answer.gitVersion ?? 'unknown'} (${server})\n`);
    });
}
