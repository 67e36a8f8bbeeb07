import { Command, CommanderError, Option } from 'commander';
import { registerApply } from './apply';
import { registerAuth } from './auth';
import { registerConfig } from './config-commands';
import { registerDelete } from './delete';
import { registerDescribe } from './describe';
import { registerEdit } from './edit';
import { registerExplain } from './explain';
import { describeFailure, ReportedFailure } from './errors';
import { registerGet } from './get';
import type { CliIo } from './io';
import { registerLogin } from './login';
import { registerLogout } from './logout';
import { registerPlugin } from './plugin';
import { registerRoles } from './roles';
import { registerVersion } from './version';
import { registerInsight } from './insight';

/**
 * Runs svcctl with these arguments (without `node` and the script) and
 * answers the exit code: 0 success, 1 an error from the server or a failed
 * document, 2 a usage error.
 * @example process.exitCode = await runSvcctl(process.argv.slice(2), processIo())
 */
export async function runSvcctl(argv: string[], io: CliIo): Promise<number> {
  const program = new Command('svcctl')
    .description('Talks to an svc apiserver, kubectl style.')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .addOption(
      new Option(
        '--server <url>',
        'the apiserver, e.g. http://127.0.0.1:8080 or https://127.0.0.1:8443 (env SVC_SERVER)',
      ),
    )
    .addOption(new Option('--token <token>', 'the bearer token to send (env SVC_TOKEN)'))
    .addOption(new Option('--certificate-authority <file>', 'PEM file of the CA to trust for an https:// server'))
    .addOption(new Option('--insecure-skip-tls-verify', 'accept any server certificate (throwaway local servers only)'))
    .addOption(new Option('--context <name>', 'the config context to use instead of the current one'))
    .addHelpText(
      'after',
      `
Connection: a flag beats its environment variable, which beats the current context of the config file
($SVC_CONFIG, else ~/.svc/config; written by "svcctl login").
Exit status: 0 success; 1 an error from the server or a failed document; 2 a usage error.

Example:
  svcctl login --server https://127.0.0.1:8443 --certificate-authority data/tls/ca.crt --username admin
  svcctl get persons`,
    );
  registerConfig(program, io);
  registerLogin(program, io);
  registerLogout(program, io);
  registerGet(program, io);
  registerDescribe(program, io);
  registerDelete(program, io);
  registerEdit(program, io);
  registerApply(program, io);
  registerExplain(program, io);
  registerAuth(program, io);
  registerRoles(program, io);
  registerInsight(program, io);
  registerPlugin(program, io);
  registerVersion(program, io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof ReportedFailure) return 1;
    const { code, text } = describeFailure(err);
    io.stderr(`${text}\n`);
    return code;
  }
}
