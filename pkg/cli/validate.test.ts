import { UsageError } from './errors';
import { fieldValidationOf } from './validate';

describe('fieldValidationOf', () => {
  it("maps --validate to the server's fieldValidation, strict by default", () => {
    expect(fieldValidationOf(undefined)).toBe('Strict');
    expect(fieldValidationOf('strict')).toBe('Strict');
    expect(fieldValidationOf('warn')).toBe('Warn');
    expect(fieldValidationOf('Ignore')).toBe('Ignore');
    expect(fieldValidationOf('true')).toBe('Strict');
    expect(fieldValidationOf('false')).toBe('Ignore');
  });

  it('refuses anything else as a usage error', () => {
    expect(() => fieldValidationOf('lenient')).toThrow(UsageError);
  });
});
