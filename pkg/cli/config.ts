import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import yaml from 'js-yaml';
import { UsageError } from './errors';

/**
 * svcctl's configuration file (`$SVC_CONFIG`, else `~/.svc/config`): named
 * contexts, each a server with the user and token to reach it as, and the
 * current one. It holds secrets, so it is written with mode 0600 in a 0700 folder.
 */

/** One context: where the server is and who svcctl is there. */
export interface CliContext {
  name: string;
  server: string;
  user?: string;
  token?: string;
  /** The name of `token`'s PersonalAccessToken object (what `svcctl logout` revokes); written by `svcctl login`. */
  'token-name'?: string;
  /** Base64 of the PEM certificates to trust for an `https://` server. */
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
}

/** The whole file. */
export interface CliConfig {
  'current-context'?: string;
  contexts: CliContext[];
}

/** Where the file is: `$SVC_CONFIG`, else `<home>/.svc/config`. */
export function configPath(env: NodeJS.ProcessEnv, home: string): string {
  return env.SVC_CONFIG || join(home, '.svc', 'config');
}

/** The file's content; an empty configuration when there is no file. Throws a UsageError when it is not a config. */
export function loadConfig(path: string): CliConfig {
  if (!existsSync(path)) return { contexts: [] };
  let parsed: unknown;
  try {
    parsed = yaml.load(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read the svcctl config ${path}: ${(err as Error).message}`);
  }
  if (parsed === undefined || parsed === null) return { contexts: [] };
  const config = parsed as Partial<CliConfig>;
  if (typeof parsed !== 'object' || (config.contexts !== undefined && !Array.isArray(config.contexts))) {
    throw new UsageError(`the svcctl config ${path} is not a config (want contexts: [...] and current-context)`);
  }
  return { ...config, contexts: config.contexts ?? [] };
}

/** Writes the file atomically with mode 0600 (its folder 0700, created when missing). */
export function saveConfig(path: string, config: CliConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, yaml.dump(config, { noRefs: true, lineWidth: -1 }), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

/** The current context, or the one named; undefined when there is none. UsageError when a named one is missing. */
export function currentContext(config: CliConfig, name?: string): CliContext | undefined {
  const wanted = name ?? config['current-context'];
  if (!wanted) return undefined;
  const found = config.contexts.find((c) => c.name === wanted);
  if (!found && name) throw new UsageError(`no context named "${name}" in the svcctl config`);
  return found;
}

/** Adds the context or replaces the one of its name. */
export function upsertContext(config: CliConfig, context: CliContext): CliConfig {
  const contexts = config.contexts.filter((c) => c.name !== context.name);
  return { ...config, contexts: [...contexts, context] };
}

/** The config as `config view` shows it: tokens `REDACTED`, CA data `DATA+OMITTED`. */
export function redactedConfig(config: CliConfig): CliConfig {
  return {
    ...config,
    contexts: config.contexts.map((c) => ({
      ...c,
      ...(c.token ? { token: 'REDACTED' } : {}),
      ...(c['certificate-authority-data'] ? { 'certificate-authority-data': 'DATA+OMITTED' } : {}),
    })),
  };
}

/** A kubeconfig for one context (server, CA data, token), so kubectl reaches the same server as the same user. */
export function kubeconfigOf(context: CliContext): Record<string, unknown> {
  const cluster: Record<string, unknown> = { server: context.server };
  if (context['certificate-authority-data'])
    cluster['certificate-authority-data'] = context['certificate-authority-data'];
  if (context['insecure-skip-tls-verify']) cluster['insecure-skip-tls-verify'] = true;
  // Named like the context (admin@host:port), not after the user alone: merged into a kubeconfig of several
  // clusters, it must not replace another cluster's `admin`.
  const user = context.name;
  return {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [{ name: context.name, cluster }],
    users: [{ name: user, user: context.token ? { token: context.token } : {} }],
    contexts: [{ name: context.name, context: { cluster: context.name, user } }],
    'current-context': context.name,
  };
}
