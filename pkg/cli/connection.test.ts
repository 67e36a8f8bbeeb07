import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveConfig } from './config';
import { DEFAULT_SERVER, resolveConnection } from './connection';

let home: string;
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'svcctl-connection-'));
  saveConfig(join(home, '.svc', 'config'), {
    'current-context': 'admin@file',
    contexts: [
      {
        name: 'admin@file',
        server: 'https://file:8443',
        user: 'admin',
        token: 'file-token',
        'certificate-authority-data': Buffer.from(PEM).toString('base64'),
      },
      { name: 'bob@other', server: 'http://other:8080', user: 'bob', token: 'other-token' },
    ],
  });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('resolveConnection', () => {
  it('takes the current context of ~/.svc/config when no flag or variable says otherwise', () => {
    expect(resolveConnection({}, { env: {}, home })).toMatchObject({
      server: 'https://file:8443',
      token: 'file-token',
      ca: PEM,
    });
  });

  it('lets SVC_SERVER and SVC_TOKEN beat the config, and flags beat both', () => {
    const env = { SVC_SERVER: 'http://env:1', SVC_TOKEN: 'env-token' };
    expect(resolveConnection({}, { env, home })).toMatchObject({ server: 'http://env:1', token: 'env-token' });
    expect(resolveConnection({ server: 'http://flag:2', token: 'flag-token' }, { env, home })).toMatchObject({
      server: 'http://flag:2',
      token: 'flag-token',
    });
  });

  it("reads the CA of --certificate-authority instead of the context's", () => {
    const file = join(home, 'ca.crt');
    const other = PEM.replace('MIIB', 'MIIC');
    writeFileSync(file, other);
    expect(resolveConnection({ certificateAuthority: file }, { env: {}, home }).ca).toBe(other);
  });

  it('uses --context instead of the current one, and $SVC_CONFIG instead of ~/.svc/config', () => {
    expect(resolveConnection({ context: 'bob@other' }, { env: {}, home })).toMatchObject({
      server: 'http://other:8080',
      token: 'other-token',
    });
    const elsewhere = join(home, 'elsewhere');
    saveConfig(elsewhere, { 'current-context': 'x', contexts: [{ name: 'x', server: 'http://x:9' }] });
    expect(resolveConnection({}, { env: { SVC_CONFIG: elsewhere }, home })).toEqual(
      expect.objectContaining({ server: 'http://x:9' }),
    );
  });

  it("falls back to the apiserver's default address without a token when there is no config", () => {
    const empty = resolveConnection({}, { env: { SVC_CONFIG: join(home, 'missing') }, home });
    expect(empty.server).toBe(DEFAULT_SERVER);
    expect(empty.token).toBeUndefined();
  });

  it('refuses a --context the config does not have, and a CA file without a certificate', () => {
    expect(() => resolveConnection({ context: 'nobody' }, { env: {}, home })).toThrow('no context named "nobody"');
    const file = join(home, 'not-a-ca');
    writeFileSync(file, 'hello');
    expect(() => resolveConnection({ certificateAuthority: file }, { env: {}, home })).toThrow(
      'holds no PEM certificate',
    );
  });
});
