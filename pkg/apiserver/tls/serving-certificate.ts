import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { ensureSelfSigned } from './self-signed';

/** The certificate chain and private key the apiserver serves HTTPS with (PEM). */
export interface ServingCertificate {
  cert: Buffer;
  key: Buffer;
}

/**
 * The TLS flags: a certificate and key of one's own, or a directory for a self-signed one; none of them means plain
 * HTTP. With `tlsListen` the certificate serves a second listener there, and `--listen` stays plain HTTP.
 */
export interface TlsConfig {
  /** `--tls-cert-file`: the certificate (chain), PEM. */
  tlsCertFile?: string;
  /** `--tls-private-key-file`: its private key, PEM. */
  tlsPrivateKeyFile?: string;
  /** `--tls-self-signed DIR`: a local CA and a server certificate, made in DIR on first use and reused later. */
  tlsSelfSignedDir?: string;
  /** `--tls-listen HOST:PORT`: serve HTTPS there, beside plain HTTP on `--listen`. */
  tlsListen?: string;
}

/** The serving certificate and, when self-signed, the CA file clients should trust and the files made now. */
export interface ResolvedTls extends ServingCertificate {
  caFile?: string;
  /** Self-signed: which files this start wrote (empty when every one was reused). */
  created?: string[];
}

/**
 * The certificate the flags ask for, or undefined for plain HTTP. Throws a
 * message naming the flags when they are given half (a certificate without
 * its key) or both ways (files and `--tls-self-signed`), or the files cannot
 * be read or do not make a pair, or when `--tls-listen` has no certificate.
 * `listenHost` (the HTTPS listener's host) is added to a self-signed certificate's names.
 */
export async function resolveServingCertificate(
  config: TlsConfig,
  listenHost: string,
): Promise<ResolvedTls | undefined> {
  const { tlsCertFile, tlsPrivateKeyFile, tlsSelfSignedDir } = config;
  if (Boolean(tlsCertFile) !== Boolean(tlsPrivateKeyFile)) {
    throw new Error('--tls-cert-file and --tls-private-key-file go together: give both (HTTPS) or neither');
  }
  if (tlsCertFile && tlsPrivateKeyFile) {
    if (tlsSelfSignedDir)
      throw new Error('give either --tls-cert-file and --tls-private-key-file, or --tls-self-signed, not both');
    const pair = {
      cert: readPem(tlsCertFile, '--tls-cert-file'),
      key: readPem(tlsPrivateKeyFile, '--tls-private-key-file'),
    };
    try {
      createSecureContext(pair);
    } catch (err) {
      throw new Error(
        `--tls-cert-file ${tlsCertFile} and --tls-private-key-file ${tlsPrivateKeyFile} cannot serve TLS: ${(err as Error).message}`,
      );
    }
    return pair;
  }
  if (!tlsSelfSignedDir) {
    if (config.tlsListen)
      throw new Error(
        '--tls-listen needs a certificate: --tls-self-signed, or --tls-cert-file and --tls-private-key-file',
      );
    return undefined;
  }
  const { cert, key, caFile, created } = await ensureSelfSigned(tlsSelfSignedDir, [listenHost]);
  return { cert, key, caFile, created };
}

function readPem(file: string, flag: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`${flag}: cannot read ${file}: ${(err as Error).message}`);
  }
}
