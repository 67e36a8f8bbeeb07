import { TOTAL_ANNOTATION_SIZE_LIMIT, validateAnnotations } from './annotations';

describe('validateAnnotations', () => {
  it('accepts qualified keys with any string value', () => {
    expect(validateAnnotations({ 'example.com/note': 'any text, even "quotes" and\nnewlines', note: '' })).toEqual([]);
  });

  it('compares keys in lower case, as Kubernetes does', () => {
    expect(validateAnnotations({ 'Example.com/Note': 'x' })).toEqual([]);
  });

  it('refuses bad keys, every one of them', () => {
    const causes = validateAnnotations({ 'a/b/c': 'x', ['n'.repeat(64)]: 'y' });
    expect(causes.map((c) => [c.field, c.reason])).toEqual([
      ['metadata.annotations', 'FieldValueInvalid'],
      ['metadata.annotations', 'FieldValueInvalid'],
    ]);
  });

  it('refuses a value that is not a string', () => {
    expect(validateAnnotations({ note: { nested: true } })[0].reason).toBe('FieldValueTypeInvalid');
  });

  it('allows exactly 256 KiB of keys and values, and refuses one byte more', () => {
    const key = 'example.com/big';
    const fits = { [key]: 'x'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT - key.length) };
    const over = { [key]: 'x'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT - key.length + 1) };
    expect(validateAnnotations(fits)).toEqual([]);
    expect(validateAnnotations(over)).toEqual([
      {
        field: 'metadata.annotations',
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 262144 bytes',
      },
    ]);
  });

  it('counts bytes, not characters', () => {
    const key = 'k';
    const value = 'é'.repeat(Math.ceil(TOTAL_ANNOTATION_SIZE_LIMIT / 2)); // 2 bytes each in UTF-8
    expect(value.length).toBeLessThan(TOTAL_ANNOTATION_SIZE_LIMIT);
    expect(validateAnnotations({ [key]: value })[0].reason).toBe('FieldValueTooLong');
  });
});
