import { compileSchema } from './compile';
import { SchemaCompileError } from './compile-error';

const withPattern = (pattern: string) =>
  compileSchema({
    type: 'object',
    properties: { spec: { type: 'object', properties: { code: { type: 'string', pattern } } } },
  });

describe('schema patterns (RE2, as Kubernetes)', () => {
  it('answers the catastrophic case ^(a+)+$ against a 31-character value at once', () => {
    const schema = withPattern('^(a+)+$');
    const started = process.hrtime.bigint();
    const causes = schema.validate({ spec: { code: `${'a'.repeat(30)}!` } });
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    expect(causes).toEqual([expect.objectContaining({ field: 'spec.code', reason: 'FieldValueInvalid' })]);
    // A backtracking engine takes seconds here; RE2 takes microseconds (the bound leaves room for a loaded machine).
    expect(elapsedMs).toBeLessThan(1000);
    expect(schema.validate({ spec: { code: 'a'.repeat(10_000) } })).toEqual([]);
  });

  it('searches anywhere in the value unless anchored, as JSON Schema and Kubernetes do', () => {
    expect(withPattern('[0-9]').validate({ spec: { code: 'ab1' } })).toEqual([]);
    expect(withPattern('^[0-9]').validate({ spec: { code: 'ab1' } })).toHaveLength(1);
  });

  it('matches Unicode by code point', () => {
    expect(withPattern('^.$').validate({ spec: { code: '😀' } })).toEqual([]);
    expect(withPattern('^\\p{Lu}+$').validate({ spec: { code: 'ÄB' } })).toEqual([]);
  });

  it.each([
    ['a lookahead', '^(?=a)a$'],
    ['a lookbehind', '(?<=a)b'],
    ['a backreference', '^(a)\\1$'],
  ])('refuses %s, which RE2 cannot run in linear time, with a 422 cause naming the pattern', (_what, pattern) => {
    let caught: unknown;
    try {
      withPattern(pattern);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SchemaCompileError);
    expect((caught as SchemaCompileError).causes()).toEqual([
      {
        field: 'spec.schema.properties.spec.properties.code.pattern',
        reason: 'FieldValueInvalid',
        message: expect.stringMatching(/^must be a valid RE2 regular expression, but isn't: /),
      },
    ]);
  });
});
