import yaml from 'js-yaml';
import { kubeconfigOf } from './config';
import { mergeKubeconfig } from './kubeconfig-merge';

const added = kubeconfigOf({ name: 'admin@h:1', server: 'https://h:1', user: 'admin', token: 'svc_new' });

const existing = yaml.dump({
  apiVersion: 'v1',
  kind: 'Config',
  preferences: { colors: true },
  clusters: [
    { name: 'prod', cluster: { server: 'https://prod' } },
    { name: 'admin@h:1', cluster: { server: 'https://old' } },
  ],
  users: [
    { name: 'admin', user: { token: 'prod-admin-token' } },
    { name: 'admin@h:1', user: { token: 'svc_old' } },
  ],
  contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'admin' } }],
  'current-context': 'prod',
});

describe('mergeKubeconfig (svcctl config kubeconfig -o FILE)', () => {
  it("keeps the file's other clusters, users and contexts, replaces its own entries and makes its context current", () => {
    const merged = mergeKubeconfig(existing, added, 'config');
    expect(merged['current-context']).toBe('admin@h:1');
    expect(merged.preferences).toEqual({ colors: true });
    expect(merged.clusters).toEqual([
      { name: 'prod', cluster: { server: 'https://prod' } },
      { name: 'admin@h:1', cluster: { server: 'https://h:1' } },
    ]);
    expect(merged.users).toEqual([
      { name: 'admin', user: { token: 'prod-admin-token' } },
      { name: 'admin@h:1', user: { token: 'svc_new' } },
    ]);
    expect(merged.contexts?.map((c) => c.name)).toEqual(['prod', 'admin@h:1']);
  });

  it('writes the kubeconfig alone into an empty file', () => {
    expect(mergeKubeconfig('', added, 'config')).toEqual(added);
  });

  it('refuses to overwrite a file that is not a kubeconfig', () => {
    expect(() => mergeKubeconfig('name: my notes\n', added, 'notes.yaml')).toThrow(
      'notes.yaml is not a kubeconfig (want kind: Config); name another file',
    );
    expect(() => mergeKubeconfig('{ not yaml', added, 'x')).toThrow(/^x is not a kubeconfig/);
  });
});
