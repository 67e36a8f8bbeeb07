import type { RegExpEngine } from 'ajv/dist/types';
import RE2 from 're2';

/**
 * The regular expression engine of schema `pattern`s: RE2, as Kubernetes uses (Go's `regexp`). It matches in time
 * linear in the input whatever the pattern, so no value can make validation backtrack for seconds; in exchange it
 * has no lookaround and no backreferences, and a pattern that uses them does not compile.
 * `code` is what ajv would write into standalone validation code (never generated here).
 */
export const linearRegExp: RegExpEngine = Object.assign((pattern: string, flags: string) => new RE2(pattern, flags), {
  code: 'new RE2',
});

/**
 * Why RE2 cannot compile `pattern` (`invalid perl operator: (?=`), or undefined when it can.
 * @example patternProblem('^(a+)+$') // → undefined
 * @example patternProblem('^(?=a)') // → 'invalid perl operator: (?='
 */
export function patternProblem(pattern: string): string | undefined {
  try {
    linearRegExp(pattern, 'u');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
