import { badRequest, type StatusCause } from '../../api/errors';
import { jsonEqual } from '../../util/json-equal';
import { hasOwn, setOwn } from '../../util/own';
import { arrayIndex, parsePointer, pointerFieldPath } from './json-pointer';
import { isPlainObject } from '../../api/plain-object';

/** One RFC 6902 operation, checked: every member its `op` needs is there. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];

/**
 * Checks a decoded JSON patch document: an array of operations, each with a
 * known `op`, a `path` (and `from` for move/copy) that is a JSON pointer, and a
 * `value` member for add/replace/test (`null` is a value). Members an operation
 * does not use are ignored, as RFC 6902 says.
 *
 * @throws StatusError 400 naming the first malformed operation by its index
 */
export function decodeJsonPatch(document: unknown): JsonPatchOperation[] {
  if (!Array.isArray(document)) throw badRequest('a JSON patch must be an array of operations');
  return document.map(decodeOperation);
}

/** One operation of a JSON patch document, checked (see decodeJsonPatch). */
function decodeOperation(raw: unknown, i: number): JsonPatchOperation {
  const bad = (why: string) => badRequest(`JSON patch operation ${i} is malformed: ${why}`);
  if (!isPlainObject(raw)) throw bad('it must be an object');
  const operation = raw;
  const { op, path } = operation;
  if (typeof op !== 'string' || !OPS.includes(op)) throw bad(`"op" must be one of ${OPS.join(', ')}`);
  if (typeof path !== 'string') throw bad('"path" must be a string');
  parsePointer(path);
  if (op === 'move' || op === 'copy') return { op, from: fromMember(operation, op, bad), path };
  if (op === 'remove') return { op, path };
  if (!hasOwn(operation, 'value')) throw bad(`"value" is required for ${op}`);
  return { op: op as 'add' | 'replace' | 'test', path, value: operation.value };
}

/** The `from` pointer of a move or copy. */
function fromMember(operation: Record<string, unknown>, op: string, bad: (why: string) => Error): string {
  const { from } = operation;
  if (typeof from !== 'string') throw bad(`"from" must be a string for ${op}`);
  parsePointer(from, 'from');
  return from;
}

/**
 * A failed operation: the 422 cause names the operation's index and pointer,
 * and its field is where in the object it failed (`spec.tags[5]`).
 */
export class JsonPatchFailure extends Error {
  override readonly name = 'JsonPatchFailure';

  constructor(readonly statusCause: StatusCause) {
    super(statusCause.message);
  }
}

/**
 * Applies RFC 6902 operations in order, all or nothing: add, remove, replace,
 * move, copy, test; `-` appends to an array; a path `""` is the whole document.
 * Returns the patched document; `document` itself is not changed.
 *
 * @throws JsonPatchFailure when a path does not exist, an index is out of range,
 *   a `test` finds another value, or a move would put a value inside itself
 * @example applyJsonPatch({a: [1]}, [{op: 'add', path: '/a/-', value: 2}]) → {a: [1, 2]}
 */
export function applyJsonPatch(document: unknown, operations: readonly JsonPatchOperation[]): unknown {
  let doc = structuredClone(document);
  operations.forEach((operation, index) => {
    doc = applyOne(doc, operation, index);
  });
  return doc;
}

function applyOne(doc: unknown, operation: JsonPatchOperation, index: number): unknown {
  const path = parsePointer(operation.path);
  const fail = (at: string[], why: string): never => {
    const field = pointerFieldPath(at);
    throw new JsonPatchFailure({
      ...(field === '' ? {} : { field }),
      reason: 'FieldValueInvalid',
      message: `JSON patch operation ${index} (${operation.op} "${operation.path}"): ${why}`,
    });
  };
  switch (operation.op) {
    case 'add':
      return add(doc, path, structuredClone(operation.value), fail);
    case 'remove':
      return remove(doc, path, fail).doc;
    case 'replace':
      return replace(doc, path, structuredClone(operation.value), fail);
    case 'test':
      return test(doc, path, operation.value, fail);
    case 'copy':
      return add(doc, path, structuredClone(get(doc, parsePointer(operation.from), fail)), fail);
    case 'move':
      return move(doc, operation.from, path, fail);
  }
}

/** `test`: the document unchanged when the value at `path` equals `expected`. */
function test(doc: unknown, path: string[], expected: unknown, fail: Fail): unknown {
  if (!jsonEqual(get(doc, path, fail), expected)) fail(path, 'the value there is not the one the test expects');
  return doc;
}

/** `move`: a value moved to where it is stays (if it exists); a value cannot move into itself. */
function move(doc: unknown, fromPointer: string, path: string[], fail: Fail): unknown {
  const from = parsePointer(fromPointer);
  const startsPath = from.every((t, i) => t === path[i]);
  if (startsPath && from.length === path.length) {
    get(doc, from, fail);
    return doc;
  }
  if (startsPath && from.length < path.length) fail(path, `"${fromPointer}" cannot be moved into itself`);
  const removed = remove(doc, from, fail);
  return add(removed.doc, path, removed.value, fail);
}

type Fail = (at: string[], why: string) => never;

/** The value at `path`. */
function get(doc: unknown, path: string[], fail: Fail): unknown {
  let current = doc;
  path.forEach((token, i) => {
    current = child(current, token, path.slice(0, i + 1), fail);
  });
  return current;
}

function child(container: unknown, token: string, at: string[], fail: Fail): unknown {
  if (Array.isArray(container)) {
    const index = arrayIndex(token);
    if (index === undefined || index === '-' || index >= container.length) fail(at, 'the path does not exist');
    return container[index as number];
  }
  if (typeof container === 'object' && container !== null && hasOwn(container, token)) {
    return (container as Record<string, unknown>)[token];
  }
  return fail(at, 'the path does not exist');
}

/** The container a path's last token is in; the path must not be empty. */
function parentOf(doc: unknown, path: string[], fail: Fail): unknown {
  const parent = get(doc, path.slice(0, -1), fail);
  if (typeof parent !== 'object' || parent === null)
    fail(path.slice(0, -1), 'the value there is neither an object nor an array');
  return parent;
}

/** RFC 6902 `add`: sets a member, inserts into an array, or replaces the whole document. */
function add(doc: unknown, path: string[], value: unknown, fail: Fail): unknown {
  if (path.length === 0) return value;
  const parent = parentOf(doc, path, fail);
  const token = path[path.length - 1];
  if (Array.isArray(parent)) {
    const index = arrayIndex(token);
    if (index === undefined) fail(path, `"${token}" is not an array index`);
    if (index === '-') parent.push(value);
    else if ((index as number) > parent.length)
      fail(path, `index ${index} is out of range (the array has ${parent.length} elements)`);
    else parent.splice(index as number, 0, value);
  } else {
    setOwn(parent as Record<string, unknown>, token, value);
  }
  return doc;
}

/** RFC 6902 `replace`: the value at `path`, which must exist, becomes `value`. */
function replace(doc: unknown, path: string[], value: unknown, fail: Fail): unknown {
  if (path.length === 0) return value;
  get(doc, path, fail);
  const parent = parentOf(doc, path, fail);
  const token = path[path.length - 1];
  if (Array.isArray(parent)) parent[Number(token)] = value;
  else setOwn(parent as Record<string, unknown>, token, value);
  return doc;
}

/** RFC 6902 `remove`: the document without the value at `path`, and that value. */
function remove(doc: unknown, path: string[], fail: Fail): { doc: unknown; value: unknown } {
  if (path.length === 0) return fail(path, 'the whole document cannot be removed');
  const value = get(doc, path, fail);
  const parent = parentOf(doc, path, fail);
  const token = path[path.length - 1];
  if (Array.isArray(parent)) parent.splice(Number(token), 1);
  else delete (parent as Record<string, unknown>)[token];
  return { doc, value };
}
