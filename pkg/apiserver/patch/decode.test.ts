import { StatusError } from '../../api/errors';
import { MAX_BODY_FIELDS } from '../../util/json-limits';
import { decodePatch } from './decode';

/** The StatusError decoding raises. */
function errorOf(contentType: string, body: string): StatusError {
  try {
    decodePatch(contentType, body);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('the patch decoded');
}

describe('decoding a PATCH body', () => {
  it.each([
    ['application/merge-patch+json', '{"spec":{"age":3}}', { spec: { age: 3 } }],
    ['application/strategic-merge-patch+json', '{"spec":{"age":3}}', { spec: { age: 3 } }],
    ['Application/Merge-Patch+JSON; charset=utf-8', '{"a":1}', { a: 1 }],
    ['application/json-patch+json', '[{"op":"remove","path":"/a"}]', [{ op: 'remove', path: '/a' }]],
    [
      'application/apply-patch+yaml',
      'apiVersion: example.com/v1alpha1\nkind: Person\nspec:\n  age: 3\n',
      { apiVersion: 'example.com/v1alpha1', kind: 'Person', spec: { age: 3 } },
    ],
    ['application/apply-patch+yaml', '{"spec":{"age":3}}', { spec: { age: 3 } }],
  ])('decodes %s', (type, body, expected) => {
    expect(decodePatch(type, body)).toEqual(expected);
  });

  it('decodes a Buffer as UTF-8', () => {
    expect(decodePatch('application/merge-patch+json', Buffer.from('{"name":"Zoë"}'))).toEqual({ name: 'Zoë' });
  });

  it('reads apply YAML with the core schema: no dates, and yes/no stay strings', () => {
    expect(decodePatch('application/apply-patch+yaml', 'spec:\n  when: 2026-01-02\n  answer: yes\n')).toEqual({
      spec: { when: '2026-01-02', answer: 'yes' },
    });
  });

  it.each(['application/json', 'text/plain', ''])(
    'refuses media type %p with 415 naming the supported ones',
    (type) => {
      const error = errorOf(type, '{}');
      expect(error.code).toBe(415);
      expect(error.reason).toBe('UnsupportedMediaType');
      expect(error.message).toContain(
        'application/json-patch+json, application/merge-patch+json, ' +
          'application/strategic-merge-patch+json, application/apply-patch+yaml',
      );
    },
  );

  it.each([
    ['an empty body', 'application/merge-patch+json', '  ', /empty/],
    ['invalid JSON', 'application/merge-patch+json', '{"a":', /not valid JSON/],
    ['a merge patch that is an array', 'application/merge-patch+json', '[1]', /must be a JSON object/],
    ['a merge patch that is a string', 'application/strategic-merge-patch+json', '"x"', /must be a JSON object/],
    ['a merge patch that is null', 'application/merge-patch+json', 'null', /must be a JSON object/],
    ['a JSON patch that is an object', 'application/json-patch+json', '{"op":"add"}', /must be an array/],
    [
      'a JSON patch with a bad op',
      'application/json-patch+json',
      '[{"op":"frobnicate","path":"/a"}]',
      /"op" must be one of/,
    ],
    ['invalid YAML', 'application/apply-patch+yaml', 'a: [1, 2\n', /not valid YAML/],
    ['YAML with two documents', 'application/apply-patch+yaml', 'a: 1\n---\nb: 2\n', /one YAML document, not 2/],
    ['an applied configuration that is a list', 'application/apply-patch+yaml', '- a\n- b\n', /must be an object/],
  ])('refuses %s with 400', (_what, type, body, message) => {
    const error = errorOf(type, body);
    expect(error.code).toBe(400);
    expect(error.message).toMatch(message);
  });

  it.each(['application/merge-patch+json', 'application/apply-patch+yaml'])(
    'refuses a %s body nested too deep with 400',
    (type) => {
      const body = `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`;
      const error = errorOf(type, body);
      expect(error.code).toBe(400);
    },
  );

  it('refuses a YAML alias bomb with 400 instead of expanding it', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      levels.push(
        `${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(10)
          .fill(`*${'abcdefghi'[i - 1]}`)
          .join(',')}]`,
      );
    const error = errorOf('application/apply-patch+yaml', levels.join('\n'));
    expect(error.code).toBe(400);
    expect(error.message).toMatch(/YAML aliases/);
  });

  it('accepts YAML aliases that reuse a small value, giving each place its own copy', () => {
    const patch = decodePatch('application/apply-patch+yaml', 'a: &x [1]\nb: *x\n') as { a: number[]; b: number[] };
    expect(patch).toEqual({ a: [1], b: [1] });
    patch.a.push(2);
    expect(patch.b).toEqual([1]);
  });

  it.each(['application/merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml'])(
    'refuses a %s body of more than MAX_BODY_FIELDS fields with 413',
    (type) => {
      const many = Array.from({ length: MAX_BODY_FIELDS + 1 }, (_, i) => i);
      const body =
        type === 'application/json-patch+json' ? [{ op: 'add', path: '/spec/f', value: many }] : { spec: { f: many } };
      const error = errorOf(type, JSON.stringify(body));
      expect(error).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge' });
    },
  );
});
