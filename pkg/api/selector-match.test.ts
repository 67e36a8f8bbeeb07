import { fieldMatches, labelMatches, labelsMatch } from './selector-match';
import { parseLabelSelector } from './selectors';

describe('labelMatches', () => {
  const labels = { app: 'web', tier: '' };
  it.each([
    ['app=web', true],
    ['app=db', false],
    ['app!=db', true],
    ['app!=web', false],
    ['missing!=web', true],
    ['app in (db,web)', true],
    ['missing in (web)', false],
    ['app notin (db,web)', false],
    ['missing notin (web)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['tier=', true],
  ])('%s → %s', (selector, expected) => {
    expect(labelMatches(labels, parseLabelSelector([selector])[0])).toBe(expected);
  });

  it('treats absent labels as no labels', () => {
    expect(labelMatches(undefined, { key: 'app', op: 'notin', values: ['web'] })).toBe(true);
    expect(labelMatches(undefined, { key: 'app', op: 'exists', values: [] })).toBe(false);
  });
});

describe('labelsMatch', () => {
  it('needs every requirement and accepts anything when there are none', () => {
    const labels = { app: 'web', tier: 'db' };
    expect(labelsMatch(labels, parseLabelSelector(['app=web,tier=db']))).toBe(true);
    expect(labelsMatch(labels, parseLabelSelector(['app=web', 'tier=api']))).toBe(false);
    expect(labelsMatch(undefined)).toBe(true);
  });
});

describe('fieldMatches', () => {
  it.each([
    ['in: one of the values is listed', ['a', 'b'], 'in', ['b', 'z'], true],
    ['in: none is listed', ['a', 'b'], 'in', ['z'], false],
    ['in: no values', [], 'in', ['a'], false],
    ['notin: none is listed', ['a', 'b'], 'notin', ['z'], true],
    ['notin: one is listed', ['a', 'b'], 'notin', ['a'], false],
    ['notin: no values', [], 'notin', ['a'], true],
  ] as const)('%s', (_, values, op, listed, expected) => {
    expect(fieldMatches(values, { field: 'spec.tags', op, values: [...listed] })).toBe(expected);
  });
});
