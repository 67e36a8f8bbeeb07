import { describe, expect, it } from 'vitest';
import { auditQuery, lineSplitter, NO_FILTER } from './audit';

describe('the audit log client', () => {
  it('puts only the filters that are set in the query', () => {
    expect(auditQuery(NO_FILTER)).toBe('');
    expect(auditQuery({ ...NO_FILTER, user: 'ada', decision: 'deny' }, { limit: '50' })).toBe(
      '?user=ada&decision=deny&limit=50',
    );
  });

  it('hands on whole lines only, however the stream is cut', () => {
    const lines: string[] = [];
    const split = lineSplitter((line) => lines.push(line));
    split('{"a":');
    split('1}\n{"b"');
    expect(lines).toEqual(['{"a":1}']);
    split(':2}\n\n');
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });
});
