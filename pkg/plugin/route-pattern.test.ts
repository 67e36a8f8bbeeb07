import { matchRoute, parseRoutePath } from './route-pattern';

describe('plugin route paths', () => {
  it('parses the group, version and resource, and matches parameters', () => {
    const pattern = parseRoutePath('/apis/people.example.com/v1/greetings/{name}/say');
    expect(pattern).toMatchObject({ group: 'people.example.com', version: 'v1', resource: 'greetings' });
    expect(matchRoute(pattern, ['greetings', 'ada', 'say'])).toEqual({ name: 'ada' });
    expect(matchRoute(pattern, ['greetings', 'ada'])).toBeUndefined();
    expect(matchRoute(pattern, ['greetings', 'ada', 'shout'])).toBeUndefined();
    expect(matchRoute(parseRoutePath('/apis/x.io/v1/stats'), ['stats'])).toEqual({});
  });

  it.each([
    ['/api/v1alpha1/things', 'paths under /api/ belong to the platform'],
    ['/hello', 'must be /apis/<group>/<version>/<resource>'],
    ['/apis/x.io/v1', 'must be /apis/<group>/<version>/<resource>'],
    ['/apis/x.io/v1/things/', 'must be /apis/<group>/<version>/<resource>'],
    ['/apis/{group}/v1/things', 'must be literal'],
    ['/apis/x.io/v1/{resource}', 'must be literal'],
    ['/apis/content.svc.run/v1/things', 'belongs to the platform'],
    ['/apis/x.io/v1/things/{id}/{id}', 'appears twice'],
    ['/apis/x.io/v1/things/a b', 'neither a literal nor a {param}'],
  ])('refuses %s', (path, message) => {
    expect(() => parseRoutePath(path)).toThrow(message);
  });
});
