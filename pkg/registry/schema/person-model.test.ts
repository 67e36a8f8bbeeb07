import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { compileSchema } from './compile';

// The example Person model (manifests/examples), read from the manifest users apply, so that the
// manifest itself is what these tests prove.
const manifest = yaml.load(readFileSync(join(__dirname, 'testdata/person-model.yaml'), 'utf8')) as {
  spec: { schema: unknown };
};
const person = compileSchema(manifest.spec.schema);

const ada = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'example.com/v1alpha1',
  kind: 'Person',
  metadata: { name: 'ada' },
  spec,
  ...extra,
});

describe('the example Person model', () => {
  it('accepts a valid person, with another whole person inside', () => {
    const other = ada({ name: 'Charles', age: 80 }, { metadata: { name: 'charles', labels: { a: 'b' } } });
    expect(
      person.validate(ada({ name: 'Ada', age: 36, gender: 'FEMALE', tags: ['math'], otherPerson: other })),
    ).toEqual([]);
  });

  it('requires spec', () => {
    expect(person.validate({ apiVersion: 'example.com/v1alpha1', kind: 'Person', metadata: { name: 'ada' } })).toEqual([
      { field: 'spec', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
  });

  it('allows a name of 100 characters and refuses 101', () => {
    expect(person.validate(ada({ name: 'x'.repeat(100) }))).toEqual([]);
    expect(person.validate(ada({ name: 'x'.repeat(101) }))).toEqual([
      { field: 'spec.name', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 100 characters' },
    ]);
  });

  it.each([0, 150])('accepts age %p', (age) => {
    expect(person.validate(ada({ age }))).toEqual([]);
  });

  it.each([
    [-1, 'Invalid value: -1: spec.age in body should be greater than or equal to 0'],
    [151, 'Invalid value: 151: spec.age in body should be less than or equal to 150'],
  ])('refuses age %p out of range', (age, message) => {
    expect(person.validate(ada({ age }))).toEqual([{ field: 'spec.age', reason: 'FieldValueInvalid', message }]);
  });

  it.each([
    ['a string', '36', '"string"'],
    ['a fraction', 36.5, '"number"'],
    ['null', null, '"null"'],
  ])('refuses an age that is %s as a type error', (_what, age, actual) => {
    expect(person.validate(ada({ age }))).toEqual([
      {
        field: 'spec.age',
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: ${actual}: spec.age in body must be of type integer: ${actual}`,
      },
    ]);
  });

  it('refuses a gender outside the enum, listing the supported values', () => {
    expect(person.validate(ada({ gender: 'OTHER' }))).toEqual([
      {
        field: 'spec.gender',
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "OTHER": supported values: "MALE", "FEMALE"',
      },
    ]);
  });

  it('names the failing array element by index', () => {
    expect(person.validate(ada({ tags: ['a', 'b', 7] }))).toEqual([
      expect.objectContaining({
        field: 'spec.tags[2]',
        reason: 'FieldValueTypeInvalid',
      }),
    ]);
  });

  it('reports every failing field, not just the first', () => {
    const causes = person.validate(ada({ name: 'x'.repeat(101), age: 200, gender: 'X', tags: [1] }));
    expect(causes.map((c) => c.field)).toEqual(['spec.name', 'spec.age', 'spec.gender', 'spec.tags[0]']);
  });

  it('validates otherPerson as a whole Person, recursively, with nested field paths', () => {
    const grandchild = ada({ gender: 'X' });
    const child = ada({ age: -5, otherPerson: grandchild });
    const causes = person.validate(ada({ otherPerson: child }));
    expect(causes).toEqual([
      expect.objectContaining({ field: 'spec.otherPerson.spec.age', reason: 'FieldValueInvalid' }),
      expect.objectContaining({
        field: 'spec.otherPerson.spec.otherPerson.spec.gender',
        reason: 'FieldValueNotSupported',
      }),
    ]);
  });

  it('requires the nested person to have a spec too', () => {
    expect(person.validate(ada({ otherPerson: { kind: 'Person' } }))).toEqual([
      { field: 'spec.otherPerson.spec', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
  });

  it("prunes undeclared fields, keeps the nested person's apiVersion/kind/metadata (ObjectMeta's fields), preserves status", () => {
    const input = ada(
      {
        name: 'Ada',
        foo: 1,
        otherPerson: ada({ name: 'Charles', bar: true }, { metadata: { name: 'c', x: 1 }, extra: 2 }),
      },
      { status: { anything: { goes: [1] } }, topLevel: 'x' },
    );
    const { object, unknownFields } = person.prune(input);
    expect(unknownFields).toEqual([
      'spec.foo',
      'spec.otherPerson.metadata.x',
      'spec.otherPerson.spec.bar',
      'spec.otherPerson.extra',
      'topLevel',
    ]);
    expect(object).toEqual(
      ada(
        { name: 'Ada', otherPerson: ada({ name: 'Charles' }, { metadata: { name: 'c' } }) },
        { status: { anything: { goes: [1] } } },
      ),
    );
  });
});
