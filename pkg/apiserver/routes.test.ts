import { parseRequestInfo } from './request-info';
import { RouteTable } from './routes';

const handler = async () => undefined;

describe('RouteTable', () => {
  const routes = new RouteTable();
  routes.add({ group: '', version: 'v1alpha1', resource: 'users', subresource: 'password' }, handler);
  routes.add(
    { group: 'authorization.svc.run', version: 'v1alpha1', resource: 'accessreviews', selfService: true },
    handler,
  );

  it.each([
    ['PUT', '/api/v1alpha1/users/ada/password', 'users/password'],
    ['POST', '/apis/authorization.svc.run/v1alpha1/accessreviews', 'accessreviews'],
  ])('finds %s %s', (method, path, what) => {
    const route = routes.lookup(parseRequestInfo(method, path));
    expect(route && `${route.resource}${route.subresource ? `/${route.subresource}` : ''}`).toBe(what);
  });

  it.each([
    ['GET', '/api/v1alpha1/users/ada'],
    ['GET', '/api/v1alpha1/users/ada/status'],
    ['PUT', '/api/v2/users/ada/password'],
    ['POST', '/apis/authorization.svc.run/v1alpha1/accessreviews/x/y'],
    ['PUT', '/api/v1alpha1/users/ada/password/extra'],
    ['PUT', '/api/v1alpha1/users/ada/password/a/b'],
    ['GET', '/healthz'],
  ])('leaves %s %s to the models', (method, path) => {
    expect(routes.lookup(parseRequestInfo(method, path))).toBeUndefined();
  });

  it('takes a longer path only where the route declares it', () => {
    const table = new RouteTable();
    table.add({ group: '', version: 'v1', resource: 'namespaces', subresource: 'services', maxParts: 4 }, handler);
    expect(table.lookup(parseRequestInfo('GET', '/api/v1/namespaces/ns/services/svc'))).toBeDefined();
    expect(table.lookup(parseRequestInfo('GET', '/api/v1/namespaces/ns/services/svc/more'))).toBeUndefined();
  });

  it('refuses a second route at the same place', () => {
    expect(() =>
      routes.add({ group: '', version: 'v1alpha1', resource: 'users', subresource: 'password' }, handler),
    ).toThrow(/already registered/);
  });

  it('marks self-service routes', () => {
    expect(
      routes.lookup(parseRequestInfo('POST', '/apis/authorization.svc.run/v1alpha1/accessreviews'))?.selfService,
    ).toBe(true);
  });

  it('serves every path under a resource that a wildcard route accepts, and lets the rest fall through', () => {
    const table = new RouteTable();
    const remove = table.add(
      {
        group: 'x.io',
        version: 'v1',
        resource: 'things',
        subresource: '*',
        accepts: (info, method) => method === 'GET' && info.parts.length === 3 && info.parts[2] === 'hello',
      },
      handler,
    );
    expect(table.lookup(parseRequestInfo('GET', '/apis/x.io/v1/things/a/hello'), 'GET')?.subresource).toBe('*');
    expect(table.lookup(parseRequestInfo('POST', '/apis/x.io/v1/things/a/hello'), 'POST')).toBeUndefined();
    expect(table.lookup(parseRequestInfo('GET', '/apis/x.io/v1/things/a'), 'GET')).toBeUndefined();
    expect(table.lookup(parseRequestInfo('GET', '/apis/x.io/v1/things/a/*'), 'GET')).toBeUndefined();
    remove();
    expect(table.lookup(parseRequestInfo('GET', '/apis/x.io/v1/things/a/hello'), 'GET')).toBeUndefined();
  });
});
