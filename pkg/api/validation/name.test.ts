import { validateGenerateName, validateName } from './name';

const reasons = (causes: { reason: string }[]) => causes.map((c) => c.reason);

describe('validateName', () => {
  it.each([['a'], ['0'], ['my-name'], ['123-abc'], ['a'.repeat(253)], ['a--b']])('accepts %s', (name) => {
    expect(validateName(name)).toEqual([]);
  });

  it.each([
    ['empty', '', ['FieldValueRequired']],
    ['uppercase', 'Ada', ['FieldValueInvalid']],
    ['254 characters', 'a'.repeat(254), ['FieldValueTooLong']],
    ['254 characters and uppercase', 'A'.repeat(254), ['FieldValueTooLong', 'FieldValueInvalid']],
    ['a leading -', '-ada', ['FieldValueInvalid']],
    ['a trailing -', 'ada-', ['FieldValueInvalid']],
    ['an underscore', 'a_b', ['FieldValueInvalid']],
    ['a dot', 'persons.example.com', ['FieldValueInvalid']],
    ['a space', 'a b', ['FieldValueInvalid']],
    ['a slash', 'a/b', ['FieldValueInvalid']],
  ])('refuses a name with %s', (_what, name, expected) => {
    const causes = validateName(name);
    expect(reasons(causes)).toEqual(expected);
    expect(causes.every((c) => c.field === 'metadata.name')).toBe(true);
  });

  it('says what the rule is and quotes the value', () => {
    expect(validateName('Ada')).toEqual([
      {
        field: 'metadata.name',
        reason: 'FieldValueInvalid',
        message: expect.stringMatching(
          /^Invalid value: "Ada": a lowercase RFC 1123 name must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character/,
        ),
      },
    ]);
    expect(validateName('a'.repeat(254))[0].message).toBe('Too long: may not be more than 253 characters');
  });

  it('names the path it is given', () => {
    expect(validateName('', { path: 'spec.ref' })).toEqual([
      { field: 'spec.ref', reason: 'FieldValueRequired', message: 'Required value: name is required' },
    ]);
  });

  describe('with dns1123Subdomain (a Model name)', () => {
    it.each([['persons.example.com'], ['a.b-c.d'], ['a'], ['roles']])('accepts %s', (name) => {
      expect(validateName(name, { dns1123Subdomain: true })).toEqual([]);
    });

    it.each([
      ['..', 'a..b'],
      ['a leading dot', '.a'],
      ['a trailing dot', 'a.'],
      ['a label ending in -', 'a-.b'],
      ['uppercase', 'Persons.example.com'],
      ['an underscore', 'a_b.c'],
    ])('refuses %s', (_what, name) => {
      const causes = validateName(name, { dns1123Subdomain: true });
      expect(reasons(causes)).toEqual(['FieldValueInvalid']);
      expect(causes[0].message).toContain('a lowercase RFC 1123 subdomain must consist of');
    });

    it('still limits the length to 253', () => {
      const name = `${'a'.repeat(126)}.${'b'.repeat(127)}`;
      expect(reasons(validateName(name, { dns1123Subdomain: true }))).toEqual(['FieldValueTooLong']);
    });
  });
});

describe('validateGenerateName', () => {
  it.each([['person-'], ['p'], ['a1'], ['a'.repeat(248)], ['a'.repeat(253)], ['']])(
    'accepts the prefix "%s"',
    (prefix) => {
      expect(validateGenerateName(prefix)).toEqual([]);
    },
  );

  it.each([
    ['a leading -', '-person', ['FieldValueInvalid']],
    ['uppercase', 'Person-', ['FieldValueInvalid']],
    ['a dot', 'person.', ['FieldValueInvalid']],
    ['an underscore', 'per_son', ['FieldValueInvalid']],
    ['254 characters (longer than any name)', 'a'.repeat(254), ['FieldValueTooLong']],
    ['a bad character past the part a generated name keeps', `${'a'.repeat(60)}_`, ['FieldValueInvalid']],
  ])('refuses a prefix with %s', (_what, prefix, expected) => {
    const causes = validateGenerateName(prefix);
    expect(reasons(causes)).toEqual(expected);
    expect(causes.every((c) => c.field === 'metadata.generateName')).toBe(true);
  });

  it('allows a trailing dot for a subdomain name, but not ..', () => {
    expect(validateGenerateName('persons.', { dns1123Subdomain: true })).toEqual([]);
    expect(reasons(validateGenerateName('persons..', { dns1123Subdomain: true }))).toEqual(['FieldValueInvalid']);
  });
});
