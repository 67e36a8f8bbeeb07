import { describe, expect, it } from 'vitest';
import { selectorParts, withoutPart } from './selectors';

describe('selectorParts', () => {
  it('splits at commas outside parentheses and trims', () => {
    expect(selectorParts(' team=engines, tier in (gold,silver),!beta ')).toEqual([
      'team=engines',
      'tier in (gold,silver)',
      '!beta',
    ]);
    expect(selectorParts('')).toEqual([]);
  });

  it('removes one requirement and keeps the others as a selector', () => {
    expect(withoutPart('a=1,b in (x,y),c!=2', 'b in (x,y)')).toBe('a=1,c!=2');
  });
});
