import { validateFinalizers } from './finalizers';

describe('validateFinalizers', () => {
  it('accepts distinct qualified names', () => {
    expect(validateFinalizers(['example.com/cleanup', 'svc.run/gc', 'plain'])).toEqual([]);
  });

  it('names the failing entry by its index', () => {
    const causes = validateFinalizers(['example.com/ok', 'a/b/c', 'Bad Name']);
    expect(causes.map((c) => [c.field, c.reason])).toEqual([
      ['metadata.finalizers[1]', 'FieldValueInvalid'],
      ['metadata.finalizers[2]', 'FieldValueInvalid'],
    ]);
    expect(causes[0].message).toContain('Invalid value: "a/b/c": a qualified name');
  });

  it('refuses a duplicate, naming the repeat', () => {
    expect(validateFinalizers(['example.com/a', 'example.com/b', 'example.com/a'])).toEqual([
      { field: 'metadata.finalizers[2]', reason: 'FieldValueDuplicate', message: 'Duplicate value: "example.com/a"' },
    ]);
  });

  it('refuses an entry that is not a string', () => {
    expect(validateFinalizers([7])).toEqual([
      {
        field: 'metadata.finalizers[0]',
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: 7: must be of type string',
      },
    ]);
  });
});
