import type { ApiObject } from '../api/object';
import { age, describeObject } from './describe-format';

const now = new Date('2026-11-25T04:10:00.000Z');

describe('describeObject', () => {
  it('prints the metadata a person reads, then spec and status as indented YAML, and conditions as a table', () => {
    const object = {
      apiVersion: 'example.com/v1alpha1',
      kind: 'Person',
      metadata: {
        name: 'ada',
        uid: 'u-1',
        resourceVersion: '42',
        creationTimestamp: '2026-11-25T04:05:00.000Z',
        deletionTimestamp: '2026-11-25T04:09:30.000Z',
        labels: { team: 'engines', tier: 'a' },
        finalizers: ['example.com/keep'],
      },
      spec: { name: 'Ada Lovelace', tags: ['math', 'poetry'] },
      status: {
        phase: 'Ready',
        conditions: [{ type: 'Ready', status: 'True', reason: 'Done', lastTransitionTime: '2026-11-25T04:06:00Z' }],
      },
    } as ApiObject;
    expect(describeObject(object, now)).toBe(
      [
        'Name:             ada',
        'Kind:             Person (example.com/v1alpha1)',
        'Labels:           team=engines',
        '                  tier=a',
        'Annotations:      <none>',
        'Created:          2026-11-25T04:05:00.000Z (5m ago)',
        'Deleting:         since 2026-11-25T04:09:30.000Z (30s ago)',
        'Finalizers:       example.com/keep',
        'Resource Version: 42',
        'UID:              u-1',
        'Spec:',
        '  name: Ada Lovelace',
        '  tags:',
        '    - math',
        '    - poetry',
        'Status:',
        '  phase: Ready',
        'Conditions:',
        '  TYPE    STATUS   REASON   MESSAGE   LAST TRANSITION',
        '  Ready   True     Done               2026-11-25T04:06:00Z',
        '',
      ].join('\n'),
    );
  });

  it('prints other top-level fields (a Role’s rules) and leaves out empty ones', () => {
    const text = describeObject(
      {
        apiVersion: 'v1alpha1',
        kind: 'Role',
        metadata: { name: 'reader' },
        rules: [{ verbs: ['get'] }],
        status: {},
      } as ApiObject,
      now,
    );
    expect(text).toContain('Rules:\n  - verbs:\n      - get\n');
    expect(text).not.toContain('Status:');
    expect(text).toContain('Created:          <unknown>');
  });

  it.each([
    [5, '5s'],
    [119, '119s'],
    [600, '10m'],
    [7200, '2h'],
    [200000, '2d'],
  ])('shortens %i seconds to %s', (seconds, text) => {
    expect(age(seconds)).toBe(text);
  });
});
