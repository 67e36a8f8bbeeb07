import { badRequest, StatusError } from '../api/errors';
import { countJsonFields } from './json-field-count';

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

/**
 * How many fields (object keys plus array elements) one request body may hold. Each field costs the server work on
 * every step of a write (pruning, validation, index values, the stored copy); 10,000 is far beyond any object of the
 * platform's kinds or a plugin model's, and answers in milliseconds.
 */
export const MAX_BODY_FIELDS = 10_000;

/** Limits for {@link assertWithinLimits}. */
export interface ShapeLimits {
  maxDepth?: number;
  maxValues?: number;
  /** At most this many fields (object keys plus array elements); more is a 413. Default: no limit. */
  maxFields?: number;
}

/**
 * Refuses a value nested deeper than `maxDepth` objects/arrays, holding more
 * than `maxValues` values once aliases are expanded, or more than `maxFields`
 * fields. Walks without recursion and stops at the first excess, so that the
 * check itself can neither overflow nor run away.
 *
 * @throws StatusError 400 naming the depth or value limit; 413 naming the field limit
 */
export function assertWithinLimits(
  value: unknown,
  { maxDepth = MAX_NESTING_DEPTH, maxValues = MAX_VALUES, maxFields = Infinity }: ShapeLimits = {},
): void {
  const stack: [unknown, number][] = [[value, 0]];
  let count = 0;
  let fields = 0;
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (++count > maxValues) throw badRequest(`the object holds more than ${maxValues} values (YAML aliases expanded)`);
    const children = childrenOf(current, depth, maxDepth);
    fields += children.length;
    if (fields > maxFields) throw tooManyFields(maxFields);
    for (const child of children) stack.push([child, depth + 1]);
  }
}

/** The values an object or array at `depth` holds (none for a scalar); 400 when it is too deep to hold any. */
function childrenOf(value: unknown, depth: number, maxDepth: number): unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  if (depth >= maxDepth) throw badRequest(`the object is nested more than ${maxDepth} levels deep`);
  return Object.values(value);
}

/**
 * Refuses a JSON text of more than `maxFields` fields with 413, counted on the text before it is parsed: a body of
 * 150,000 fields costs one short scan, not a parse and a walk.
 */
export function assertJsonFieldCount(text: string, maxFields = MAX_BODY_FIELDS): void {
  if (countJsonFields(text, maxFields) > maxFields) throw tooManyFields(maxFields);
}

/** 413, as Kubernetes answers a request too large to store: the body as a whole is too much, no one field is wrong. */
export const tooManyFields = (maxFields: number): StatusError =>
  new StatusError(
    413,
    'RequestEntityTooLarge',
    `the request body holds more than ${maxFields} fields (object keys and array elements)`,
  );
