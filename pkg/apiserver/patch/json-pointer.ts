import { badRequest } from '../../api/errors';

/**
 * RFC 6901 JSON pointers: `""` is the whole document, `/a/b` the member `b` of
 * member `a`; `~1` stands for `/` and `~0` for `~` inside a token.
 */

/**
 * The unescaped tokens of a pointer.
 * @throws StatusError 400 when the pointer neither is empty nor starts with `/`, or has a `~` not followed by 0 or 1
 * @example parsePointer('/a~1b/~0c') → ['a/b', '~c']
 */
export function parsePointer(pointer: string, what = 'path'): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw badRequest(`the ${what} "${pointer}" is not a JSON pointer: it must be empty or start with "/"`);
  if (/~([^01]|$)/.test(pointer))
    throw badRequest(`the ${what} "${pointer}" is not a JSON pointer: "~" must be followed by 0 or 1`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The array index a token names, `'-'` for "after the last element", or
 * `undefined` when the token is no valid index (`01`, `1.5`, `x`).
 */
export function arrayIndex(token: string): number | '-' | undefined {
  if (token === '-') return '-';
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

/**
 * A pointer as a Kubernetes field path, for error causes: `/spec/tags/2` → `spec.tags[2]`.
 * Tokens that look like indices are shown as indices.
 */
export function pointerFieldPath(tokens: readonly string[]): string {
  let out = '';
  for (const token of tokens) {
    if (arrayIndex(token) !== undefined) out += `[${token}]`;
    else out += out === '' ? token : `.${token}`;
  }
  return out;
}
