import type { ApiObject } from '../api/object';
import { hasPreconditions, meetsPreconditions } from './preconditions';

const stored: ApiObject = {
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { name: 'ada', version: 3, resourceVersion: '17', uid: 'u-1' },
};

describe('meetsPreconditions', () => {
  it.each([
    ['none', undefined, true],
    ['an empty set', {}, true],
    ['the current version', { version: 3 }, true],
    ['a stale version', { version: 2 }, false],
    ['the current resourceVersion', { resourceVersion: '17' }, true],
    ['a stale resourceVersion', { resourceVersion: '16' }, false],
    ['the uid', { uid: 'u-1' }, true],
    ['another uid', { uid: 'u-2' }, false],
    ['every token current', { version: 3, resourceVersion: '17', uid: 'u-1' }, true],
    ['one stale token among current ones', { version: 3, resourceVersion: '16', uid: 'u-1' }, false],
  ])('%s → %s', (_, preconditions, expected) => {
    expect(meetsPreconditions(stored, preconditions)).toBe(expected);
  });
});

describe('hasPreconditions', () => {
  it('is true only when some token is set', () => {
    expect(hasPreconditions(undefined)).toBe(false);
    expect(hasPreconditions({})).toBe(false);
    expect(hasPreconditions({ uid: 'u-1' })).toBe(true);
    expect(hasPreconditions({ version: 0 })).toBe(true);
  });
});
