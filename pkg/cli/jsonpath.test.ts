import { UsageError } from './errors';
import { evaluateJsonPath, parseJsonPath } from './jsonpath';

const ada = {
  apiVersion: 'example.com/v1alpha1',
  kind: 'Person',
  metadata: { name: 'ada', labels: { 'app.kubernetes.io/name': 'people' } },
  spec: { name: 'Ada', tags: ['a', 'b'], age: 36 },
};
const person = (name: string) => ({ metadata: { name }, spec: { tags: [`${name}-1`, `${name}-2`] } });
const list = { kind: 'List', items: ['p0', 'p1', 'p2', 'p3', 'p4'].map(person) };

describe('evaluateJsonPath', () => {
  it('prints dotted fields, [n], [*] and .*, the values of one expression joined by spaces, text around them', () => {
    expect(evaluateJsonPath(ada, '{.metadata.name}')).toBe('ada');
    expect(evaluateJsonPath(ada, '{$.spec.age}')).toBe('36');
    expect(evaluateJsonPath(ada, '{.spec.tags[1]}')).toBe('b');
    expect(evaluateJsonPath(list, '{.items[*].metadata.name}')).toBe('p0 p1 p2 p3 p4');
    expect(evaluateJsonPath(ada, '{.metadata.labels.*}')).toBe('people');
    expect(evaluateJsonPath(ada, 'name={.spec.name} tags={.spec.tags}')).toBe('name=Ada tags=["a","b"]');
    expect(evaluateJsonPath(ada, '{.spec.missing}')).toBe('');
    expect(evaluateJsonPath(ada, '{.}')).toBe(JSON.stringify(ada));
  });

  it("reads a key with dots as ['key'] or with escaped dots", () => {
    expect(evaluateJsonPath(ada, "{.metadata.labels['app.kubernetes.io/name']}")).toBe('people');
    expect(evaluateJsonPath(ada, '{.metadata.labels.app\\.kubernetes\\.io/name}')).toBe('people');
  });

  it.each([
    ['[0:3]', 'p0 p1 p2'],
    ['[1:]', 'p1 p2 p3 p4'],
    ['[:2]', 'p0 p1'],
    ['[-2:]', 'p3 p4'],
    ['[:-3]', 'p0 p1'],
    ['[::2]', 'p0 p2 p4'],
    ['[1:5:3]', 'p1 p4'],
    ['[2:2]', ''],
    ['[-1]', 'p4'],
    ['[-5]', 'p0'],
  ])('slices as kubectl does: %s', (slice, names) => {
    expect(evaluateJsonPath(list, `{.items${slice}.metadata.name}`)).toBe(names);
  });

  it('is an error, as with kubectl, for an index or slice outside the array', () => {
    expect(() => evaluateJsonPath(list, '{.items[5]}')).toThrow(
      'error executing jsonpath "{.items[5]}": array index out of bounds: index 5, length 5',
    );
    expect(() => evaluateJsonPath(list, '{.items[0:6]}')).toThrow('array index out of bounds: index 5, length 5');
    expect(() => evaluateJsonPath(list, '{.items[-6]}')).toThrow('array index out of bounds: index -1, length 5');
    expect(() => evaluateJsonPath(list, '{.items[3:1]}')).toThrow('starting index 3 is greater than ending index 1');
    expect(() => evaluateJsonPath(list, '{.items[3:1]}')).not.toThrow(UsageError);
  });

  it('repeats a {range} body for each value, with quoted text, nested ranges too', () => {
    expect(evaluateJsonPath(list, '{range .items[0:2]}{.metadata.name}{"\\n"}{end}')).toBe('p0\np1\n');
    expect(
      evaluateJsonPath(list, '{range .items[-2:]}[{.metadata.name}: {range .spec.tags[*]}<{@}>{end}] {end}!'),
    ).toBe('[p3: <p3-1><p3-2>] [p4: <p4-1><p4-2>] !');
    expect(evaluateJsonPath(list, '{range .items[0:1]}{.metadata.name}{"\\t"}')).toBe('p0\t');
  });
});

describe('parseJsonPath', () => {
  it.each([
    ['{..name}', 'recursive descent (..) is not supported'],
    ['{.items[?(@.metadata.name=="p1")]}', 'the filter [?(@.metadata.name=="p1")] is not supported'],
    ['{.items[0,2]}', 'the union [0,2] is not supported'],
    ['{.items[a:b]}', '[a:b] is not supported'],
    ['{.items[::0]}', 'the step of [::0] must be > 0'],
    ['{len(.items)}', 'cannot read the jsonpath expression {len(.items)}'],
    ['{.metadata.name', 'an unclosed action'],
    ['{.a}{end}', '{end} without a {range}'],
    ["{'x'}", 'cannot read the jsonpath expression'],
    ['{"unclosed}', 'an unclosed action'],
  ])('refuses %s as a usage error naming it', (template, message) => {
    expect(() => parseJsonPath(template)).toThrow(UsageError);
    expect(() => parseJsonPath(template)).toThrow(message);
  });
});
