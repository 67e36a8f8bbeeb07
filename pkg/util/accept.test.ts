import { parseAccept } from './accept';

describe('parseAccept', () => {
  it('reads types in lower case, parameters with their values as sent, and q', () => {
    expect(parseAccept('Application/JSON;as=Table;v=v1;G=meta.k8s.io, text/*;q=0.5')).toEqual([
      { type: 'application', subtype: 'json', params: { as: 'Table', v: 'v1', g: 'meta.k8s.io' }, q: 1 },
      { type: 'text', subtype: '*', params: {}, q: 0.5 },
    ]);
  });

  it('accepts anything when the header is absent, empty or holds no readable range', () => {
    const any = [{ type: '*', subtype: '*', params: {}, q: 1 }];
    expect(parseAccept(undefined)).toEqual(any);
    expect(parseAccept('')).toEqual(any);
    expect(parseAccept('json, a/b/c, /x')).toEqual(any);
  });

  it.each([
    ['q=0', 0],
    ['q=0.25', 0.25],
    [' q = 1 ', 1],
    ['q=1.5', 0],
    ['q=-1', 0],
    ['q=abc', 0],
    ['q=', 0],
  ])('reads %s as %p', (param, q) => {
    expect(parseAccept(`text/csv;${param}`)[0].q).toBe(q);
  });

  it('keeps a __proto__ parameter as data', () => {
    const [range] = parseAccept('text/csv;__proto__=x');
    expect(Object.keys(range.params)).toEqual(['__proto__']);
    expect(range.params.__proto__).toBe('x');
  });
});
