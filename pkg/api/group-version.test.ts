import { StatusError } from './errors';
import { formatApiVersion, parseApiVersion, splitApiVersion } from './group-version';

describe('parseApiVersion', () => {
  it.each([
    ['example.com/v1alpha1', { group: 'example.com', version: 'v1alpha1' }],
    ['apiextensions.svc.run/v1alpha1', { group: 'apiextensions.svc.run', version: 'v1alpha1' }],
    ['v1alpha1', { group: '', version: 'v1alpha1' }],
    ['v1', { group: '', version: 'v1' }],
  ])('%s → %j', (apiVersion, expected) => {
    expect(parseApiVersion(apiVersion)).toEqual(expected);
  });

  it.each([[''], ['/v1'], ['example.com/'], ['a/b/c'], ['/']])('refuses %j with a 400', (apiVersion) => {
    let thrown: unknown;
    try {
      parseApiVersion(apiVersion);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StatusError);
    expect((thrown as StatusError).code).toBe(400);
    expect((thrown as StatusError).message).toContain(`invalid apiVersion ${JSON.stringify(apiVersion)}`);
  });
});

describe('formatApiVersion', () => {
  it.each([
    ['example.com', 'v1', 'example.com/v1'],
    ['', 'v1alpha1', 'v1alpha1'],
  ])('(%j, %j) → %s', (group, version, expected) => {
    expect(formatApiVersion(group, version)).toBe(expected);
  });

  it('round-trips with parseApiVersion', () => {
    for (const apiVersion of ['example.com/v1', 'v1alpha1']) {
      const { group, version } = parseApiVersion(apiVersion);
      expect(formatApiVersion(group, version)).toBe(apiVersion);
    }
  });
});

describe('splitApiVersion', () => {
  it('splits as parseApiVersion does, and answers undefined where it throws', () => {
    expect(splitApiVersion('example.com/v1')).toEqual({ group: 'example.com', version: 'v1' });
    expect(splitApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    for (const bad of ['', '/v1', 'example.com/', 'a/b/c']) expect(splitApiVersion(bad)).toBeUndefined();
  });
});
