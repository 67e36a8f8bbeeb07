import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSelfSigned } from './self-signed';
import { resolveServingCertificate } from './serving-certificate';

let dir: string;
let certFile: string;
let keyFile: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-serving-cert-'));
  await ensureSelfSigned(join(dir, 'pair'));
  certFile = join(dir, 'pair', 'server.crt');
  keyFile = join(dir, 'pair', 'server.key');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveServingCertificate', () => {
  it('is plain HTTP without any TLS flag', async () => {
    expect(await resolveServingCertificate({}, '127.0.0.1')).toBeUndefined();
  });

  it('reads --tls-cert-file and --tls-private-key-file', async () => {
    expect(await resolveServingCertificate({ tlsCertFile: certFile, tlsPrivateKeyFile: keyFile }, '127.0.0.1')).toEqual(
      { cert: readFileSync(certFile), key: readFileSync(keyFile) },
    );
  });

  it.each([
    [
      'a certificate without its key',
      { tlsCertFile: 'server.crt' },
      '--tls-cert-file and --tls-private-key-file go together: give both (HTTPS) or neither',
    ],
    [
      'a key without its certificate',
      { tlsPrivateKeyFile: 'server.key' },
      '--tls-cert-file and --tls-private-key-file go together: give both (HTTPS) or neither',
    ],
  ])('refuses %s', async (_what, config, message) => {
    await expect(resolveServingCertificate(config, '127.0.0.1')).rejects.toThrow(message);
  });

  it('refuses --tls-listen without a certificate for it', async () => {
    await expect(resolveServingCertificate({ tlsListen: '127.0.0.1:8443' }, '127.0.0.1')).rejects.toThrow(
      '--tls-listen needs a certificate: --tls-self-signed, or --tls-cert-file and --tls-private-key-file',
    );
  });

  it('refuses files and --tls-self-signed together', async () => {
    await expect(
      resolveServingCertificate(
        { tlsCertFile: certFile, tlsPrivateKeyFile: keyFile, tlsSelfSignedDir: dir },
        '127.0.0.1',
      ),
    ).rejects.toThrow('give either --tls-cert-file and --tls-private-key-file, or --tls-self-signed, not both');
  });

  it('names a file it cannot read', async () => {
    await expect(
      resolveServingCertificate({ tlsCertFile: join(dir, 'nope.crt'), tlsPrivateKeyFile: keyFile }, '127.0.0.1'),
    ).rejects.toThrow(`--tls-cert-file: cannot read ${join(dir, 'nope.crt')}`);
  });

  it("refuses a key that is not the certificate's", async () => {
    await ensureSelfSigned(join(dir, 'other'));
    await expect(
      resolveServingCertificate(
        { tlsCertFile: certFile, tlsPrivateKeyFile: join(dir, 'other', 'server.key') },
        '127.0.0.1',
      ),
    ).rejects.toThrow(/cannot serve TLS: .*key values mismatch/);
  });

  it('refuses a file that is not PEM', async () => {
    writeFileSync(join(dir, 'junk.crt'), 'not a certificate\n');
    await expect(
      resolveServingCertificate({ tlsCertFile: join(dir, 'junk.crt'), tlsPrivateKeyFile: keyFile }, '127.0.0.1'),
    ).rejects.toThrow(/cannot serve TLS/);
  });

  it('makes a self-signed certificate for the listen host, and says where its CA is', async () => {
    const tls = await resolveServingCertificate({ tlsSelfSignedDir: join(dir, 'self') }, '192.0.2.1');
    expect(tls?.caFile).toBe(join(dir, 'self', 'ca.crt'));
    expect(tls?.cert).toEqual(readFileSync(join(dir, 'self', 'server.crt')));
    expect(tls?.created?.sort()).toEqual(['ca.crt', 'ca.key', 'server.crt', 'server.key']);
    expect((await resolveServingCertificate({ tlsSelfSignedDir: join(dir, 'self') }, '192.0.2.1'))?.created).toEqual(
      [],
    );
  });
});
