import { execFile } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The files `--tls-self-signed DIR` keeps in DIR. */
export const SELF_SIGNED_FILES = {
  caCert: 'ca.crt',
  caKey: 'ca.key',
  cert: 'server.crt',
  key: 'server.key',
} as const;

/** The names every self-signed serving certificate is valid for, besides the listen host. */
export const LOCAL_HOSTS = ['localhost', '127.0.0.1', '::1'] as const;

const CA_DAYS = 3650;
const SERVER_DAYS = 825;
/** A server certificate this close to its end is issued again at start. */
const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

/** What `ensureSelfSigned` made or found. */
export interface SelfSigned {
  /** The server certificate, PEM. */
  cert: Buffer;
  /** Its private key, PEM. */
  key: Buffer;
  /** The CA file a kubeconfig names as `certificate-authority`. */
  caFile: string;
  /** Which of the files were written by this call (empty when all were reused). */
  created: string[];
}

/**
 * Makes (first use) or reuses a local CA and a server certificate it signed,
 * valid for `localhost`, `127.0.0.1`, `::1` and `hosts`, in `dir`: `ca.crt`,
 * `ca.key`, `server.crt`, `server.key` (keys mode 0600). The CA is kept across
 * starts, so that kubeconfigs naming `ca.crt` stay valid; the server
 * certificate is issued again when it misses a host, is not the CA's, or ends
 * within 30 days. Keys are made by Node; certificates by the `openssl` command
 * (Node cannot sign X.509 certificates), which must be on the PATH.
 * @example const { cert, key, caFile } = await ensureSelfSigned('data/tls', ['127.0.0.1']);
 */
export async function ensureSelfSigned(
  dir: string,
  hosts: readonly string[] = [],
  openssl = 'openssl',
): Promise<SelfSigned> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = (name: string) => join(dir, name);
  const wanted = [...new Set([...LOCAL_HOSTS, ...hosts.filter(isNamedHost)])];
  const created: string[] = [];
  const work = mkdtempSync(join(dir, '.openssl-'));
  try {
    const config = writeConfig(work, wanted);
    if (!usableCa(path(SELF_SIGNED_FILES.caCert), path(SELF_SIGNED_FILES.caKey))) {
      writeKey(path(SELF_SIGNED_FILES.caKey));
      await runOpenssl(openssl, [
        'req',
        '-x509',
        '-new',
        '-sha256',
        '-days',
        String(CA_DAYS),
        '-key',
        path(SELF_SIGNED_FILES.caKey),
        '-config',
        config,
        '-extensions',
        'ca_ext',
        '-subj',
        '/CN=svc local CA',
        '-out',
        path(SELF_SIGNED_FILES.caCert),
      ]);
      created.push(SELF_SIGNED_FILES.caKey, SELF_SIGNED_FILES.caCert);
    }
    const ca = new X509Certificate(readFileSync(path(SELF_SIGNED_FILES.caCert)));
    if (!usableServerCert(path(SELF_SIGNED_FILES.cert), path(SELF_SIGNED_FILES.key), ca, wanted)) {
      writeKey(path(SELF_SIGNED_FILES.key));
      const csr = join(work, 'server.csr');
      await runOpenssl(openssl, [
        'req',
        '-new',
        '-sha256',
        '-key',
        path(SELF_SIGNED_FILES.key),
        '-config',
        config,
        '-subj',
        '/CN=svc-apiserver',
        '-out',
        csr,
      ]);
      await runOpenssl(openssl, [
        'x509',
        '-req',
        '-sha256',
        '-days',
        String(SERVER_DAYS),
        '-in',
        csr,
        '-CA',
        path(SELF_SIGNED_FILES.caCert),
        '-CAkey',
        path(SELF_SIGNED_FILES.caKey),
        '-set_serial',
        serialNumber(),
        '-extfile',
        config,
        '-extensions',
        'server_ext',
        '-out',
        path(SELF_SIGNED_FILES.cert),
      ]);
      created.push(SELF_SIGNED_FILES.key, SELF_SIGNED_FILES.cert);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return {
    cert: readFileSync(path(SELF_SIGNED_FILES.cert)),
    key: readFileSync(path(SELF_SIGNED_FILES.key)),
    caFile: path(SELF_SIGNED_FILES.caCert),
    created,
  };
}

/** A wildcard listen address (`0.0.0.0`, `::`) names no host a client would ask for. */
const isNamedHost = (host: string) => host !== '' && host !== '0.0.0.0' && host !== '::';

function usableCa(certFile: string, keyFile: string): boolean {
  return usablePair(certFile, keyFile, (cert) => cert.ca);
}

function usableServerCert(certFile: string, keyFile: string, ca: X509Certificate, hosts: string[]): boolean {
  return usablePair(
    certFile,
    keyFile,
    (cert) =>
      cert.verify(ca.publicKey) &&
      hosts.every((host) => (isIP(host) ? cert.checkIP(host) : cert.checkHost(host)) !== undefined),
  );
}

/** Both files exist and parse, the key is the certificate's, it does not end soon, and `check` holds. */
function usablePair(certFile: string, keyFile: string, check: (cert: X509Certificate) => boolean): boolean {
  if (!existsSync(certFile) || !existsSync(keyFile)) return false;
  try {
    const cert = new X509Certificate(readFileSync(certFile));
    return cert.checkPrivateKey(createPrivateKey(readFileSync(keyFile))) && !endsSoon(cert) && check(cert);
  } catch {
    return false; // damaged: made again
  }
}

const endsSoon = (cert: X509Certificate) => new Date(cert.validTo).getTime() - Date.now() < RENEW_BEFORE_MS;

/** An ECDSA P-256 key (what kubectl and browsers accept everywhere), written 0600 from the start. */
function writeKey(file: string): void {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  rmSync(file, { force: true });
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
}

/** A positive 127-bit serial number, in openssl's `0x…` notation. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f;
  return `0x${bytes.toString('hex')}`;
}

/** An openssl configuration of our own, so that the system's openssl.cnf adds no extensions of its own. */
function writeConfig(dir: string, hosts: string[]): string {
  const names = hosts.map((host, i) => (isIP(host) ? `IP.${i + 1} = ${host}` : `DNS.${i + 1} = ${host}`));
  const file = join(dir, 'openssl.cnf');
  writeFileSync(
    file,
    [
      '[req]',
      'distinguished_name = dn',
      'prompt = no',
      '[dn]',
      'CN = svc',
      '[ca_ext]',
      'basicConstraints = critical, CA:TRUE',
      'keyUsage = critical, keyCertSign, cRLSign',
      'subjectKeyIdentifier = hash',
      '[server_ext]',
      'basicConstraints = critical, CA:FALSE',
      'keyUsage = critical, digitalSignature',
      'extendedKeyUsage = serverAuth',
      'subjectKeyIdentifier = hash',
      'authorityKeyIdentifier = keyid',
      'subjectAltName = @alt_names',
      '[alt_names]',
      ...names,
      '',
    ].join('\n'),
  );
  return file;
}

/** Runs openssl; a missing command is told as such, a failure with openssl's own words. */
async function runOpenssl(openssl: string, args: string[]): Promise<void> {
  try {
    await run(openssl, args);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') {
      throw new Error(
        `--tls-self-signed needs the openssl command (OpenSSL 1.1.1 or later) on the PATH: install it ` +
          '(Debian, Ubuntu: apt-get install openssl), or give --tls-cert-file and --tls-private-key-file instead',
      );
    }
    throw new Error(`openssl ${args[0]} failed: ${(e.stderr ?? e.message).trim()}`);
  }
}
