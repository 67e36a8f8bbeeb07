import { StatusError } from '../api/errors';
import type { IndexSpec } from '../storage/indexes';
import { listEnvelopePaging, parseListParams } from './list-params';
import { parseRequestInfo } from './request-info';

const parse = (query: string, indexes?: IndexSpec[]) => parseListParams(new URLSearchParams(query), { indexes });

function refusal(query: string): StatusError {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error(`expected "${query}" to be refused`);
}

describe('parseListParams', () => {
  it('defaults to everything: no options, no paging, no watch', () => {
    expect(parse('')).toEqual({ list: {}, paging: undefined, watch: false, allowWatchBookmarks: false });
  });

  it.each([
    ['size alone: page 1', 'size=20', { offset: 0, limit: 20 }, { page: 1, size: 20 }],
    ['page and size', 'page=3&size=20', { offset: 40, limit: 20 }, { page: 3, size: 20 }],
    ['page 1 of size 1', 'page=1&size=1', { offset: 0, limit: 1 }, { page: 1, size: 1 }],
    ['page 1 without size: page 1 of everything', 'page=1', {}, undefined],
    ['Kubernetes limit', 'limit=50', { limit: 50 }, undefined],
    ['limit=0: no limit, as Kubernetes', 'limit=0', {}, undefined],
    ['limit and continue', 'limit=5&continue=abc', { limit: 5, continue: 'abc' }, undefined],
    ['an empty continue is absent', 'continue=', {}, undefined],
  ])('pages: %s', (_what, query, list, paging) => {
    const params = parse(query);
    expect(params.list).toEqual(list);
    expect(params.paging).toEqual(paging);
  });

  it.each([
    ['index,asc', 'sort=metadata.name,asc', [{ index: 'metadata.name', direction: 'asc' }]],
    [
      'index,desc',
      'sort=metadata.creationTimestamp,desc',
      [{ index: 'metadata.creationTimestamp', direction: 'desc' }],
    ],
    ['a direction in capitals', 'sort=spec.name,DESC', [{ index: 'spec.name', direction: 'desc' }]],
    ['no direction: ascending', 'sort=spec.name', [{ index: 'spec.name', direction: 'asc' }]],
    [
      'repeated, in order',
      'sort=spec.a,desc&sort=spec.b',
      [
        { index: 'spec.a', direction: 'desc' },
        { index: 'spec.b', direction: 'asc' },
      ],
    ],
    ['a repeated index: the first wins', 'sort=spec.a,desc&sort=spec.a,asc', [{ index: 'spec.a', direction: 'desc' }]],
    ['an empty value is skipped', 'sort=&sort=spec.a', [{ index: 'spec.a', direction: 'asc' }]],
  ])('sort: %s', (_what, query, sort) => {
    expect(parse(query).list.sort).toEqual(sort);
  });

  it("takes a missing direction from the index's order when it knows the indexes", () => {
    const indexes: IndexSpec[] = [{ name: 'spec.tags', order: 'DESC', indexFunc: () => undefined }];
    expect(parse('sort=spec.tags&sort=spec.name&sort=spec.x,asc', indexes).list.sort).toEqual([
      { index: 'spec.tags', direction: 'desc' },
      { index: 'spec.name', direction: 'asc' },
      { index: 'spec.x', direction: 'asc' },
    ]);
    expect(parse('sort=spec.tags,asc', indexes).list.sort).toEqual([{ index: 'spec.tags', direction: 'asc' }]);
  });

  it('parses and ANDs repeated selectors', () => {
    const params = parse(
      new URLSearchParams([
        ['labelSelector', 'app=web,tier in (a,b)'],
        ['labelSelector', '!legacy'],
        ['fieldSelector', 'spec.tags=(a,b),spec.name=x'],
        ['fieldSelector', 'metadata.name!=ada'],
      ]).toString(),
    );
    expect(params.list.labelSelector).toEqual([
      { key: 'app', op: 'in', values: ['web'] },
      { key: 'tier', op: 'in', values: ['a', 'b'] },
      { key: 'legacy', op: '!exists', values: [] },
    ]);
    expect(params.list.fieldSelector).toEqual([
      { field: 'spec.tags', op: 'in', values: ['a', 'b'] },
      { field: 'spec.name', op: 'in', values: ['x'] },
      { field: 'metadata.name', op: 'notin', values: ['ada'] },
    ]);
  });

  it("reads + as a space, as client-node's form encoding sends it", () => {
    expect(parse('labelSelector=a+in+%28b%2Cc%29').list.labelSelector).toEqual([
      { key: 'a', op: 'in', values: ['b', 'c'] },
    ]);
  });

  it('leaves empty selectors out', () => {
    expect(parse('labelSelector=&fieldSelector=').list).toEqual({});
  });

  it.each([
    ['watch=true', true],
    ['watch=1', true],
    ['watch=TRUE', true],
    ['watch', true],
    ['watch=', true],
    ['watch=yes', true],
    ['watch=false', false],
    ['watch=0', false],
    ['watch=False', false],
    ['', false],
  ])('watch: %s → %s', (query, watch) => {
    expect(parse(query).watch).toBe(watch);
  });

  it('reads the watch parameters of kubectl delete --wait', () => {
    expect(
      parse(
        'fieldSelector=metadata.name%3Dw1&resourceVersion=42&watch=true&allowWatchBookmarks=true&timeoutSeconds=30',
      ),
    ).toEqual({
      list: { fieldSelector: [{ field: 'metadata.name', op: 'in', values: ['w1'] }] },
      paging: undefined,
      watch: true,
      allowWatchBookmarks: true,
      resourceVersion: '42',
      timeoutSeconds: 30,
    });
  });

  it.each([
    ['resourceVersion=0', { resourceVersion: '0' }],
    ['resourceVersion=', {}],
    [
      'resourceVersion=7&resourceVersionMatch=NotOlderThan',
      { resourceVersion: '7', resourceVersionMatch: 'NotOlderThan' },
    ],
    ['resourceVersion=7&resourceVersionMatch=Exact', { resourceVersion: '7', resourceVersionMatch: 'Exact' }],
    ['timeoutSeconds=0', { timeoutSeconds: 0 }],
    [
      'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' },
    ],
  ])('%s', (query, expected) => {
    const { list: _l, paging: _p, watch: _w, allowWatchBookmarks: _b, ...rest } = parse(query);
    expect(rest).toEqual(expected);
  });

  it('takes the first of a repeated single-valued parameter', () => {
    expect(parse('size=5&size=7&page=2&page=9').paging).toEqual({ page: 2, size: 5 });
  });

  it('ignores unknown parameters, as Kubernetes does', () => {
    expect(parse('pretty=true&foo=bar&exact=1')).toEqual(parse(''));
  });

  it.each([
    ['page 0', 'page=0&size=10', 'invalid page "0": must be an integer of at least 1'],
    ['page -1', 'page=-1', 'invalid page "-1"'],
    ['page 1.5', 'page=1.5&size=2', 'invalid page "1.5"'],
    ['size -1', 'size=-1', 'invalid size "-1": must be an integer of at least 1'],
    ['size 0', 'size=0', 'invalid size "0"'],
    ['size "abc"', 'size=abc', 'invalid size "abc"'],
    ['an empty size', 'size=', 'invalid size ""'],
    ['size 1e3', 'size=1e3', 'invalid size "1e3"'],
    ['size beyond a safe integer', 'size=99999999999999999999', 'invalid size "99999999999999999999"'],
    ['limit=x', 'limit=x', 'invalid limit "x": must be an integer of at least 0'],
    ['limit -5', 'limit=-5', 'invalid limit "-5"'],
    ['timeoutSeconds -1', 'timeoutSeconds=-1', 'invalid timeoutSeconds "-1": must be an integer of at least 0'],
    [
      'a bad sort direction',
      'sort=metadata.name,up',
      'invalid sort "metadata.name,up": expected <index>, <index>,asc or <index>,desc',
    ],
    ['a sort without an index', 'sort=,desc', 'invalid sort ",desc"'],
    ['a sort with an empty direction', 'sort=spec.a,', 'invalid sort "spec.a,"'],
    ['a sort with three parts', 'sort=spec.a,spec.b,desc', 'invalid sort "spec.a,spec.b,desc"'],
    [
      'a label selector that does not parse',
      'labelSelector=app%20in%20(a',
      'invalid labelSelector "app in (a": unable to parse requirement "app in (a": missing ")"',
    ],
    ['a bad label key', 'labelSelector=a/b/c%3Dx', 'invalid labelSelector "a/b/c=x"'],
    ['a field selector that does not parse', 'fieldSelector=spec.name', 'invalid fieldSelector "spec.name"'],
    ['a bad second selector value', 'labelSelector=ok&labelSelector=%3Dx', 'invalid labelSelector "=x"'],
    ['allowWatchBookmarks=maybe', 'allowWatchBookmarks=maybe', 'invalid allowWatchBookmarks "maybe"'],
    [
      'an unknown resourceVersionMatch',
      'resourceVersion=1&resourceVersionMatch=Newest',
      'invalid resourceVersionMatch "Newest": must be NotOlderThan or Exact',
    ],
    [
      'resourceVersionMatch without resourceVersion',
      'resourceVersionMatch=Exact',
      'invalid resourceVersionMatch "Exact": is forbidden unless resourceVersion is provided',
    ],
    [
      'sendInitialEvents on a list',
      'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=1',
      'invalid sendInitialEvents "true": is forbidden for list',
    ],
    ['sendInitialEvents=maybe', 'watch=1&sendInitialEvents=maybe', 'invalid sendInitialEvents "maybe"'],
    ['a page other than 1 without size, naming both', 'page=2', 'page 2 needs a size'],
    ['a page without size beside limit', 'page=3&limit=5', 'page 3 needs a size'],
    ['size with limit', 'size=10&limit=5', 'size and limit cannot be combined'],
    ['size with continue', 'size=10&continue=abc', 'size and continue cannot be combined'],
  ])('refuses %s with a 400', (_what, query, message) => {
    const error = refusal(query);
    expect(error.code).toBe(400);
    expect(error.reason).toBe('BadRequest');
    expect(error.message).toContain(message);
  });
});

describe('listEnvelopePaging', () => {
  const envelope = (
    page: number,
    size: number,
    total: number,
    totalPages: number,
    hasPrevious: boolean,
    hasNext: boolean,
  ) => ({ page, size, total, totalPages, first: !hasPrevious, last: !hasNext, hasNext, hasPrevious });

  it.each([
    ['without size: one page of everything', undefined, undefined, 153, envelope(1, 153, 153, 1, false, false)],
    ['without size and nothing found: size 0, one page', undefined, undefined, 0, envelope(1, 0, 0, 1, false, false)],
    ['the paging example: page 2 of 8', 2, 20, 153, envelope(2, 20, 153, 8, true, true)],
    ['the first page', 1, 20, 153, envelope(1, 20, 153, 8, false, true)],
    ['the last, partial page', 8, 20, 153, envelope(8, 20, 153, 8, true, false)],
    ['an exact multiple', 2, 10, 20, envelope(2, 10, 20, 2, true, false)],
    ['size without page: page 1', undefined, 10, 25, envelope(1, 10, 25, 3, false, true)],
    ['a page past the end', 5, 20, 30, envelope(5, 20, 30, 2, true, false)],
    ['nothing found with a size: zero pages, as Halo', 1, 20, 0, envelope(1, 20, 0, 0, false, false)],
  ])('%s', (_what, page, size, total, expected) => {
    expect(listEnvelopePaging(page, size, total)).toEqual(expected);
  });

  it.each([
    ['a first limit page with a token after it', { resumed: false, more: true }, envelope(1, 10, 10, 1, false, true)],
    [
      'a middle page: resumed, with a token after it',
      { resumed: true, more: true },
      envelope(1, 10, 10, 1, true, true),
    ],
    ['the last page: resumed, no token after it', { resumed: true, more: false }, envelope(1, 10, 10, 1, true, false)],
  ])('limit/continue, %s: hasNext exactly when a token follows', (_what, position, expected) => {
    expect(listEnvelopePaging(undefined, undefined, 10, position)).toEqual(expected);
  });

  it("keeps the envelope's field order", () => {
    expect(Object.keys(listEnvelopePaging(1, 1, 1))).toEqual([
      'page',
      'size',
      'total',
      'totalPages',
      'first',
      'last',
      'hasNext',
      'hasPrevious',
    ]);
  });
});

describe('one reading of ?watch', () => {
  it.each(['watch=true', 'watch=yes', 'watch', 'watch=0', 'watch=false', 'watch=on'])(
    '%s: the request info (what is authorised) and the list parameters (what is served) agree',
    (query) => {
      const info = parseRequestInfo('GET', `/apis/example.com/v1alpha1/persons?${query}`);
      expect(parse(query).watch).toBe(info.verb === 'watch');
    },
  );
});
