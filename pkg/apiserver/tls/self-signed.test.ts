import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSelfSigned, SELF_SIGNED_FILES } from './self-signed';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-self-signed-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (name: string) => readFileSync(join(dir, name));
const mode = (name: string) => statSync(join(dir, name)).mode & 0o777;

describe('ensureSelfSigned', () => {
  it('makes a CA and a server certificate it signed, for the local names and the listen host, keys 0600', async () => {
    const made = await ensureSelfSigned(dir, ['svc.example.test', '10.1.2.3']);
    expect(made.caFile).toBe(join(dir, 'ca.crt'));
    expect(made.created.sort()).toEqual(['ca.crt', 'ca.key', 'server.crt', 'server.key']);
    expect(readdirSync(dir).sort()).toEqual(['ca.crt', 'ca.key', 'server.crt', 'server.key']);
    expect(mode(SELF_SIGNED_FILES.caKey)).toBe(0o600);
    expect(mode(SELF_SIGNED_FILES.key)).toBe(0o600);

    const ca = new X509Certificate(read('ca.crt'));
    const server = new X509Certificate(made.cert);
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.verify(ca.publicKey)).toBe(true);
    for (const host of ['localhost', 'svc.example.test']) expect(server.checkHost(host)).toBe(host);
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3']) expect(server.checkIP(ip)).toBe(ip);
    expect(server.checkHost('elsewhere.example.test')).toBeUndefined();
    expect(server.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']); // serverAuth
  });

  it('reuses every file on a later start', async () => {
    const first = await ensureSelfSigned(dir, ['127.0.0.1']);
    const again = await ensureSelfSigned(dir, ['127.0.0.1']);
    expect(again.created).toEqual([]);
    expect(again.cert.equals(first.cert)).toBe(true);
    expect(again.key.equals(first.key)).toBe(true);
  });

  it('issues a new server certificate from the same CA when the listen host is new to it', async () => {
    const first = await ensureSelfSigned(dir);
    const caBefore = read('ca.crt');
    const again = await ensureSelfSigned(dir, ['192.0.2.7']);
    expect(again.created.sort()).toEqual(['server.crt', 'server.key']);
    expect(read('ca.crt').equals(caBefore)).toBe(true);
    expect(new X509Certificate(again.cert).checkIP('192.0.2.7')).toBe('192.0.2.7');
    expect(again.cert.equals(first.cert)).toBe(false);
  });

  it('ignores a wildcard listen host', async () => {
    const made = await ensureSelfSigned(dir, ['0.0.0.0', '::']);
    expect(new X509Certificate(made.cert).checkIP('0.0.0.0')).toBeUndefined();
    expect((await ensureSelfSigned(dir, ['0.0.0.0'])).created).toEqual([]);
  });

  it('makes a new CA (and server certificate) when the CA key does not belong to the CA certificate', async () => {
    await ensureSelfSigned(dir);
    const other = mkdtempSync(join(tmpdir(), 'svc-self-signed-other-'));
    try {
      await ensureSelfSigned(other);
      writeFileSync(join(dir, 'ca.key'), readFileSync(join(other, 'ca.key')));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    const again = await ensureSelfSigned(dir);
    expect(again.created.sort()).toEqual(['ca.crt', 'ca.key', 'server.crt', 'server.key']);
    expect(new X509Certificate(again.cert).verify(new X509Certificate(read('ca.crt')).publicKey)).toBe(true);
  });

  it('makes a damaged server certificate again', async () => {
    await ensureSelfSigned(dir);
    writeFileSync(join(dir, 'server.crt'), 'not a certificate\n');
    const again = await ensureSelfSigned(dir);
    expect(again.created.sort()).toEqual(['server.crt', 'server.key']);
    expect(new X509Certificate(again.cert).checkHost('localhost')).toBe('localhost');
  });

  it('says openssl is needed, and what to do instead, when it is missing', async () => {
    await expect(ensureSelfSigned(dir, [], join(dir, 'no-such-openssl'))).rejects.toThrow(
      /needs the openssl command.*apt-get install openssl.*--tls-cert-file and --tls-private-key-file/,
    );
  });
});
