import * as k8s from '@kubernetes/client-node';
import { person } from '../support/person';
import { createToken, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';

/** The official Kubernetes client, unchanged, against svc with RBAC on, logged in with a personal access token. */
const suite = useRbacApi();
let kc: k8s.KubeConfig;
let objects: k8s.KubernetesObjectApi;

beforeAll(async () => {
  const { token } = await createToken(suite.admin);
  kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'svc', server: suite.server.url, skipTLSVerify: true }],
    users: [{ name: 'dev', token }],
    contexts: [{ name: 'svc', cluster: 'svc', user: 'dev' }],
    currentContext: 'svc',
  });
  objects = k8s.KubernetesObjectApi.makeApiClient(kc);
});

type Person = k8s.KubernetesObject & { spec: { name: string; age: number } };

it('creates, reads, replaces, patches, lists and deletes through KubernetesObjectApi', async () => {
  const created = (await objects.create(person('kc-ada') as Person)) as Person;
  expect(created.metadata?.resourceVersion).toBeDefined();
  const read = (await objects.read({
    apiVersion: 'example.com/v1alpha1',
    kind: 'Person',
    metadata: { name: 'kc-ada' },
  })) as Person;
  expect(read.spec.name).toBe('KC-ADA');

  read.spec.age = 44;
  const replaced = (await objects.replace(read)) as Person;
  expect(replaced.spec.age).toBe(44);
  expect(replaced.metadata?.generation).toBe(2);

  const patched = (await objects.patch(
    { apiVersion: 'example.com/v1alpha1', kind: 'Person', metadata: { name: 'kc-ada' }, spec: { age: 45 } } as Person,
    undefined,
    undefined,
    undefined,
    undefined,
    k8s.PatchStrategy.MergePatch,
  )) as Person;
  expect(patched.spec.age).toBe(45);
  const smp = (await objects.patch({
    apiVersion: 'example.com/v1alpha1',
    kind: 'Person',
    metadata: { name: 'kc-ada' },
    spec: { age: 46 },
  } as Person)) as Person;
  expect(smp.spec.age).toBe(46);

  const list = await objects.list('example.com/v1alpha1', 'Person');
  expect(list.items.map((i) => i.metadata?.name)).toContain('kc-ada');

  await objects.delete({ apiVersion: 'example.com/v1alpha1', kind: 'Person', metadata: { name: 'kc-ada' } });
  const marked = await objects.read({
    apiVersion: 'example.com/v1alpha1',
    kind: 'Person',
    metadata: { name: 'kc-ada' },
  });
  expect(marked.metadata?.deletionTimestamp).toBeDefined();
  await objects.delete({ apiVersion: 'example.com/v1alpha1', kind: 'Person', metadata: { name: 'kc-ada' } });
  await expect(
    objects.read({ apiVersion: 'example.com/v1alpha1', kind: 'Person', metadata: { name: 'kc-ada' } }),
  ).rejects.toMatchObject({ code: 404 });
});

it('surfaces errors as ApiException with the Status body', async () => {
  await objects.create(person('kc-dup') as Person);
  const err = (await objects.create(person('kc-dup') as Person).catch((e: unknown) => e)) as {
    code: number;
    body: string;
  };
  expect(err.code).toBe(409);
  expect(JSON.parse(err.body).reason).toBe('AlreadyExists');
});

it('an informer sees ADDED, MODIFIED and DELETED', async () => {
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const path = '/apis/example.com/v1alpha1/persons';
  const listFn = () =>
    custom.listClusterCustomObject({ group: 'example.com', version: 'v1alpha1', plural: 'persons' }) as Promise<
      k8s.KubernetesListObject<k8s.KubernetesObject>
    >;
  const informer = k8s.makeInformer(kc, path, listFn);
  const seen: string[] = [];
  informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
  informer.on('update', (o) => seen.push(`update ${o.metadata?.name}`));
  informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
  await informer.start();
  try {
    await suite.admin('POST', path, person('kc-inf'));
    await waitFor(() => seen.includes('add kc-inf'), { what: 'add event' });
    await suite.admin(
      'PATCH',
      `${path}/kc-inf`,
      { spec: { age: 1 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    await waitFor(() => seen.includes('update kc-inf'), { what: 'update event' });
    await suite.admin('DELETE', `${path}/kc-inf`);
    await suite.admin('DELETE', `${path}/kc-inf`);
    await waitFor(() => seen.includes('delete kc-inf'), { what: 'delete event' });
  } finally {
    await informer.stop();
  }
});
