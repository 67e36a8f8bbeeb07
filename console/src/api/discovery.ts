import { api } from './client';

/** A served resource, from discovery (`/api/v1alpha1`, `/apis/<group>/<version>`). */
export interface ServedModel {
  group: string;
  version: string;
  plural: string;
  kind: string;
  verbs: string[];
}

interface ResourceList {
  resources: { name: string; kind: string; verbs?: string[] }[];
}
interface GroupList {
  groups: { name: string; preferredVersion?: { version: string }; versions: { version: string }[] }[];
}

/** Every served resource (subresources left out): the core group's, then each group's preferred version. */
export async function servedModels(): Promise<ServedModel[]> {
  const groups = await api<GroupList>('GET', '/apis');
  const lists = await Promise.all([
    api<ResourceList>('GET', '/api/v1alpha1').then((list) => ({ group: '', version: 'v1alpha1', list })),
    ...groups.groups.map(async (g) => {
      const version = g.preferredVersion?.version ?? g.versions[0]?.version;
      return { group: g.name, version, list: await api<ResourceList>('GET', `/apis/${g.name}/${version}`) };
    }),
  ]);
  return lists.flatMap(({ group, version, list }) =>
    list.resources
      .filter((r) => !r.name.includes('/'))
      .map((r) => ({ group, version, plural: r.name, kind: r.kind, verbs: r.verbs ?? [] })),
  );
}
