import { isValidRange, parseVersion, satisfies } from './semver';

describe('semver', () => {
  it('parses versions and refuses what is not semver', () => {
    expect(parseVersion('1.2.3')).toEqual({ major: 1, minor: 2, patch: 3 });
    expect(parseVersion('1.2.3-rc.1')).toEqual({ major: 1, minor: 2, patch: 3 });
    expect(parseVersion('1.2')).toBeUndefined();
    expect(parseVersion('01.2.3')).toBeUndefined();
  });

  it.each([
    ['0.1.0', '*', true],
    ['0.1.0', '0.1.0', true],
    ['0.1.1', '0.1.0', false],
    ['0.1.0', '>=0.1.0', true],
    ['0.0.9', '>=0.1.0', false],
    ['1.4.0', '^1.2.0', true],
    ['2.0.0', '^1.2.0', false],
    ['0.2.9', '^0.2.1', true],
    ['0.3.0', '^0.2.1', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.5.0', '>=1.0.0 <2.0.0', true],
    ['2.0.0', '>=1.0.0 <2.0.0', false],
  ])('%s against %s → %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('refuses ranges it does not understand', () => {
    expect(isValidRange('>=1.0')).toBe(false);
    expect(isValidRange('1.x || 2.x')).toBe(false);
    expect(isValidRange('')).toBe(false);
    expect(satisfies('1.0.0', 'latest')).toBe(false);
  });
});
