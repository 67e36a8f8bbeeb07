import { badRequest } from '../api/errors';

/**
 * How deep a decoded body may nest. JSON.parse accepts a few thousand levels but
 * structuredClone and recursive walks overflow the stack near 2,000; no real
 * object comes close to this limit.
 */
export const MAX_NESTING_DEPTH = 512;

/**
 * How many values (objects, arrays, scalars) a decoded body may hold, counting a
 * value reached twice (a YAML alias) twice. More than a 3 MiB JSON body can spell
 * out, far less than an alias "bomb" expands to.
 */
export const MAX_VALUES = 4_000_000;

/** Limits for {@link assertWithinLimits}. */
export interface ShapeLimits {
  maxDepth?: number;
  maxValues?: number;
}

/**
 * Refuses a value nested deeper than `maxDepth` objects/arrays, or holding more
 * than `maxValues` values once aliases are expanded. Walks without recursion and
 * stops at the first excess, so that the check itself can neither overflow nor
 * run away.
 *
 * @throws StatusError 400 naming the limit
 */
export function assertWithinLimits(
  value: unknown,
  { maxDepth = MAX_NESTING_DEPTH, maxValues = MAX_VALUES }: ShapeLimits = {},
): void {
  const stack: [unknown, number][] = [[value, 0]];
  let count = 0;
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (++count > maxValues) throw badRequest(`the object holds more than ${maxValues} values (YAML aliases expanded)`);
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) throw badRequest(`the object is nested more than ${maxDepth} levels deep`);
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
}
