/** A parsed `major.minor.patch` version (a pre-release or build suffix is kept but not compared). */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
}

const VERSION = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** Parses `1.2.3` (also `v1.2.3`, `1.2.3-rc.1`); undefined when it is not semver. */
export function parseVersion(text: string): SemVer | undefined {
  const m = VERSION.exec(text.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : undefined;
}

const compare = (a: SemVer, b: SemVer): number => a.major - b.major || a.minor - b.minor || a.patch - b.patch;

/**
 * Whether `range` is one this checker understands: `*`, an exact version,
 * `>=x.y.z`, `>x.y.z`, `<=x.y.z`, `<x.y.z`, `^x.y.z`, `~x.y.z`, or several of
 * them separated by spaces (all must hold).
 */
export function isValidRange(range: string): boolean {
  return comparators(range) !== undefined;
}

/** Whether `version` satisfies `range` (see isValidRange); false for anything unparsable. */
export function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  const tests = comparators(range);
  return v !== undefined && tests !== undefined && tests.every((test) => test(v));
}

function comparators(range: string): ((v: SemVer) => boolean)[] | undefined {
  const parts = range.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return undefined;
  const tests: ((v: SemVer) => boolean)[] = [];
  for (const part of parts) {
    const test = comparator(part);
    if (!test) return undefined;
    tests.push(test);
  }
  return tests;
}

/** What each operator asks of `compare(version, base)` (and, for ^ and ~, of the ceiling). */
const OPERATORS: Record<string, (v: SemVer, base: SemVer) => boolean> = {
  '>=': (v, base) => compare(v, base) >= 0,
  '>': (v, base) => compare(v, base) > 0,
  '<=': (v, base) => compare(v, base) <= 0,
  '<': (v, base) => compare(v, base) < 0,
  '^': (v, base) => compare(v, base) >= 0 && compare(v, caretCeiling(base)) < 0,
  '~': (v, base) => compare(v, base) >= 0 && compare(v, { major: base.major, minor: base.minor + 1, patch: 0 }) < 0,
  '=': (v, base) => compare(v, base) === 0,
};

function comparator(part: string): ((v: SemVer) => boolean) | undefined {
  if (part === '*' || part === 'x') return () => true;
  const m = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(part);
  const base = m && parseVersion(m[2]);
  if (!m || !base) return undefined;
  const test = OPERATORS[m[1] ?? '='];
  return (v) => test(v, base);
}

/** `^1.2.3` < 2.0.0, `^0.2.3` < 0.3.0, `^0.0.3` < 0.0.4 (npm's rule: the first non-zero part is fixed). */
function caretCeiling(base: SemVer): SemVer {
  if (base.major > 0) return { major: base.major + 1, minor: 0, patch: 0 };
  if (base.minor > 0) return { major: 0, minor: base.minor + 1, patch: 0 };
  return { major: 0, minor: 0, patch: base.patch + 1 };
}
