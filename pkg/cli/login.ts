import { hostname } from 'node:os';
import type { Command } from 'commander';
import { ApiClient } from '../client';
import { configPath, loadConfig, saveConfig, upsertContext, type CliContext } from './config';
import { readCa, USER_AGENT, type ConnectionFlags } from './connection';
import { warningPrinter } from './warnings';
import { UsageError } from './errors';
import { readAll, readHidden, type CliIo } from './io';

/** The caller's own personal access tokens. */
export const TOKENS = '/apis/uc.api.security.svc.run/v1alpha1/personalaccesstokens';
const TOKEN_ANNOTATION = 'security.svc.run/access-token';

/** `svcctl login --server URL --username NAME [--password-stdin]`. */
export function registerLogin(program: Command, io: CliIo): void {
  program
    .command('login')
    .description('Logs in with a password: makes a personal access token and a context for it, made current')
    .requiredOption('--username <name>', 'the user to log in as')
    .option('--password-stdin', 'read the password from stdin (else it is asked for on a terminal)')
    .addHelpText(
      'after',
      `
The server comes from --server (or SVC_SERVER). The context is named <user>@<host:port>.

Examples:
  svcctl login --server https://127.0.0.1:8443 --certificate-authority data/tls/ca.crt --username admin
  echo "$PASSWORD" | svcctl login --server http://127.0.0.1:8080 --username admin --password-stdin`,
    )
    .action(async (opts: { username: string; passwordStdin?: boolean }, command: Command) => {
      const flags = command.optsWithGlobals<ConnectionFlags>();
      const { server, host } = serverOf(flags, io);
      const password = await readPassword(io, opts.passwordStdin === true);
      if (!password) throw new UsageError('an empty password');
      const ca = flags.certificateAuthority ? readCa(flags.certificateAuthority) : undefined;
      const { token, name } = await createToken(
        new ApiClient({
          server,
          ca,
          insecureSkipTlsVerify: flags.insecureSkipTlsVerify,
          userAgent: USER_AGENT,
          onWarning: warningPrinter(io),
          basicAuth: { username: opts.username, password },
        }),
      );
      const context: CliContext = {
        name: `${opts.username}@${host}`,
        server,
        user: opts.username,
        token,
        'token-name': name,
      };
      if (ca) context['certificate-authority-data'] = Buffer.from(ca).toString('base64');
      if (flags.insecureSkipTlsVerify) context['insecure-skip-tls-verify'] = true;
      const path = configPath(io.env, io.home);
      const config = loadConfig(path);
      const previous = config.contexts.find((c) => c.name === context.name);
      saveConfig(path, { ...upsertContext(config, context), 'current-context': context.name });
      io.stdout(`Logged in to ${server} as ${opts.username}; context "${context.name}" is current.\n`);
      // Replaced in the config, the earlier token still works (a kubeconfig written from it may use it).
      if (previous?.token && previous.token !== token)
        io.stderr(
          `note: the token this context held before${previous['token-name'] ? ` (${previous['token-name']})` : ''} ` +
            'still works; "svcctl logout" revokes a context\'s token before a new login\n',
        );
    });
}

/** The server to log in to (`--server`, else SVC_SERVER) and its host:port; UsageError when missing or no URL. */
function serverOf(flags: ConnectionFlags, io: CliIo): { server: string; host: string } {
  const server = (flags.server || io.env.SVC_SERVER || '').replace(/\/+$/, '');
  if (!server) throw new UsageError('login needs --server URL (or SVC_SERVER)');
  try {
    return { server, host: new URL(server).host };
  } catch {
    throw new UsageError(`--server ${server} is not a URL (want e.g. http://127.0.0.1:8080)`);
  }
}

/** Makes a personal access token with the client's password; answers its secret and its object's name. */
async function createToken(client: ApiClient): Promise<{ token: string; name?: string }> {
  const created = await client.request<{ metadata?: { name?: string; annotations?: Record<string, string> } }>({
    method: 'POST',
    path: TOKENS,
    body: { spec: { displayName: `svcctl ${hostname()}` } },
  });
  const token = created.metadata?.annotations?.[TOKEN_ANNOTATION];
  if (!token) throw new Error('the server made a token but did not return its secret');
  return { token, name: created.metadata?.name };
}

async function readPassword(io: CliIo, fromStdin: boolean): Promise<string> {
  if (!fromStdin && io.stdin.isTTY) return readHidden(io, 'Password: ');
  return (await readAll(io.stdin)).replace(/\r?\n$/, '');
}
