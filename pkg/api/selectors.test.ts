import { StatusError } from './errors';
import { escapeFieldValue, parseFieldSelector, parseLabelSelector } from './selectors';

/** Kubernetes' words for an empty set (`in ()`). */
const EMPTY = "for 'in', 'notin' operators, values set can't be empty";

/** The 400 a parse throws, for asserting on its message. */
function parseError(parse: () => unknown): StatusError {
  try {
    parse();
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error('expected the selector to be refused');
}

describe('parseLabelSelector', () => {
  it.each([
    ['key=value', [{ key: 'app', op: 'in', values: ['web'] }], 'app=web'],
    ['key==value', [{ key: 'app', op: 'in', values: ['web'] }], 'app==web'],
    ['key!=value', [{ key: 'app', op: 'notin', values: ['web'] }], 'app!=web'],
    ['an empty value', [{ key: 'app', op: 'in', values: [''] }], 'app='],
    ['in', [{ key: 'tier', op: 'in', values: ['a', 'b'] }], 'tier in (a,b)'],
    ['notin', [{ key: 'tier', op: 'notin', values: ['a', 'b'] }], 'tier notin (a,b)'],
    ['exists', [{ key: 'app', op: 'exists', values: [] }], 'app'],
    ['does not exist', [{ key: 'app', op: '!exists', values: [] }], '!app'],
    ['a prefixed key', [{ key: 'example.com/app', op: 'in', values: ['x'] }], 'example.com/app=x'],
    ['whitespace around tokens', [{ key: 'tier', op: 'in', values: ['a', 'b'] }], '  tier   in(  a ,\tb )  '],
    ['whitespace around =', [{ key: 'app', op: 'notin', values: ['web'] }], 'app != web'],
    ['whitespace after !', [{ key: 'app', op: '!exists', values: [] }], '! app'],
    ['(,) as the empty value', [{ key: 'a', op: 'in', values: ['', ''] }], 'a in (,)'],
    ['empty members', [{ key: 'a', op: 'in', values: ['x', '', 'z'] }], 'a in (x,,z)'],
    ['a key named in', [{ key: 'in', op: 'in', values: ['in'] }], 'in in (in)'],
    ['=(a,b), as Halo writes in', [{ key: 'a', op: 'in', values: ['x', 'y'] }], 'a=(x,y)'],
    ['!=(a,b) as notin', [{ key: 'a', op: 'notin', values: ['x', 'y'] }], 'a!=(x,y)'],
    [
      'several terms',
      [
        { key: 'app', op: 'in', values: ['web'] },
        { key: 'tier', op: 'notin', values: ['a', 'b'] },
        { key: 'legacy', op: '!exists', values: [] },
      ],
      'app=web,tier notin (a,b),!legacy',
    ],
  ])('parses %s', (_what, expected, selector) => {
    expect(parseLabelSelector([selector])).toEqual(expected);
  });

  it("ANDs the repeated parameter's values, in order", () => {
    expect(parseLabelSelector(['app=web', 'tier in (a,b),x'])).toEqual([
      { key: 'app', op: 'in', values: ['web'] },
      { key: 'tier', op: 'in', values: ['a', 'b'] },
      { key: 'x', op: 'exists', values: [] },
    ]);
  });

  it.each([[[]], [['']], [['  ']], [['', ' \t']]])('gives no requirements for %j', (values) => {
    expect(parseLabelSelector(values)).toEqual([]);
  });

  it.each([
    ['a missing )', 'app in (a', 'unable to parse requirement "app in (a": missing ")"'],
    ['a missing ) after several values', 'app in (a,b', 'unable to parse requirement "app in (a,b": missing ")"'],
    ['in without a list', 'app in a', 'unable to parse requirement "app in a": expected "(" after "in"'],
    ['two values in a row', 'app in (a b)', 'expected "," or ")" after "a", found "b"'],
    ['a key with two slashes', 'a/b/c=x', 'unable to parse requirement "a/b/c=x": invalid label key "a/b/c"'],
    ['a 64-character key name', `${'k'.repeat(64)}=x`, 'name part must be no more than 63 characters'],
    ['a bad value', 'app=-web', 'invalid label value "-web" for key "app"'],
    ['a bad value in a set', 'app in (ok,-no)', 'invalid label value "-no" for key "app"'],
    ['a 64-character value', `app=${'v'.repeat(64)}`, 'must be no more than 63 characters'],
    ['a missing key', '=web', 'expected a label key, found "="'],
    ['a lone !', '!', 'expected a label key'],
    ['!key with an operator', '!app=x', 'unexpected "=" after the requirement'],
    ['two words', 'app web', 'expected an operator (=, ==, !=, in, notin) after "app", found "web"'],
    [
      'a word an object inherits',
      'app constructor (a)',
      'expected an operator (=, ==, !=, in, notin) after "app", found "constructor"',
    ],
    ['a trailing word', 'app=web extra', 'unexpected "extra" after the requirement'],
    ["Kubernetes' > (not supported)", 'replicas > 3', 'operator ">" is not supported'],
    ['a stray )', 'app=web)', 'unexpected ")" after the requirement'],
    ['=== ', 'app===x', 'expected a value after "==", found "="'],
    ['an empty in ()', 'app in ()', `unable to parse requirement "app in ()": ${EMPTY}`],
    ['an empty notin ( )', 'app notin ( )', EMPTY],
    ['an empty =()', 'app=()', EMPTY],
    ['an empty !=()', 'app!=()', EMPTY],
  ])('refuses %s', (_what, selector, message) => {
    const error = parseError(() => parseLabelSelector([selector]));
    expect(error.code).toBe(400);
    expect(error.reason).toBe('BadRequest');
    expect(error.message).toContain(message);
  });

  it.each([['app=web,'], [',app=web'], ['a,,b']])('refuses the empty term in %s, naming the selector', (selector) => {
    expect(parseError(() => parseLabelSelector([selector])).message).toBe(
      `unable to parse label selector ${JSON.stringify(selector)}: it has an empty requirement`,
    );
  });

  it('names the bad term, not the whole selector', () => {
    expect(parseError(() => parseLabelSelector(['app=web,tier in (a', 'x=y'])).message).toBe(
      'unable to parse requirement "tier in (a": missing ")"',
    );
  });
});

describe('parseFieldSelector', () => {
  it.each([
    ['field=value', 'metadata.name=ada', [{ field: 'metadata.name', op: 'in', values: ['ada'] }]],
    ['field==value', 'metadata.name==ada', [{ field: 'metadata.name', op: 'in', values: ['ada'] }]],
    ['field!=value', 'metadata.name!=ada', [{ field: 'metadata.name', op: 'notin', values: ['ada'] }]],
    ['field=(a,b)', 'spec.tags=(a,b)', [{ field: 'spec.tags', op: 'in', values: ['a', 'b'] }]],
    ['field!=(a,b)', 'spec.tags!=(a,b)', [{ field: 'spec.tags', op: 'notin', values: ['a', 'b'] }]],
    ['an empty value', 'spec.name=', [{ field: 'spec.name', op: 'in', values: [''] }]],
    [
      'whitespace around field and value, kept as Kubernetes keeps it',
      ' spec.name = Ada Lovelace ',
      [{ field: ' spec.name ', op: 'in', values: [' Ada Lovelace '] }],
    ],
    ['a value of spaces', 'spec.name= ada ', [{ field: 'spec.name', op: 'in', values: [' ada '] }]],
    ['whitespace in a list, kept', 'spec.tags=( a ,b)', [{ field: 'spec.tags', op: 'in', values: [' a ', 'b'] }]],
    ['a list holding the empty value', 'spec.tags=(,)', [{ field: 'spec.tags', op: 'in', values: ['', ''] }]],
    ['a NUL in a value', 'spec.name=a\0b', [{ field: 'spec.name', op: 'in', values: ['a\0b'] }]],
    ['an escaped comma', 'spec.title=Hello\\, World!', [{ field: 'spec.title', op: 'in', values: ['Hello, World!'] }]],
    ['escaped = and \\', 'spec.expr=a\\=b\\\\c', [{ field: 'spec.expr', op: 'in', values: ['a=b\\c'] }]],
    [
      'an escaped ( at the start: a plain value',
      'spec.name=\\(x)',
      [{ field: 'spec.name', op: 'in', values: ['(x)'] }],
    ],
    ['parentheses inside a value', 'spec.name=f(x)', [{ field: 'spec.name', op: 'in', values: ['f(x)'] }]],
    ['the first operator wins', 'spec.a!=b', [{ field: 'spec.a', op: 'notin', values: ['b'] }]],
    [
      'two terms, commas outside parentheses only',
      'spec.tags=(a,b),spec.name=x',
      [
        { field: 'spec.tags', op: 'in', values: ['a', 'b'] },
        { field: 'spec.name', op: 'in', values: ['x'] },
      ],
    ],
    ['empty terms, skipped as Kubernetes does', 'spec.name=x,,', [{ field: 'spec.name', op: 'in', values: ['x'] }]],
  ])('parses %s', (_what, selector, expected) => {
    expect(parseFieldSelector([selector])).toEqual(expected);
  });

  it("ANDs the repeated parameter's values", () => {
    expect(parseFieldSelector(['metadata.name=a', 'spec.x!=b'])).toEqual([
      { field: 'metadata.name', op: 'in', values: ['a'] },
      { field: 'spec.x', op: 'notin', values: ['b'] },
    ]);
  });

  it.each([[[]], [['']], [[' ']]])('gives no requirements for %j', (values) => {
    expect(parseFieldSelector(values)).toEqual([]);
  });

  it.each([
    ['no operator', 'metadata.name', 'unable to parse requirement "metadata.name": expected <field>=<value>'],
    ['no field', '=ada', 'unable to parse requirement "=ada": expected a field name before "="'],
    ['a missing )', 'spec.tags=(a,b', 'unable to parse requirement "spec.tags=(a,b": missing ")"'],
    ['text after the list', 'spec.tags=(a,b)c', 'missing ")"'],
    ['an unescaped = in a value', 'spec.a=b=c', 'unescaped "=" in the value "b=c"'],
    ['an unescaped = in a list', 'spec.a=(b=c)', 'unescaped "=" in the value "b=c"'],
    ['an unknown escape', 'spec.a=b\\n', 'invalid escape sequence "\\n"'],
    ['a trailing backslash', 'spec.a=b\\', 'invalid escape sequence "\\"'],
    ['an unclosed ( inside a value', 'spec.a=x(,spec.b=y', 'unescaped "," in the value "x(,spec.b=y"'],
    ['an empty list', 'spec.tags=()', `unable to parse requirement "spec.tags=()": ${EMPTY}`],
    ['an empty != list', 'spec.tags!=()', EMPTY],
    ['a list after a space: a plain value with commas', 'spec.tags= (a,b)', 'unescaped "," in the value " (a,b)"'],
  ])('refuses %s', (_what, selector, message) => {
    const error = parseError(() => parseFieldSelector([selector]));
    expect(error.code).toBe(400);
    expect(error.message).toContain(message);
  });
});

describe('escapeFieldValue', () => {
  it.each(['ada', 'a,spec.owner!=b', 'x=y', 'back\\slash', 'in (a,b)', 'ends\\'])(
    'keeps %j one value of one requirement',
    (value) => {
      const requirements = parseFieldSelector([`spec.owner=${escapeFieldValue(value)},metadata.name=p`]);
      expect(requirements).toEqual([
        { field: 'spec.owner', op: 'in', values: [value] },
        { field: 'metadata.name', op: 'in', values: ['p'] },
      ]);
    },
  );
});
