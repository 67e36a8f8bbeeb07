import type { Command } from 'commander';
import { ApiError } from '../client';
import { configPath, currentContext, loadConfig, saveConfig, upsertContext } from './config';
import { connect, type ConnectionFlags } from './connection';
import { UsageError } from './errors';
import type { CliIo } from './io';
import { TOKENS } from './login';

/** `svcctl logout [--context NAME]`: revokes the context's token on the server and forgets it. */
export function registerLogout(program: Command, io: CliIo): void {
  program
    .command('logout')
    .description("Revokes the current context's token on the server and removes it from the config")
    .addHelpText(
      'after',
      `
The context stays (its server and CA), without a token: "svcctl login" there makes a new one. A kubeconfig
written from the context ("svcctl config kubeconfig") stops working too, as it holds the same token.

Examples:
  svcctl logout
  svcctl logout --context admin@127.0.0.1:8443`,
    )
    .action(async (_opts: unknown, command: Command) => {
      const flags = command.optsWithGlobals<ConnectionFlags>();
      const path = configPath(io.env, io.home);
      const config = loadConfig(path);
      const context = currentContext(config, flags.context);
      if (!context) throw new UsageError('no current context to log out of (svcctl login makes one)');
      if (!context.token) {
        io.stdout(`Context "${context.name}" holds no token: nothing to log out of.\n`);
        return;
      }
      const name = context['token-name'];
      const revoked = name ? await revoke(flags, io, context.name, name) : undefined;
      const { token: _token, 'token-name': _name, ...kept } = context;
      saveConfig(path, upsertContext(config, kept));
      if (revoked === 'revoked') io.stdout(`Logged out of ${context.server}: token ${name} revoked.\n`);
      else if (revoked === 'gone')
        io.stdout(`Logged out of ${context.server}: token ${name} no longer worked there (revoked or expired).\n`);
      else
        io.stderr(
          `warning: the token of context "${context.name}" was removed from the config but not revoked: the context does ` +
            'not record its name (a token given by hand, or a login by an older svcctl). An administrator sees every ' +
            'token with "svcctl get personalaccesstokens" and can delete it.\n',
        );
    });
}

/**
 * Deletes the token object `name` as the context's user: 'revoked', or 'gone' when the server no longer accepts the
 * token or has no such object (revoked or expired already).
 */
async function revoke(flags: ConnectionFlags, io: CliIo, context: string, name: string): Promise<'revoked' | 'gone'> {
  // The context's own server and token, whatever --server, --token or their variables say: its token is revoked.
  const { SVC_SERVER: _server, SVC_TOKEN: _token, ...env } = io.env;
  const own = {
    context,
    certificateAuthority: flags.certificateAuthority,
    insecureSkipTlsVerify: flags.insecureSkipTlsVerify,
  };
  const client = connect(own, { ...io, env });
  try {
    await client.request({ method: 'DELETE', path: `${TOKENS}/${encodeURIComponent(name)}` });
    return 'revoked';
  } catch (err) {
    if (err instanceof ApiError && (err.code === 401 || err.code === 404)) return 'gone';
    throw err;
  }
}
