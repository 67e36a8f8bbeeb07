import { StatusError } from '../../api/errors';
import { applyPatch } from './apply-patch';
import { decodePatch } from './decode';

const person = () => ({
  apiVersion: 'example.com/v1alpha1',
  kind: 'Person',
  metadata: { name: 'ada', labels: { team: 'math' }, resourceVersion: '7' },
  spec: { name: 'Ada', age: 36, tags: ['math', 'poetry'] },
});

/** The StatusError applying the patch raises. */
function errorOf(type: string, body: string): StatusError {
  try {
    applyPatch(type, person(), body);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('the patch applied');
}

describe('applying a PATCH body to the current object', () => {
  it.each([
    [
      'merge patch',
      'application/merge-patch+json',
      '{"spec":{"age":37,"tags":null},"metadata":{"labels":{"team":null}}}',
      { ...person(), metadata: { name: 'ada', labels: {}, resourceVersion: '7' }, spec: { name: 'Ada', age: 37 } },
    ],
    [
      'strategic merge patch, as a merge patch (lists replaced whole)',
      'application/strategic-merge-patch+json',
      '{"spec":{"tags":["x"]}}',
      { ...person(), spec: { name: 'Ada', age: 36, tags: ['x'] } },
    ],
    [
      'JSON patch',
      'application/json-patch+json',
      '[{"op":"test","path":"/spec/age","value":36},{"op":"replace","path":"/spec/age","value":37},{"op":"add","path":"/spec/tags/-","value":"x"}]',
      { ...person(), spec: { name: 'Ada', age: 37, tags: ['math', 'poetry', 'x'] } },
    ],
    [
      'server-side apply in YAML, merged into the object',
      'application/apply-patch+yaml',
      'apiVersion: example.com/v1alpha1\nkind: Person\nmetadata:\n  name: ada\nspec:\n  gender: FEMALE\n',
      { ...person(), spec: { name: 'Ada', age: 36, tags: ['math', 'poetry'], gender: 'FEMALE' } },
    ],
    [
      'server-side apply sent as JSON (as client-node does)',
      'application/apply-patch+yaml',
      '{"apiVersion":"example.com/v1alpha1","kind":"Person","metadata":{"name":"ada"},"spec":{"age":40}}',
      { ...person(), spec: { name: 'Ada', age: 40, tags: ['math', 'poetry'] } },
    ],
  ])('%s', (_what, type, body, expected) => {
    expect(applyPatch(type, person(), body)).toEqual(expected);
  });

  it('accepts the document decodePatch returned instead of the raw body', () => {
    const type = 'application/json-patch+json';
    const patch = decodePatch(type, '[{"op":"remove","path":"/spec/tags"}]');
    const { tags: _tags, ...spec } = person().spec;
    expect(applyPatch(type, person(), patch)).toEqual({ ...person(), spec });
  });

  it('can apply one decoded patch twice (the store retries) with the same result', () => {
    const type = 'application/merge-patch+json';
    const patch = decodePatch(type, '{"spec":{"tags":["x"]}}');
    const first = applyPatch(type, person(), patch) as ReturnType<typeof person>;
    first.spec.tags.push('mutated by the caller');
    expect(applyPatch(type, person(), patch)).toEqual({ ...person(), spec: { ...person().spec, tags: ['x'] } });
  });

  it('never changes the current object', () => {
    const current = person();
    applyPatch('application/json-patch+json', current, '[{"op":"remove","path":"/spec/tags/0"}]');
    applyPatch('application/merge-patch+json', current, '{"spec":{"name":null}}');
    expect(current).toEqual(person());
  });

  it('answers a failed JSON patch test with 422 Invalid naming the operation and path', () => {
    const error = errorOf('application/json-patch+json', '[{"op":"test","path":"/spec/age","value":99}]');
    expect(error.code).toBe(422);
    expect(error.reason).toBe('Invalid');
    expect(error.message).toMatch(/^Person "ada" is invalid: spec\.age: JSON patch operation 0 \(test "\/spec\/age"\)/);
    expect(error.details.name).toBe('ada');
    expect(error.details.causes).toEqual([
      {
        field: 'spec.age',
        reason: 'FieldValueInvalid',
        message: 'JSON patch operation 0 (test "/spec/age"): the value there is not the one the test expects',
      },
    ]);
  });

  it('answers a JSON patch on a missing path with 422 naming it', () => {
    const error = errorOf(
      'application/json-patch+json',
      '[{"op":"add","path":"/spec/x","value":1},{"op":"remove","path":"/status/phase"}]',
    );
    expect(error.code).toBe(422);
    expect(error.details.causes).toEqual([
      expect.objectContaining({
        field: 'status',
        message: expect.stringMatching(/^JSON patch operation 1 \(remove "\/status\/phase"\): the path does not exist/),
      }),
    ]);
  });

  it('answers a JSON patch that leaves something other than an object with 422', () => {
    expect(errorOf('application/json-patch+json', '[{"op":"replace","path":"","value":[1]}]').code).toBe(422);
  });

  it('answers an unknown patch type with 415 and a malformed patch with 400', () => {
    expect(errorOf('application/json', '{}').code).toBe(415);
    expect(errorOf('application/merge-patch+json', '[]').code).toBe(400);
    expect(errorOf('application/json-patch+json', '[{"op":"add"}]').code).toBe(400);
  });

  it('uses the subject it is given in messages', () => {
    try {
      applyPatch('application/json-patch+json', person(), '[{"op":"remove","path":"/nope"}]', {
        kind: 'Person.example.com',
        name: 'x',
      });
      throw new Error('the patch applied');
    } catch (err) {
      expect((err as StatusError).message).toMatch(/^Person\.example\.com "x" is invalid/);
    }
  });
});
