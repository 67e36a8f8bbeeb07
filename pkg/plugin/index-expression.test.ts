import fc from 'fast-check';
import { compileIndexExpression, type ExpressionOutcome } from './index-expression';
import { IndexIsolate } from './index-isolate';

const read = (source: string, object: unknown): ExpressionOutcome => {
  const expression = compileIndexExpression(source);
  if (expression === undefined) throw new Error(`not compiled: ${source}`);
  return expression(object);
};

describe('compileIndexExpression', () => {
  it('compiles a path in every shape a function is written in', () => {
    const object = { spec: { name: 'Ada', 'e-mail': 'ADA@EXAMPLE.COM', tags: ['x', 'y'] } };
    const shapes: [string, string[]][] = [
      ['(person) => person.spec.name', ['Ada']],
      ['person => person.spec.name', ['Ada']],
      ['(p)=>p.spec.tags', ['x', 'y']],
      ['(p) => { return p.spec.name; }', ['Ada']],
      ['(p) => {\n  return p\n    .spec\n    .name\n}', ['Ada']],
      ['function (p) { return p.spec.name }', ['Ada']],
      ['function named(p) { return p.spec.name; }', ['Ada']],
      ['indexFunc(p) { return p.spec.name; }', ['Ada']],
      ["(p) => p.spec['e-mail'].toLowerCase()", ['ada@example.com']],
      ['(p) => p.spec["e-mail"]?.toUpperCase()', ['ADA@EXAMPLE.COM']],
      ['(p) => p?.spec?.name.trim()', ['Ada']],
      ["(p) => p.spec.tags['1']", ['y']],
      ['(p) => p.spec.owner ?? []', []],
      ["(p) => p.spec.owner?.toLowerCase() ?? 'nobody'", ['nobody']],
      ["(p) => { return p.spec.name || 'none'; }", ['Ada']],
    ];
    for (const [source, values] of shapes)
      expect({ source, outcome: read(source, object) }).toEqual({ source, outcome: { values } });
  });

  it('leaves every other source to the isolate', () => {
    const others = [
      '(p) => p.spec.name + "x"',
      '(p) => String(p.spec.name)',
      '(p) => p.spec.tags.map((t) => t)',
      '(p) => `${p.spec.name}`',
      '(p) => p.spec.name // the name',
      '(p) => /* the name */ p.spec.name',
      "(p) => p.spec['na\\u006de']",
      '(p) => p.sp\\u0065c.name',
      '(p) => p.spec[0]',
      '(p) => p.spec[key]',
      '(p) => q.spec.name',
      '(p) => globalThis.spec',
      '(p) => this.spec',
      '(p, q) => p.spec',
      '(p = {}) => p.spec',
      '({ spec }) => spec.name',
      '(p) => p.spec.name.slice(1)',
      '(p) => p.spec.name?.()',
      '(p) => p.spec.name.toLowerCase(1)',
      '(p) => { return\n p.spec.name; }',
      '(p) => { const n = p.spec.name; return n; }',
      '(p) => (p.spec.name)',
      '(p) => p.spec.name ?? p.spec.email',
      "(p) => p.spec.name ?? 'a' ?? 'b'",
      "(p) => p.spec.name || ['a']",
      '(p) => p.spec.name ?? 1',
      "(p) => p.spec.name && 'a'",
      '(p) => p.spec.ok ?.5 : 1',
      'function* (p) { return p.spec; }',
      'async (p) => p.spec',
      '(p) => p.spec;',
      '(p) => p.spec.naïve',
      '(p) => p.spec.name.trim().toLowerCase()',
      `(p) => p${'.spec'.repeat(33)}`,
    ];
    for (const source of others)
      expect({ source, compiled: compileIndexExpression(source) }).toEqual({ source, compiled: undefined });
  });

  it('answers like JavaScript: missing is nothing, optional steps stop, a missing parent is an error', () => {
    expect(read('(p) => p.spec.missing', { spec: {} })).toEqual({ values: [] });
    expect(read('(p) => p.spec?.name.first', { spec: null })).toEqual({ values: [] });
    expect(read('(p) => p.spec.name.first', { spec: {} })).toEqual({
      error: "Cannot read properties of undefined (reading 'first')",
    });
    expect(read('(p) => p.spec.name.toLowerCase()', { spec: { name: null } })).toEqual({
      error: "Cannot read properties of null (reading 'toLowerCase')",
    });
    expect(read('(p) => p.spec.age', { spec: { age: 3 } })).toEqual({
      error: 'returned number; an index function returns a string, an array of strings or nothing',
    });
    expect(read('(p) => p.spec.tags', { spec: { tags: ['a', 1] } })).toEqual({
      error:
        'returned an array holding something else than strings; an index function returns a string, an array of strings or nothing',
    });
  });

  it('never reaches a prototype, a function or an accessor: such steps go to the isolate', () => {
    const getter = Object.defineProperty({}, 'name', { get: () => 'ran', enumerable: true });
    class Person {
      name = 'ada';
    }
    const cases: [string, unknown][] = [
      ['(p) => p.constructor', {}],
      ['(p) => p.spec.__proto__', { spec: {} }],
      ['(p) => p.spec.toString', { spec: {} }],
      ['(p) => p.spec.tags.map', { spec: { tags: [] } }],
      ['(p) => p.spec.name.length', { spec: { name: 'ada' } }],
      ['(p) => p.spec.age.toFixed', { spec: { age: 1 } }],
      ['(p) => p.spec.age.toLowerCase()', { spec: { age: 1 } }],
      ['(p) => p.spec.name', { spec: getter }],
      ['(p) => p.spec.name', { spec: new Person() }],
      ['(p) => p.spec.name', { spec: Object.defineProperty({}, 'name', { value: 'hidden', enumerable: false }) }],
    ];
    for (const [source, object] of cases)
      expect({ source, outcome: read(source, object) }).toEqual({ source, outcome: undefined });
  });

  it("answers for the storage's own object what the isolate answers for its JSON, or leaves it to the isolate", () => {
    let ran = 0;
    const tricks: [string, unknown][] = [
      ["(p) => p.a['0'].x", { a: [undefined] }],
      ["(p) => p.a['1'] ?? 'hole'", { a: ['x', () => 1] }],
      ['(p) => p.constructor', { constructor: undefined }],
      ["(p) => p.spec.toString || 'x'", { spec: { toString: undefined } }],
      ['(p) => p.spec.name', { spec: { name: Symbol('s') } }],
      ['(p) => p.t', { t: new Date(0) }],
      ['(p) => p.t', { t: new String('s') }],
      ['(p) => p.t', { t: [new String('s')] }],
      ['(p) => p.t', { t: [NaN] }],
      ['(p) => p.t', { t: Infinity }],
      ['(p) => p.spec.name', { spec: { name: 'a', toJSON: () => ({ name: 'b' }) } }],
      ['(p) => p.spec.name', { toJSON: () => ({ spec: { name: 'b' } }), spec: { name: 'a' } }],
      ['(p) => p.tags', { tags: Object.assign(['a'], { [Symbol.iterator]: () => ['evil'][Symbol.iterator]() }) }],
      ['(p) => p.tags', { tags: Object.defineProperty(['a'], '0', { get: () => (ran++, 'b'), enumerable: true }) }],
      ['(p) => p.spec.name', { spec: new Proxy({ name: 'a' }, { getPrototypeOf: () => (ran++, Object.prototype) }) }],
    ];
    const isolate = IndexIsolate.start(
      'live',
      tricks.map(([source], i) => ({ name: `f${i}`, source })),
      { timeoutMs: 1000, memoryMb: 16 },
    );
    // Read here first: the JSON text the isolate is given runs the getters and traps, which reading must not.
    const read = tricks.map(([source, object]) => compileIndexExpression(source)!(object));
    expect(ran).toBe(0);
    try {
      tricks.forEach(([source, object], i) => {
        const here = read[i];
        const answer = isolate.call(JSON.stringify(object));
        if (!('text' in answer)) throw new Error(`the isolate did not answer: ${answer.failure}`);
        const there = (JSON.parse(answer.text) as ExpressionOutcome[])[i];
        if (here !== undefined) expect({ source, outcome: here }).toEqual({ source, outcome: there });
      });
    } finally {
      isolate.close();
    }
    // Not vacuous: some are answered here, and with what the isolate says.
    expect(read.filter((outcome) => outcome !== undefined).length).toBeGreaterThanOrEqual(4);
  });

  it('answers exactly what the isolate answers, for any path over any JSON (differential)', () => {
    const keys = [
      'spec',
      'name',
      'tags',
      'length',
      'constructor',
      '__proto__',
      'toString',
      'map',
      '0',
      '1',
      'a-b',
      'then',
    ];
    const step = fc.record({
      key: fc.constantFrom(...keys, 'toLowerCase()', 'toUpperCase()', 'trim()'),
      optional: fc.boolean(),
    });
    const fallback = fc.constantFrom('', " ?? 'none'", ' ?? []', " || 'none'", ' || []');
    const source = fc.tuple(fc.array(step, { maxLength: 4 }), fallback).map(
      ([steps, otherwise]) =>
        '(p) => p' +
        steps
          .map(({ key, optional }) => {
            if (key.endsWith('()')) return `${optional ? '?.' : '.'}${key}`;
            if (/^[a-z_]\w*$/i.test(key)) return `${optional ? '?.' : '.'}${key}`;
            return `${optional ? '?.' : ''}['${key}']`;
          })
          .join('') +
        otherwise,
    );
    const { json } = fc.letrec((tie) => ({
      json: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('Ada', ' ÄDA ', '', 'İ', 0, false),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('json'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom(...keys), tie('json'), { maxKeys: 4 }),
      ),
    }));
    let answeredHere = 0;
    let compared = 0;
    fc.assert(
      fc.property(
        fc.array(source, { minLength: 1, maxLength: 20 }),
        fc.array(json, { maxLength: 8 }),
        (sources, objects) => {
          const isolate = IndexIsolate.start(
            'differential',
            sources.map((s, i) => ({ name: `f${i}`, source: s })),
            { timeoutMs: 1000, memoryMb: 16 },
          );
          try {
            const expressions = sources.map((s) => compileIndexExpression(s));
            for (const object of objects) {
              const text = JSON.stringify(object);
              const answer = isolate.call(text);
              if (!('text' in answer)) throw new Error(`the isolate did not answer: ${answer.failure}`);
              const inIsolate = JSON.parse(answer.text) as ExpressionOutcome[];
              expressions.forEach((expression, i) => {
                // The apiserver hands its own object (parsed from JSON) to the expression, the isolate a fresh parse.
                const here = expression?.(JSON.parse(text));
                compared++;
                if (here === undefined) return;
                answeredHere++;
                expect({ source: sources[i], object: text, outcome: here }).toEqual({
                  source: sources[i],
                  object: text,
                  outcome: inIsolate[i],
                });
              });
            }
          } finally {
            isolate.close();
          }
        },
      ),
      { numRuns: 60 },
    );
    // Many generated paths are answered here (the rest meet inherited names on purpose): the comparison is not vacuous.
    expect(answeredHere).toBeGreaterThan(compared / 3);
  });
});
