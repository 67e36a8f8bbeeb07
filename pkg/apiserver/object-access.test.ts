import { bindCondition, type BoundCondition } from '../auth/rbac';
import { narrowedList, objectAccess } from './object-access';
import type { Model } from '../registry/model';

const ada = { name: 'ada', groups: [] };
const bound = (fieldSelector?: string, labelSelector?: string): BoundCondition =>
  bindCondition({ fieldSelector, labelSelector }, ada, false)!;
const owner = { field: 'spec.owner', op: 'in', values: ['ada'] };

describe('a list narrowed to what conditional rules let the caller see', () => {
  it('adds one condition to the request as requirements', () => {
    const list = narrowedList(
      { limit: 10, labelSelector: [{ key: 'x', op: 'exists', values: [] }] },
      [bound('spec.owner=${user.name}', 'team=a')],
      'posts',
    );
    expect(list).toEqual({
      limit: 10,
      labelSelector: [
        { key: 'x', op: 'exists', values: [] },
        { key: 'team', op: 'in', values: ['a'] },
      ],
      fieldSelector: [owner],
    });
  });

  it('adds nothing when the request already asks for all that one condition requires', () => {
    const asked = { fieldSelector: [{ field: 'spec.owner', op: 'in' as const, values: ['ada'] }] };
    const conditions = [bound('spec.owner=${user.name}'), bound('spec.editor=${user.name}')];
    expect(narrowedList(asked, conditions, 'posts')).toBe(asked);
  });

  it('merges conditions that differ only in the values of one requirement into one set', () => {
    const list = narrowedList(
      {},
      [bound('spec.owner=${user.name}', 'team=a'), bound('spec.owner=bob', 'team=a')],
      'posts',
    );
    expect(list.fieldSelector).toEqual([{ field: 'spec.owner', op: 'in', values: ['ada', 'bob'] }]);
    expect(list.labelSelector).toEqual([{ key: 'team', op: 'in', values: ['a'] }]);
  });

  it('lists differently shaped conditions as alternatives, the request’s requirements kept for all', () => {
    const conditions = [bound('spec.owner=${user.name}'), bound(undefined, 'team=a')];
    const asked = { limit: 5, labelSelector: [{ key: 'x', op: 'exists' as const, values: [] }] };
    expect(narrowedList(asked, conditions, 'posts')).toEqual({
      ...asked,
      anyOf: [
        { labelSelector: [], fieldSelector: [owner] },
        { labelSelector: [{ key: 'team', op: 'in', values: ['a'] }], fieldSelector: [] },
      ],
    });
  });

  it('refuses (403) alternatives when one names no values and the request names none either', () => {
    const conditions = [bound('spec.owner!=bob'), bound(undefined, 'team=a')];
    expect(() => narrowedList({}, conditions, 'posts')).toThrow(
      expect.objectContaining({ code: 403, message: expect.stringContaining('spec.owner!=bob names no values') }),
    );
    const narrowed = narrowedList({ fieldSelector: [owner as never] }, conditions, 'posts');
    expect(narrowed.anyOf).toHaveLength(2);
  });
});

describe('the objects a conditional caller may write', () => {
  const model = {
    indexes: [{ name: 'spec.owner', indexFunc: (o: any) => o.spec?.owner }],
  } as unknown as Model;
  const access = objectAccess([bound('spec.owner=${user.name}'), bound(undefined, 'team=a')], model);
  const object = (owner: string, labels?: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Post',
    metadata: { name: 'p', labels },
    spec: { owner },
  });

  it('are those matching any one condition, judged on index values', () => {
    expect(access.allows(object('ada'))).toBe(true);
    expect(access.allows(object('bob', { team: 'a' }))).toBe(true);
    expect(access.allows(object('bob'))).toBe(false);
    expect(access.describe).toBe('spec.owner=ada or labels team=a');
  });
});
