import { type Command, InvalidArgumentError } from 'commander';

/**
 * The command-line helpers every benchmark parses its flags with: integer
 * parsers that name the bad value, and one way to run a `Command`.
 */

/**
 * A parser of integers ≥ `min` (underscores allowed as separators, e.g. `100_000`).
 *
 * @example new Command().option('--ops <n>', 'writes per round', integerAtLeast(32), 20_000)
 */
export function integerAtLeast(min: number): (text: string) => number {
  return (text) => {
    const value = Number(text.replace(/_/g, ''));
    if (text.trim() === '' || !Number.isSafeInteger(value) || value < min) {
      throw new InvalidArgumentError(`expected an integer ≥ ${min}, not "${text}"`);
    }
    return value;
  };
}

/** A parser of integers ≥ 1. */
export const positiveInt = integerAtLeast(1);

/** A parser of integers ≥ 0. */
export const nonNegativeInt = integerAtLeast(0);

/**
 * A parser of a comma-separated list (blanks dropped), each item parsed by
 * `item`; an empty list is refused with `expected`.
 *
 * @example commaList(positiveInt, 'object counts such as 10000,100000')('100, 20') // [100, 20]
 */
export function commaList<T>(item: (text: string) => T, expected: string): (text: string) => T[] {
  return (text) => {
    const items = text
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map(item);
    if (items.length === 0) throw new InvalidArgumentError(`expected ${expected}`);
    return items;
  };
}

/**
 * Parses `argv` (the arguments after `node` and the script) with `program`.
 * Help and errors are printed by commander and thrown as a `CommanderError`,
 * which `runBench` turns into the exit code; nothing exits the process here.
 *
 * @example const { ops } = parseCommandLine<{ ops: number }>(program, process.argv.slice(2));
 */
export function parseCommandLine<T extends object>(program: Command, argv: readonly string[]): T {
  return program
    .exitOverride()
    .parse([...argv], { from: 'user' })
    .opts<T>();
}
