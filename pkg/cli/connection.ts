import { readFileSync } from 'node:fs';
import pkg from '../../package.json';
import { ApiClient, type ApiClientConfig } from '../client';
import { configPath, currentContext, loadConfig } from './config';
import { UsageError } from './errors';
import type { CliIo } from './io';
import { warningPrinter } from './warnings';

/** The address `svcctl` uses when no flag, variable or context names one: the apiserver's default `--listen`. */
export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

/** The connection flags every command takes. */
export interface ConnectionFlags {
  server?: string;
  token?: string;
  /** A PEM file of the CA to trust. */
  certificateAuthority?: string;
  insecureSkipTlsVerify?: boolean;
  /** The config context to use instead of the current one. */
  context?: string;
}

/** Where svcctl's user agent says it comes from. */
export const USER_AGENT = `svcctl/${pkg.version}`;

/**
 * The connection, field by field: a flag beats its environment variable
 * (`SVC_SERVER`, `SVC_TOKEN`), which beats the config file's context.
 */
export function resolveConnection(flags: ConnectionFlags, io: Pick<CliIo, 'env' | 'home'>): ApiClientConfig {
  const context = currentContext(loadConfig(configPath(io.env, io.home)), flags.context);
  const config: ApiClientConfig = { server: serverFor(flags, io, context), userAgent: USER_AGENT };
  const token = flags.token || io.env.SVC_TOKEN || context?.token;
  if (token) config.token = token;
  const ca = caFor(flags, context);
  if (ca) config.ca = ca;
  if (flags.insecureSkipTlsVerify || context?.['insecure-skip-tls-verify']) config.insecureSkipTlsVerify = true;
  return config;
}

/** The server: the flag, else SVC_SERVER, else the context's, else the default. */
function serverFor(flags: ConnectionFlags, io: Pick<CliIo, 'env'>, context: ReturnType<typeof currentContext>): string {
  return flags.server || io.env.SVC_SERVER || context?.server || DEFAULT_SERVER;
}

/** The CA to trust: the flag's file, else the context's. */
function caFor(flags: ConnectionFlags, context: ReturnType<typeof currentContext>): string | undefined {
  return flags.certificateAuthority
    ? readCa(flags.certificateAuthority)
    : caOf(context?.['certificate-authority-data']);
}

/** A client for the resolved connection; the server's warnings go to stderr (see `warningPrinter`). */
export function connect(flags: ConnectionFlags, io: Pick<CliIo, 'env' | 'home' | 'stderr'>): ApiClient {
  return new ApiClient({ ...resolveConnection(flags, io), onWarning: warningPrinter(io) });
}

/** The PEM text of a CA file; UsageError when it cannot be read or holds no certificate. */
export function readCa(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the certificate authority file ${path}: ${(err as Error).message}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`the certificate authority file ${path} holds no PEM certificate`);
  return text;
}

const caOf = (data: string | undefined): string | undefined =>
  data ? Buffer.from(data, 'base64').toString('utf8') : undefined;
