import { labelValueErrors, qualifiedNameErrors, qualifiedNamePrefix } from './qualified-name';

describe('qualifiedNameErrors (label keys, annotation keys, finalizers)', () => {
  it.each([
    ['app'],
    ['A'],
    ['My.name_x-1'],
    ['example.com/app'],
    ['a.b.c/Name'],
    ['a'.repeat(63)],
    [`${'a'.repeat(253)}/x`],
    ['svc.run/role-template'],
  ])('accepts %s', (key) => {
    expect(qualifiedNameErrors(key)).toEqual([]);
  });

  it.each([
    ['two slashes', 'a/b/c', 'a qualified name must consist of'],
    ['an empty prefix', '/app', 'prefix part must be non-empty'],
    ['an empty name', 'example.com/', 'name part must be non-empty'],
    ['the empty key', '', 'name part must be non-empty'],
    ['a 64-character name part', 'a'.repeat(64), 'name part must be no more than 63 characters'],
    [
      'a 64-character name part after a prefix',
      `example.com/${'a'.repeat(64)}`,
      'name part must be no more than 63 characters',
    ],
    ['an uppercase prefix', 'Example.com/app', 'prefix part a lowercase RFC 1123 subdomain'],
    ['a 254-character prefix', `${'a'.repeat(254)}/x`, 'prefix part must be no more than 253 characters'],
    ['a leading -', '-app', 'name part must consist of'],
    ['a trailing .', 'app.', 'name part must consist of'],
    ['a space', 'my app', 'name part must consist of'],
  ])('refuses a key with %s', (_what, key, message) => {
    const errors = qualifiedNameErrors(key);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toContain(message);
  });

  it('reports every failing part', () => {
    expect(qualifiedNameErrors(`Bad_/${'-'.repeat(64)}`)).toHaveLength(3);
  });
});

describe('labelValueErrors', () => {
  it.each([[''], ['web'], ['My_Value.1'], ['1'], ['a'.repeat(63)]])('accepts "%s"', (value) => {
    expect(labelValueErrors(value)).toEqual([]);
  });

  it.each([
    ['64 characters', 'a'.repeat(64)],
    ['a leading -', '-x'],
    ['a trailing _', 'x_'],
    ['a space', 'a b'],
    ['a slash', 'a/b'],
    ['a non-ASCII letter', 'café'],
  ])('refuses a value with %s', (_what, value) => {
    expect(labelValueErrors(value).length).toBeGreaterThan(0);
  });
});

describe('qualifiedNamePrefix', () => {
  it.each([
    ['example.com/app', 'example.com'],
    ['app', undefined],
    ['/app', ''],
  ])('%s → %s', (key, prefix) => {
    expect(qualifiedNamePrefix(key)).toBe(prefix);
  });
});
