import { describe, expect, it } from 'vitest';
import { grants } from './grants';

describe('grants', () => {
  const cases: [string[], string[] | undefined, boolean][] = [
    [[], [], true],
    [[], undefined, true],
    [['uc:posts:contribute'], ['uc:posts:contribute', 'system:posts:view'], true],
    [['system:posts:view'], ['uc:posts:contribute', 'system:posts:view'], true],
    [['*'], ['system:users:view'], true],
    [['uc:posts:contribute'], ['system:users:view'], false],
    [[], ['system:users:view'], false],
    [['system:users'], ['system:users:view'], false],
  ];
  it.each(cases)('granted %j, required %j → %s', (granted, required, expected) => {
    expect(grants(granted, required)).toBe(expected);
  });
});
