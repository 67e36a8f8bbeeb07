import { validateLabels } from './labels';

describe('validateLabels', () => {
  it('accepts valid keys and values, empty values included', () => {
    expect(validateLabels({ app: 'web', 'example.com/tier': '', 'a.b/C_d': 'X.1' })).toEqual([]);
  });

  it.each([
    ['a key with two slashes', { 'a/b/c': 'x' }, 'Invalid value: "a/b/c": a qualified name must consist of'],
    ['a key with a 64-character name part', { ['k'.repeat(64)]: 'x' }, 'name part must be no more than 63 characters'],
    ['a value that starts with -', { app: '-web' }, 'Invalid value: "-web": a valid label must be an empty string or'],
    ['a 64-character value', { app: 'v'.repeat(64) }, 'must be no more than 63 characters'],
  ])('refuses %s', (_what, labels, message) => {
    const causes = validateLabels(labels);
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ field: 'metadata.labels', reason: 'FieldValueInvalid' });
    expect(causes[0].message).toContain(message);
  });

  it('reports every bad key and value, not just the first', () => {
    const causes = validateLabels({ 'a/b/c': 'ok', good: 'bad value', 'x/': '-' });
    expect(causes.map((c) => c.message)).toEqual([
      expect.stringContaining('"a/b/c"'),
      expect.stringContaining('"bad value"'),
      expect.stringContaining('"x/"'),
      expect.stringContaining('"-"'),
    ]);
  });

  it('refuses a value that is not a string', () => {
    expect(validateLabels({ app: 1 })).toEqual([
      {
        field: 'metadata.labels',
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: 1: must be of type string',
      },
    ]);
  });

  describe('restrictPlatformKeys (objects a plugin declares)', () => {
    const allowedPlatformKeys = ['svc.run/role-template', 'rbac.authorization.svc.run/aggregate-to-*'];
    const restricted = (labels: Record<string, string>) =>
      validateLabels(labels, { restrictPlatformKeys: true, allowedPlatformKeys });

    it('is off by default: users may use unprefixed and platform keys', () => {
      expect(validateLabels({ app: 'web', 'svc.run/x': 'y' })).toEqual([]);
    });

    it.each([['app'], ['svc.run/x'], ['security.svc.run/owner']])('refuses %s', (key) => {
      expect(restricted({ [key]: 'v' })).toEqual([
        {
          field: 'metadata.labels',
          reason: 'FieldValueForbidden',
          message: expect.stringContaining(`label key "${key}"`),
        },
      ]);
    });

    it.each([['example.com/app'], ['svc.run/role-template'], ['rbac.authorization.svc.run/aggregate-to-editor']])(
      'accepts %s',
      (key) => {
        expect(restricted({ [key]: 'true' })).toEqual([]);
      },
    );
  });
});
