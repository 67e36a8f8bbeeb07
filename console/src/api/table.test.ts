import { describe, expect, it } from 'vitest';
import { cellText, tableUrl } from './table';
import { watchUrl } from './watch';

describe('tableUrl', () => {
  it('pages with limit and continue, and passes the selectors and sort it is given', () => {
    const url = tableUrl('/apis/example.com/v1alpha1/persons', {
      labelSelector: ' team=engines ',
      fieldSelector: 'spec.name=ada',
      sort: '',
      limit: 20,
      continueToken: 'abc',
    });
    const params = new URL(url, 'http://x').searchParams;
    expect(params.get('limit')).toBe('20');
    expect(params.get('continue')).toBe('abc');
    expect(params.get('labelSelector')).toBe('team=engines');
    expect(params.get('fieldSelector')).toBe('spec.name=ada');
    expect(params.has('sort')).toBe(false);
  });

  it('shows cells as text', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(3)).toBe('3');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
  });
});

describe('watchUrl', () => {
  it('uses ws: or wss: as the page does, with only the options given', () => {
    expect(
      watchUrl('/api/v1alpha1/roles', { resourceVersion: '5' }, { protocol: 'https:', host: 'h:1' } as Location),
    ).toBe('wss://h:1/api/v1alpha1/roles?resourceVersion=5');
    expect(watchUrl('/x', {}, { protocol: 'http:', host: 'h' } as Location)).toBe('ws://h/x');
  });
});
