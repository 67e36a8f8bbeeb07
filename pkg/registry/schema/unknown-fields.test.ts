import { validateHeaderValue } from 'node:http';
import { unknownFieldCauses, unknownFieldWarnings } from './unknown-fields';

describe('reporting unknown fields', () => {
  it('makes one Kubernetes-style 299 warning per field', () => {
    expect(unknownFieldWarnings(['spec.foo', 'spec.items[0].bar'])).toEqual([
      '299 - "unknown field \\"spec.foo\\""',
      '299 - "unknown field \\"spec.items[0].bar\\""',
    ]);
  });

  it('escapes quotes and backslashes in field names and blanks control characters', () => {
    expect(unknownFieldWarnings(['spec.a"b\\c\nd'])).toEqual(['299 - "unknown field \\"spec.a\\"b\\\\c?d\\""']);
  });

  it('writes non-ASCII names as UTF-8 bytes that Node accepts in a header', () => {
    const [warning] = unknownFieldWarnings(['spec.名前']);
    expect(() => validateHeaderValue('Warning', warning)).not.toThrow();
    expect(Buffer.from(warning, 'latin1').toString('utf8')).toBe('299 - "unknown field \\"spec.名前\\""');
  });

  it('caps the number of warnings and says how many more there were', () => {
    const paths = Array.from({ length: 105 }, (_, i) => `spec.f${i}`);
    const warnings = unknownFieldWarnings(paths, 100);
    expect(warnings).toHaveLength(101);
    expect(warnings[100]).toBe('299 - "and 5 more unknown fields"');
  });

  it('makes one 422 cause per field for fieldValidation=Strict', () => {
    expect(unknownFieldCauses(['spec.foo'])).toEqual([
      { field: 'spec.foo', reason: 'FieldValueInvalid', message: 'unknown field "spec.foo"' },
    ]);
  });
});
