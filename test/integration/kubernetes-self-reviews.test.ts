import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bind, createRole, createToken, createUser, useRbacApi, bearer } from '../support/security';
import type { ApiClient } from '../support/apiserver';

// What kubectl's `auth whoami`, `auth can-i --list` and `cluster-info` ask, over HTTP with JSON and with
// the protobuf bodies kubectl 1.32 sent (pkg/apiserver/k8s-protobuf/testdata).
const api = useRbacApi();
const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const RULES = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const protobuf = (name: string) =>
  readFileSync(join(__dirname, '..', '..', 'pkg', 'apiserver', 'k8s-protobuf', 'testdata', name)).toString('latin1');
let ada: ApiClient;

beforeAll(async () => {
  ada = await createUser(api, 'ada');
  await createRole(api, 'reader', [
    { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list'] },
    { apiGroups: ['example.com'], resources: ['persons'], resourceNames: ['grace'], verbs: ['update'] },
  ]);
  await createRole(api, 'other', [{ apiGroups: [''], resources: ['users'], verbs: ['list'] }]);
  await bind(api, 'ada', 'reader');
  await bind(api, 'ada', 'other');
});

describe('SelfSubjectReview (kubectl auth whoami)', () => {
  it('answers the caller: name, groups and roles', async () => {
    const res = await ada('POST', WHOAMI, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: null },
      status: {
        userInfo: {
          username: 'ada',
          groups: ['authenticated', 'anonymous'],
          extra: { 'svc.run/roles': ['other', 'reader'] },
        },
      },
    });
  });

  it("reads kubectl's protobuf body", async () => {
    const res = await ada('POST', WHOAMI, protobuf('whoami.pb'), {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
    });
    expect(res.status).toBe(201);
    expect(res.body.status.userInfo.username).toBe('ada');
  });

  it("answers a token's roles only (a role-limited token)", async () => {
    const { token } = await createToken(ada, { roles: ['reader'] });
    const res = await api.as(bearer(token))('POST', WHOAMI, {});
    expect(res.body.status.userInfo.extra).toEqual({ 'svc.run/roles': ['reader'] });
  });

  it('refuses a protobuf body of another kind (400) and a GET (405)', async () => {
    const wrong = await ada('POST', WHOAMI, protobuf('can-i-list.pb'), {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('expected authentication.k8s.io/v1 SelfSubjectReview');
    expect((await ada('GET', WHOAMI)).status).toBe(405);
  });

  it('leaves the anonymous visitor to RBAC: 401', async () => {
    expect((await api.anonymous('POST', WHOAMI, {})).status).toBe(401);
  });
});

describe('SelfSubjectRulesReview (kubectl auth can-i --list)', () => {
  it("lists the rules of the caller's roles and of authenticated and anonymous, each once", async () => {
    const res = await ada('POST', RULES, { spec: { namespace: 'default' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'default' },
      status: { incomplete: false },
    });
    const { resourceRules, nonResourceRules } = res.body.status;
    expect(resourceRules).toEqual(
      expect.arrayContaining([
        { verbs: ['get', 'list'], apiGroups: ['example.com'], resources: ['persons'] },
        { verbs: ['update'], apiGroups: ['example.com'], resources: ['persons'], resourceNames: ['grace'] },
        { verbs: ['list'], apiGroups: [''], resources: ['users'] },
      ]),
    );
    expect(nonResourceRules).toContainEqual(
      expect.objectContaining({ nonResourceURLs: expect.arrayContaining(['/healthz']) }),
    );
    const keys = resourceRules.map((r: unknown) => JSON.stringify(r));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("reads kubectl's protobuf body, echoing its namespace", async () => {
    const res = await ada('POST', RULES, protobuf('can-i-list.pb'), {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
    });
    expect(res.status).toBe(201);
    expect(res.body.spec).toEqual({ namespace: 'default' });
  });

  it('gives the super administrator everything', async () => {
    const res = await api.admin('POST', RULES, {});
    expect(res.body.status.resourceRules).toContainEqual(
      expect.objectContaining({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }),
    );
  });
});

describe('core v1 services (kubectl cluster-info)', () => {
  it('lists no services, at the cluster path and a namespaced one', async () => {
    const empty = { kind: 'ServiceList', apiVersion: 'v1', metadata: { resourceVersion: '0' }, items: [] };
    const selector = 'labelSelector=kubernetes.io%2Fcluster-service%3Dtrue';
    expect((await ada('GET', `/api/v1/services?${selector}`)).body).toEqual(empty);
    expect((await ada('GET', `/api/v1/namespaces/kube-system/services?${selector}`)).body).toEqual(empty);
  });

  it('is discovered as a read-only, cluster-scoped core v1 resource after the preferred v1alpha1', async () => {
    expect((await api.anonymous('GET', '/api')).body.versions).toEqual(['v1alpha1', 'v1']);
    expect((await api.anonymous('GET', '/api/v1')).body).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'v1',
      resources: [
        { name: 'services', singularName: 'service', namespaced: false, kind: 'Service', verbs: ['get', 'list'] },
      ],
    });
  });

  it('answers a name 404, a write or a watch 405, a malformed selector 400', async () => {
    expect((await ada('GET', '/api/v1/services/kubernetes')).status).toBe(404);
    expect((await ada('GET', '/api/v1/namespaces/default/services/kubernetes')).status).toBe(404);
    expect((await ada('POST', '/api/v1/services', { metadata: { name: 'x' } })).status).toBe(405);
    expect((await ada('GET', '/api/v1/services?watch=1')).status).toBe(405);
    const bad = await ada('GET', '/api/v1/services?labelSelector=a%20in%20(b');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('invalid labelSelector');
  });

  it('leaves the anonymous visitor to RBAC: 401', async () => {
    expect((await api.anonymous('GET', '/api/v1/services')).status).toBe(401);
  });
});
