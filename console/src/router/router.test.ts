import { describe, expect, it } from 'vitest';
import { matchRoute, type RouteDefinition } from './router';

const page = () => null;
const routes: RouteDefinition[] = [
  { path: '/', title: 'Home', component: page, meta: { permissions: [] } },
  { path: '/models/:group/:version/:plural/+new', title: 'New', component: page, meta: { permissions: [] } },
  { path: '/models/:group/:version/:plural/:name', title: 'Object', component: page, meta: { permissions: [] } },
];

describe('matchRoute', () => {
  it('matches the root', () => {
    expect(matchRoute(routes, '/')?.route.title).toBe('Home');
  });

  it('reads parameters, decoded', () => {
    expect(matchRoute(routes, '/models/example.com/v1/persons/ada%20l')?.params).toEqual({
      group: 'example.com',
      version: 'v1',
      plural: 'persons',
      name: 'ada l',
    });
  });

  it('takes the first route that matches: a fixed segment before a parameter', () => {
    expect(matchRoute(routes, '/models/core/v1alpha1/users/+new')?.route.title).toBe('New');
  });

  it('matches nothing for an unknown path or a different length', () => {
    expect(matchRoute(routes, '/nowhere')).toBeUndefined();
    expect(matchRoute(routes, '/models/a/b')).toBeUndefined();
  });
});
