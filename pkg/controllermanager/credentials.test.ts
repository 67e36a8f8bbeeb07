import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SERVER, readCaFile, readKubeconfig, readTokenFile, resolveConnection } from './credentials';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-cm-credentials-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const KUBECONFIG = `
apiVersion: v1
kind: Config
clusters:
  - {name: other, cluster: {server: "http://10.0.0.9:8080"}}
  - {name: local, cluster: {server: "http://127.0.0.1:9999"}}
users:
  - {name: admin, user: {token: admin-token}}
  - {name: cm, user: {tokenFile: cm-token}}
contexts:
  - {name: as-admin, context: {cluster: other, user: admin}}
  - {name: as-cm, context: {cluster: local, user: cm}}
current-context: as-cm
`;

describe('readTokenFile', () => {
  it('answers the token without the trailing newline', () => {
    expect(readTokenFile(file('token', 's3cr3t-token\n'))).toBe('s3cr3t-token');
  });

  it.each([
    ['empty', '  \n', /is empty/],
    ['holding two words', 'one two\n', /more than one word/],
  ])('refuses a file %s', (_what, text, message) => {
    expect(() => readTokenFile(file('token', text))).toThrow(message);
  });

  it('names a file it cannot read', () => {
    expect(() => readTokenFile(join(dir, 'missing'))).toThrow(/cannot read the token file .*missing/);
  });
});

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('readCaFile', () => {
  it('answers the PEM text', () => {
    expect(readCaFile(file('ca.crt', PEM))).toBe(PEM);
  });

  it('refuses a file without a certificate, and names a file it cannot read', () => {
    expect(() => readCaFile(file('ca.crt', 'hello\n'))).toThrow(/ca.crt holds no PEM certificate/);
    expect(() => readCaFile(join(dir, 'missing.crt'))).toThrow(
      /cannot read the certificate authority file .*missing.crt/,
    );
  });
});

describe('readKubeconfig', () => {
  it("follows current-context to its cluster's server and its user's tokenFile, relative to the kubeconfig", () => {
    file('cm-token', 'cm-secret\n');
    expect(readKubeconfig(file('kubeconfig', KUBECONFIG))).toEqual({
      server: 'http://127.0.0.1:9999',
      token: 'cm-secret',
    });
  });

  it('reads an inline token, and a file with one cluster and one user and no contexts', () => {
    const text = 'clusters: [{name: c, cluster: {server: "http://h:1"}}]\nusers: [{name: u, user: {token: t0k}}]\n';
    expect(readKubeconfig(file('kubeconfig', text))).toEqual({ server: 'http://h:1', token: 't0k' });
  });

  it("reads the cluster's certificate-authority (relative to the kubeconfig) or certificate-authority-data", () => {
    file('ca.crt', PEM);
    const byFile = 'clusters: [{name: c, cluster: {server: "https://h:1", certificate-authority: ca.crt}}]\n';
    expect(readKubeconfig(file('kubeconfig', byFile))).toEqual({ server: 'https://h:1', ca: PEM });
    const data = Buffer.from(PEM).toString('base64');
    const inline = `clusters: [{name: c, cluster: {server: "https://h:1", certificate-authority-data: ${data}}}]\n`;
    expect(readKubeconfig(file('kubeconfig', inline))).toEqual({ server: 'https://h:1', ca: PEM });
  });

  it.each([
    [
      'a current-context that does not exist',
      KUBECONFIG.replace('current-context: as-cm', 'current-context: nope'),
      /no context of that name/,
    ],
    ['several contexts and no current-context', KUBECONFIG.replace('current-context: as-cm', ''), /several contexts/],
    [
      'a context naming a missing cluster',
      KUBECONFIG.replace('cluster: local,', 'cluster: gone,'),
      /no cluster named "gone"/,
    ],
    ['something other than a mapping', '- just\n- a list\n', /not a YAML mapping/],
    ['invalid YAML', 'clusters: [\n', /cannot read the kubeconfig/],
  ])('refuses %s', (_what, text, message) => {
    file('cm-token', 'cm-secret\n');
    expect(() => readKubeconfig(file('kubeconfig', text))).toThrow(message);
  });
});

describe('resolveConnection', () => {
  it('lets --server and --token-file win over the kubeconfig', () => {
    file('cm-token', 'cm-secret\n');
    const kubeconfig = file('kubeconfig', KUBECONFIG);
    expect(
      resolveConnection({ kubeconfig, server: 'http://flag:1', tokenFile: file('flag-token', 'flag-secret') }),
    ).toEqual({ server: 'http://flag:1', token: 'flag-secret' });
    expect(resolveConnection({ kubeconfig })).toEqual({ server: 'http://127.0.0.1:9999', token: 'cm-secret' });
  });

  it("lets --certificate-authority win over the kubeconfig's", () => {
    const other = PEM.replace('MIIB', 'MIIC');
    const kubeconfig = file(
      'kubeconfig',
      `clusters: [{name: c, cluster: {server: "https://h:1", certificate-authority: ca.crt}}]\n`,
    );
    file('ca.crt', PEM);
    expect(resolveConnection({ kubeconfig })).toEqual({ server: 'https://h:1', ca: PEM });
    expect(resolveConnection({ kubeconfig, certificateAuthority: file('flag.crt', other) })).toEqual({
      server: 'https://h:1',
      ca: other,
    });
  });

  it('defaults to the local apiserver without a token', () => {
    expect(resolveConnection({})).toEqual({ server: DEFAULT_SERVER });
  });
});
