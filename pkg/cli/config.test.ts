import { kubeconfigOf, redactedConfig, upsertContext, type CliConfig } from './config';

const config: CliConfig = {
  'current-context': 'admin@h:1',
  contexts: [
    {
      name: 'admin@h:1',
      server: 'https://h:1',
      user: 'admin',
      token: 'svc_secret',
      'certificate-authority-data': 'Q0E=',
    },
  ],
};

describe('the svcctl config', () => {
  it('shows tokens as REDACTED and leaves out CA data', () => {
    expect(redactedConfig(config).contexts[0]).toEqual({
      name: 'admin@h:1',
      server: 'https://h:1',
      user: 'admin',
      token: 'REDACTED',
      'certificate-authority-data': 'DATA+OMITTED',
    });
    expect(config.contexts[0]?.token).toBe('svc_secret');
  });

  it('replaces a context of the same name', () => {
    const next = upsertContext(config, { name: 'admin@h:1', server: 'https://h:1', token: 'new' });
    expect(next.contexts).toEqual([{ name: 'admin@h:1', server: 'https://h:1', token: 'new' }]);
  });

  it('makes a kubeconfig naming the server, the CA data and the token', () => {
    const context = config.contexts[0];
    if (!context) throw new Error('no context');
    expect(kubeconfigOf(context)).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      preferences: {},
      clusters: [{ name: 'admin@h:1', cluster: { server: 'https://h:1', 'certificate-authority-data': 'Q0E=' } }],
      users: [{ name: 'admin@h:1', user: { token: 'svc_secret' } }],
      contexts: [{ name: 'admin@h:1', context: { cluster: 'admin@h:1', user: 'admin@h:1' } }],
      'current-context': 'admin@h:1',
    });
  });
});
