import { StatusError } from '../api/errors';
import { checkListOptions, type ListOptionsToCheck } from './list-options-check';

const streamingList: ListOptionsToCheck = {
  watch: true,
  sendInitialEvents: true,
  resourceVersionMatch: 'NotOlderThan',
  allowWatchBookmarks: true,
};

function refusal(options: ListOptionsToCheck): StatusError {
  try {
    checkListOptions(options);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe('checkListOptions', () => {
  it.each<[string, ListOptionsToCheck]>([
    ['a streaming list from now', streamingList],
    ['a streaming list not older than a revision', { ...streamingList, resourceVersion: '12' }],
    ['a watch that skips the initial events', { ...streamingList, sendInitialEvents: false }],
    ['a plain watch', { watch: true, allowWatchBookmarks: false, resourceVersion: '3' }],
    [
      'a list not older than a revision',
      { watch: false, allowWatchBookmarks: false, resourceVersion: '3', resourceVersionMatch: 'NotOlderThan' },
    ],
    [
      'an exact list',
      { watch: false, allowWatchBookmarks: false, resourceVersion: '3', resourceVersionMatch: 'Exact' },
    ],
  ])('accepts %s', (_what, options) => {
    expect(() => checkListOptions(options)).not.toThrow();
  });

  it.each<[string, ListOptionsToCheck, string, string]>([
    [
      'sendInitialEvents without resourceVersionMatch',
      { ...streamingList, resourceVersionMatch: undefined },
      'resourceVersionMatch',
      'sendInitialEvents requires resourceVersionMatch=NotOlderThan',
    ],
    [
      'sendInitialEvents without bookmarks',
      { ...streamingList, allowWatchBookmarks: false },
      'allowWatchBookmarks',
      'sendInitialEvents requires allowWatchBookmarks=true',
    ],
    [
      'resourceVersionMatch on a watch without sendInitialEvents',
      { ...streamingList, sendInitialEvents: undefined },
      'resourceVersionMatch',
      'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    ],
    [
      'resourceVersionMatch=Exact on a watch',
      { ...streamingList, resourceVersionMatch: 'Exact' },
      'resourceVersionMatch',
      'Unsupported value: "Exact": supported values: "NotOlderThan"',
    ],
    [
      'a streaming list with continue',
      { ...streamingList, continue: 'abc' },
      'resourceVersionMatch',
      'resourceVersionMatch is forbidden when continue is provided',
    ],
  ])('refuses %s with 422 naming the field', (_what, options, field, message) => {
    const error = refusal(options);
    expect(error.code).toBe(422);
    expect(error.reason).toBe('Invalid');
    expect(error.details.causes).toContainEqual(expect.objectContaining({ field, message }));
    expect(error.message).toMatch(/^ListOptions\.meta\.k8s\.io "" is invalid: /);
    expect(error.message).toContain(`${field}: ${message}`);
  });

  it.each<[string, ListOptionsToCheck, string]>([
    [
      'resourceVersionMatch without resourceVersion',
      { watch: false, allowWatchBookmarks: false, resourceVersionMatch: 'NotOlderThan' },
      'invalid resourceVersionMatch "NotOlderThan": is forbidden unless resourceVersion is provided',
    ],
    [
      'resourceVersionMatch with continue',
      { watch: false, allowWatchBookmarks: false, resourceVersion: '1', resourceVersionMatch: 'Exact', continue: 'x' },
      'is forbidden when continue is provided',
    ],
    [
      'Exact at resourceVersion 0',
      { watch: false, allowWatchBookmarks: false, resourceVersion: '0', resourceVersionMatch: 'Exact' },
      'Exact is forbidden for resourceVersion "0"',
    ],
    [
      'sendInitialEvents on a list',
      { watch: false, allowWatchBookmarks: true, sendInitialEvents: true },
      'invalid sendInitialEvents "true": is forbidden for list',
    ],
    ...['garbage', '-1', '1.5'].map((rv): [string, ListOptionsToCheck, string] => [
      `resourceVersion=${rv}`,
      { watch: false, allowWatchBookmarks: false, resourceVersion: rv },
      `invalid resourceVersion "${rv}"`,
    ]),
  ])('refuses a list with %s with 400', (_what, options, message) => {
    const error = refusal(options);
    expect(error.code).toBe(400);
    expect(error.message).toContain(message);
  });
});
