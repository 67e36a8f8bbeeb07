import { hasOwn } from '../../util/own';

/**
 * Kubernetes field paths (`spec.tags[2]`, `spec.otherPerson.spec.name`): how
 * validation causes and unknown-field warnings name a place in an object.
 */

/** One step of a path: a property name or an array index. */
export type PathSegment = string | number;

/**
 * Joins segments the way Kubernetes prints field paths: names with `.`, indices in brackets.
 * @example formatFieldPath(['spec', 'tags', 2]) === 'spec.tags[2]'
 */
export function formatFieldPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/**
 * The unescaped segments of an RFC 6901 JSON pointer (`~1` is `/`, `~0` is `~`).
 * @example pointerSegments('/spec/a~1b') → ['spec', 'a/b']
 */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The field path of a JSON pointer into `data`: a segment is an index where
 * `data` holds an array at that point, a name everywhere else.
 * @example fieldPathOfPointer('/spec/tags/2', {spec: {tags: ['a', 'b', 'c']}}) === 'spec.tags[2]'
 */
export function fieldPathOfPointer(pointer: string, data: unknown): string {
  return formatFieldPath(pointerPathSegments(pointer, data));
}

/** As {@link fieldPathOfPointer}, but the segments, for callers that extend the path. */
export function pointerPathSegments(pointer: string, data: unknown): PathSegment[] {
  const segments: PathSegment[] = [];
  let current: unknown = data;
  for (const name of pointerSegments(pointer)) {
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(name)) {
      const index = Number(name);
      segments.push(index);
      current = current[index];
    } else {
      segments.push(name);
      current =
        typeof current === 'object' && current !== null && hasOwn(current, name)
          ? (current as Record<string, unknown>)[name]
          : undefined;
    }
  }
  return segments;
}
