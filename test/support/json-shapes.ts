/** JSON values of awkward shapes, for tests of the limits on decoded bodies. */

/** `{a: {a: … {}}}`, `levels` objects deep. */
export function nested(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let current = root;
  for (let i = 1; i < levels; i++) {
    const next = {};
    current.a = next;
    current = next;
  }
  return root;
}

/** What a YAML alias bomb decodes to: `levels` arrays, each holding the previous one ten times. */
export function aliasBomb(levels: number): unknown[] {
  let node: unknown[] = ['x'];
  for (let i = 0; i < levels; i++) node = Array<unknown>(10).fill(node);
  return node;
}
