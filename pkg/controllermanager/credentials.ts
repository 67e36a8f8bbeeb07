import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import yaml from 'js-yaml';

/** Where the controller-manager reaches the apiserver, the bearer token it sends (if any), the CA it trusts (if any). */
export interface Connection {
  /** e.g. `http://127.0.0.1:8080`. */
  server: string;
  token?: string;
  /** PEM certificates trusted for an `https://` server instead of the system's. */
  ca?: string;
}

/** The connection flags as given: `--server`, `--token-file`, `--certificate-authority`, `--kubeconfig` (each optional). */
export interface ConnectionFlags {
  server?: string;
  tokenFile?: string;
  /** A file of PEM certificates (kubectl's `--certificate-authority`). */
  certificateAuthority?: string;
  kubeconfig?: string;
}

/** The apiserver's default address (its `--listen` default), used when neither flag nor kubeconfig names one. */
export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

/**
 * Resolves the connection from the flags: `--server`, `--token-file` and
 * `--certificate-authority` win over what the kubeconfig says; the server
 * defaults to DEFAULT_SERVER. Throws (with the file's path) when a file
 * cannot be read or makes no sense.
 * @example resolveConnection({ server: 'https://10.0.0.5:8080', tokenFile: '/var/run/svc/token', certificateAuthority: '/var/run/svc/ca.crt' })
 */
export function resolveConnection(flags: ConnectionFlags): Connection {
  const fromFile = flags.kubeconfig ? readKubeconfig(flags.kubeconfig) : {};
  const connection: Connection = { server: flags.server || fromFile.server || DEFAULT_SERVER };
  const token = flags.tokenFile ? readTokenFile(flags.tokenFile) : fromFile.token;
  if (token) connection.token = token;
  const ca = flags.certificateAuthority ? readCaFile(flags.certificateAuthority) : fromFile.ca;
  if (ca) connection.ca = ca;
  return connection;
}

/** The PEM certificates a CA file holds. Throws when it cannot be read or holds no certificate. */
export function readCaFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the certificate authority file ${path}: ${(err as Error).message}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new Error(`the certificate authority file ${path} holds no PEM certificate`);
  return text;
}

/** The token a file holds, without surrounding whitespace (a trailing newline is usual). Throws when the file is empty. */
export function readTokenFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the token file ${path}: ${(err as Error).message}`);
  }
  const token = text.trim();
  if (!token) throw new Error(`the token file ${path} is empty`);
  if (/\s/.test(token)) throw new Error(`the token file ${path} holds more than one word; it must hold the token only`);
  return token;
}

/** The parts of a kubeconfig this reads. */
interface KubeconfigFile {
  'current-context'?: string;
  contexts?: { name?: string; context?: { cluster?: string; user?: string } }[];
  clusters?: {
    name?: string;
    cluster?: { server?: string; 'certificate-authority'?: string; 'certificate-authority-data'?: string };
  }[];
  users?: { name?: string; user?: { token?: string; tokenFile?: string } }[];
}

/**
 * Reads the server, CA and token of a kubeconfig-style file (the format kubectl
 * reads): the `current-context` (or the only context) names a cluster, whose
 * `server` and `certificate-authority` (a file, relative to the kubeconfig's
 * folder) or `certificate-authority-data` (base64 PEM) are used, and a user,
 * whose `token` (or `tokenFile`, relative to the kubeconfig's folder) is used. A file without contexts may hold one cluster
 * and at most one user.
 * @example
 * # apiVersion: v1
 * # kind: Config
 * # clusters: [{name: local, cluster: {server: "http://127.0.0.1:8080"}}]
 * # users: [{name: controller-manager, user: {tokenFile: token}}]
 * # contexts: [{name: cm, context: {cluster: local, user: controller-manager}}]
 * # current-context: cm
 */
export function readKubeconfig(path: string): Partial<Connection> {
  const config = loadKubeconfig(path);
  const { clusterName, userName } = chooseContext(config, path);
  const cluster = pick(config.clusters, clusterName, 'cluster', path)?.cluster;
  const user = pick(config.users, userName, 'user', path)?.user;
  const result: Partial<Connection> = {};
  if (cluster?.server) result.server = cluster.server;
  const ca = clusterCa(cluster, path);
  if (ca !== undefined) result.ca = ca;
  const token = userToken(user, path);
  if (token !== undefined) result.token = token;
  return result;
}

/** The kubeconfig at `path`, parsed; an error names the file when it cannot be read or is not a mapping. */
function loadKubeconfig(path: string): KubeconfigFile {
  let config: KubeconfigFile;
  try {
    config = (yaml.load(readFileSync(path, 'utf8'), { schema: yaml.CORE_SCHEMA }) ?? {}) as KubeconfigFile;
  } catch (err) {
    throw new Error(`cannot read the kubeconfig ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof config !== 'object' || Array.isArray(config))
    throw new Error(`the kubeconfig ${path} is not a YAML mapping`);
  return config;
}

type KubeconfigCluster = NonNullable<NonNullable<KubeconfigFile['clusters']>[number]['cluster']>;
type KubeconfigUser = NonNullable<NonNullable<KubeconfigFile['users']>[number]['user']>;

/** The cluster's CA: its inline data, else its file (relative to the kubeconfig's folder). */
function clusterCa(cluster: KubeconfigCluster | undefined, path: string): string | undefined {
  if (cluster?.['certificate-authority-data'])
    return Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
  if (cluster?.['certificate-authority']) return readCaFile(resolve(dirname(path), cluster['certificate-authority']));
  return undefined;
}

/** The user's token: inline, else from its file (relative to the kubeconfig's folder). */
function userToken(user: KubeconfigUser | undefined, path: string): string | undefined {
  if (user?.token) return user.token;
  if (user?.tokenFile) return readTokenFile(resolve(dirname(path), user.tokenFile));
  return undefined;
}

function chooseContext(config: KubeconfigFile, path: string): { clusterName?: string; userName?: string } {
  const contexts = config.contexts ?? [];
  const wanted = config['current-context'];
  if (wanted) {
    const found = contexts.find((c) => c.name === wanted);
    if (!found)
      throw new Error(`the kubeconfig ${path} names current-context "${wanted}" but has no context of that name`);
    return { clusterName: found.context?.cluster, userName: found.context?.user };
  }
  if (contexts.length === 1) return { clusterName: contexts[0].context?.cluster, userName: contexts[0].context?.user };
  if (contexts.length > 1) throw new Error(`the kubeconfig ${path} has several contexts and no current-context`);
  return {};
}

/** The entry of that name, or the only entry when no name is asked for. */
function pick<T extends { name?: string }>(
  entries: T[] | undefined,
  name: string | undefined,
  what: string,
  path: string,
): T | undefined {
  const list = entries ?? [];
  if (name !== undefined) {
    const found = list.find((e) => e.name === name);
    if (!found) throw new Error(`the kubeconfig ${path} has no ${what} named "${name}"`);
    return found;
  }
  if (list.length > 1) throw new Error(`the kubeconfig ${path} has several ${what}s and no context choosing one`);
  return list[0];
}
