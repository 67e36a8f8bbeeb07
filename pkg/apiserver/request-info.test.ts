import { StatusError } from '../api/errors';
import { parseRequestInfo, watchRequested, type RequestInfo } from './request-info';

const resource = (fields: Partial<RequestInfo>): RequestInfo => ({
  isResourceRequest: true,
  path: '',
  verb: '',
  apiPrefix: 'apis',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
  parts: [],
  ...fields,
});
const nonResource = (path: string, verb: string, fields: Partial<RequestInfo> = {}): RequestInfo => ({
  isResourceRequest: false,
  path,
  verb,
  apiPrefix: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
  parts: [],
  ...fields,
});

const G = '/apis/example.com/v1alpha1';
const persons = (fields: Partial<RequestInfo>) =>
  resource({ apiGroup: 'example.com', apiVersion: 'v1alpha1', resource: 'persons', ...fields });

describe('parseRequestInfo', () => {
  it.each<[string, string, RequestInfo]>([
    // Model resources: every verb.
    ['GET', `${G}/persons`, persons({ path: `${G}/persons`, verb: 'list', parts: ['persons'] })],
    ['GET', `${G}/persons?watch=true`, persons({ path: `${G}/persons`, verb: 'watch', parts: ['persons'] })],
    [
      'GET',
      `${G}/persons?watch=1&labelSelector=a%3Db`,
      persons({ path: `${G}/persons`, verb: 'watch', parts: ['persons'] }),
    ],
    ['GET', `${G}/persons?watch=false`, persons({ path: `${G}/persons`, verb: 'list', parts: ['persons'] })],
    ['GET', `${G}/persons?watch=0`, persons({ path: `${G}/persons`, verb: 'list', parts: ['persons'] })],
    [
      'GET',
      `${G}/persons/ada`,
      persons({ path: `${G}/persons/ada`, verb: 'get', name: 'ada', parts: ['persons', 'ada'] }),
    ],
    [
      'GET',
      `${G}/persons/ada?watch=true`,
      persons({ path: `${G}/persons/ada`, verb: 'get', name: 'ada', parts: ['persons', 'ada'] }),
    ],
    [
      'HEAD',
      `${G}/persons/ada`,
      persons({ path: `${G}/persons/ada`, verb: 'get', name: 'ada', parts: ['persons', 'ada'] }),
    ],
    ['HEAD', `${G}/persons`, persons({ path: `${G}/persons`, verb: 'list', parts: ['persons'] })],
    ['POST', `${G}/persons`, persons({ path: `${G}/persons`, verb: 'create', parts: ['persons'] })],
    [
      'POST',
      `${G}/persons/ada`,
      persons({ path: `${G}/persons/ada`, verb: 'create', name: 'ada', parts: ['persons', 'ada'] }),
    ],
    [
      'PUT',
      `${G}/persons/ada`,
      persons({ path: `${G}/persons/ada`, verb: 'update', name: 'ada', parts: ['persons', 'ada'] }),
    ],
    [
      'PATCH',
      `${G}/persons/ada`,
      persons({ path: `${G}/persons/ada`, verb: 'patch', name: 'ada', parts: ['persons', 'ada'] }),
    ],
    [
      'DELETE',
      `${G}/persons/ada`,
      persons({ path: `${G}/persons/ada`, verb: 'delete', name: 'ada', parts: ['persons', 'ada'] }),
    ],
    [
      'DELETE',
      `${G}/persons?labelSelector=x`,
      persons({ path: `${G}/persons`, verb: 'deletecollection', parts: ['persons'] }),
    ],
    ['OPTIONS', `${G}/persons`, persons({ path: `${G}/persons`, verb: 'options', parts: ['persons'] })],
    [
      'get',
      `${G}/persons/ada`,
      persons({ path: `${G}/persons/ada`, verb: 'get', name: 'ada', parts: ['persons', 'ada'] }),
    ],
    // Subresources, named and with the `-` placeholder.
    [
      'GET',
      `${G}/persons/ada/status`,
      persons({
        path: `${G}/persons/ada/status`,
        verb: 'get',
        name: 'ada',
        subresource: 'status',
        parts: ['persons', 'ada', 'status'],
      }),
    ],
    [
      'PUT',
      `${G}/persons/ada/status`,
      persons({
        path: `${G}/persons/ada/status`,
        verb: 'update',
        name: 'ada',
        subresource: 'status',
        parts: ['persons', 'ada', 'status'],
      }),
    ],
    [
      'PATCH',
      `${G}/persons/ada/status`,
      persons({
        path: `${G}/persons/ada/status`,
        verb: 'patch',
        name: 'ada',
        subresource: 'status',
        parts: ['persons', 'ada', 'status'],
      }),
    ],
    [
      'POST',
      `${G}/persons/-/export`,
      persons({
        path: `${G}/persons/-/export`,
        verb: 'create',
        name: '-',
        subresource: 'export',
        parts: ['persons', '-', 'export'],
      }),
    ],
    [
      'GET',
      `${G}/persons/-/export`,
      persons({
        path: `${G}/persons/-/export`,
        verb: 'get',
        name: '-',
        subresource: 'export',
        parts: ['persons', '-', 'export'],
      }),
    ],
    ['GET', `${G}/persons/-`, persons({ path: `${G}/persons/-`, verb: 'get', name: '-', parts: ['persons', '-'] })],
    [
      'GET',
      `${G}/persons/ada/log/extra/parts`,
      persons({
        path: `${G}/persons/ada/log/extra/parts`,
        verb: 'get',
        name: 'ada',
        subresource: 'log',
        parts: ['persons', 'ada', 'log', 'extra', 'parts'],
      }),
    ],
    // Core group, under /api.
    [
      'GET',
      '/api/v1alpha1/roles',
      resource({
        path: '/api/v1alpha1/roles',
        verb: 'list',
        apiPrefix: 'api',
        apiVersion: 'v1alpha1',
        resource: 'roles',
        parts: ['roles'],
      }),
    ],
    [
      'PUT',
      '/api/v1alpha1/users/ada/password',
      resource({
        path: '/api/v1alpha1/users/ada/password',
        verb: 'update',
        apiPrefix: 'api',
        apiVersion: 'v1alpha1',
        resource: 'users',
        name: 'ada',
        subresource: 'password',
        parts: ['users', 'ada', 'password'],
      }),
    ],
    [
      'DELETE',
      '/api/v1alpha1/roles',
      resource({
        path: '/api/v1alpha1/roles',
        verb: 'deletecollection',
        apiPrefix: 'api',
        apiVersion: 'v1alpha1',
        resource: 'roles',
        parts: ['roles'],
      }),
    ],
    // Declarative models: names with dots.
    [
      'GET',
      '/apis/apiextensions.svc.run/v1alpha1/models/persons.example.com',
      resource({
        path: '/apis/apiextensions.svc.run/v1alpha1/models/persons.example.com',
        verb: 'get',
        apiGroup: 'apiextensions.svc.run',
        apiVersion: 'v1alpha1',
        resource: 'models',
        name: 'persons.example.com',
        parts: ['models', 'persons.example.com'],
      }),
    ],
    // Discovery: not resource requests, but prefix, group and version as far as the path goes.
    ['GET', '/api', nonResource('/api', 'get', { apiPrefix: 'api' })],
    ['GET', '/api/v1alpha1', nonResource('/api/v1alpha1', 'get', { apiPrefix: 'api', apiVersion: 'v1alpha1' })],
    ['GET', '/apis', nonResource('/apis', 'get', { apiPrefix: 'apis' })],
    [
      'GET',
      '/apis/example.com',
      nonResource('/apis/example.com', 'get', { apiPrefix: 'apis', apiGroup: 'example.com' }),
    ],
    [
      'GET',
      '/apis/example.com/v1alpha1',
      nonResource('/apis/example.com/v1alpha1', 'get', {
        apiPrefix: 'apis',
        apiGroup: 'example.com',
        apiVersion: 'v1alpha1',
      }),
    ],
    ['GET', '/apis/v1alpha1', nonResource('/apis/v1alpha1', 'get', { apiPrefix: 'apis', apiGroup: 'v1alpha1' })],
    [
      'POST',
      '/apis/example.com/v1alpha1',
      nonResource('/apis/example.com/v1alpha1', 'post', {
        apiPrefix: 'apis',
        apiGroup: 'example.com',
        apiVersion: 'v1alpha1',
      }),
    ],
    // Other paths: the verb is the lower-cased method.
    ['GET', '/healthz', nonResource('/healthz', 'get')],
    ['GET', '/', nonResource('/', 'get')],
    ['POST', '/openapi/v3?x=1', nonResource('/openapi/v3', 'post')],
    ['GET', '/openapi/v3/apis/example.com/v1alpha1', nonResource('/openapi/v3/apis/example.com/v1alpha1', 'get')],
    ['DELETE', '/metrics', nonResource('/metrics', 'delete')],
    ['GET', '/apiss/x/y/z', nonResource('/apiss/x/y/z', 'get')],
    // Normalisation and decoding.
    ['GET', `/${G}/persons/`, persons({ path: `${G}/persons`, verb: 'list', parts: ['persons'] })],
    [
      'GET',
      `${G}/persons/a%62c`,
      persons({ path: `${G}/persons/abc`, verb: 'get', name: 'abc', parts: ['persons', 'abc'] }),
    ],
    [
      'GET',
      `${G}/persons/100%25`,
      persons({ path: `${G}/persons/100%`, verb: 'get', name: '100%', parts: ['persons', '100%'] }),
    ],
    [
      'GET',
      `${G}/persons/a%252Fb`,
      persons({ path: `${G}/persons/a%2Fb`, verb: 'get', name: 'a%2Fb', parts: ['persons', 'a%2Fb'] }),
    ],
    [
      'GET',
      `${G}/persons/..a`,
      persons({ path: `${G}/persons/..a`, verb: 'get', name: '..a', parts: ['persons', '..a'] }),
    ],
    [
      'GET',
      `http://localhost:8080${G}/persons/ada`,
      persons({ path: `${G}/persons/ada`, verb: 'get', name: 'ada', parts: ['persons', 'ada'] }),
    ],
  ])('%s %s', (method, url, expected) => {
    expect(parseRequestInfo(method, url)).toEqual(expected);
  });

  describe('over a WebSocket upgrade', () => {
    const ws = (url: string) => parseRequestInfo('GET', url, { isWebSocket: true });

    it('watches a collection', () => {
      expect(ws(`${G}/persons`)).toMatchObject({
        isResourceRequest: true,
        verb: 'watch',
        resource: 'persons',
        name: '',
      });
    });

    it('watches one object on its path', () => {
      expect(ws(`${G}/persons/ada`)).toMatchObject({ verb: 'watch', resource: 'persons', name: 'ada' });
    });

    it('does not turn a subresource into a watch', () => {
      expect(ws(`${G}/persons/ada/status`)).toMatchObject({ verb: 'get', subresource: 'status' });
    });

    it('leaves non-resource paths as they are', () => {
      expect(ws('/healthz')).toMatchObject({ isResourceRequest: false, verb: 'get' });
    });
  });

  it.each<[string, RegExp]>([
    [`${G}/persons/a%2Fb`, /encoded slash/],
    [`${G}/persons/a%2fb`, /encoded slash/],
    ['/apis/example.com%2Fv1alpha1/persons', /encoded slash/],
    [`${G}/persons/..`, /dot segment \(".."\)/],
    [`${G}/persons/.`, /dot segment \("."\)/],
    [`${G}/../../healthz`, /dot segment/],
    [`${G}/persons/%2e%2e`, /dot segment \(".."\)/],
    [`${G}/persons/%2E`, /dot segment \("."\)/],
    [`${G}/persons/.%2e/status`, /dot segment/],
    ['/./healthz', /dot segment/],
    ['/apis//v1alpha1/persons', /empty segment/],
    [`${G}/persons//ada`, /empty segment/],
    [`${G}/persons/%zz`, /invalid percent-encoding/],
    [`${G}/persons/%E0%A4%A`, /invalid percent-encoding/],
    [`${G}/persons/%`, /invalid percent-encoding/],
    ['healthz', /must start with "\/"/],
    ['*', /must start with "\/"/],
  ])('refuses %s with 400', (url, message) => {
    let caught: unknown;
    try {
      parseRequestInfo('GET', url);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).code).toBe(400);
    expect((caught as StatusError).reason).toBe('BadRequest');
    expect((caught as StatusError).message).toMatch(message);
  });

  it('cuts a huge path short in its error message', () => {
    let caught: unknown;
    try {
      parseRequestInfo('GET', `/${'a'.repeat(10_000)}/%zz`);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).code).toBe(400);
    expect((caught as StatusError).message).toMatch(/invalid percent-encoding/);
    expect((caught as StatusError).message.length).toBeLessThan(400);
  });
});

describe('watchRequested', () => {
  it.each<[string, boolean]>([
    ['watch=true', true],
    ['watch=1', true],
    ['watch=TRUE', true],
    ['watch', true],
    ['watch=yes', true],
    ['watch=false', false],
    ['watch=False', false],
    ['watch=0', false],
    ['', false],
    ['watcher=true', false],
    ['watch=false&watch=true', false],
  ])('%p → %p', (query, expected) => {
    expect(watchRequested(new URLSearchParams(query))).toBe(expected);
  });
});
