import type { ApiObject } from '../api/object';
import type { IndexSpec, IndexValue } from '../storage/indexes';
import { isPlainObject } from '../api/plain-object';

/**
 * An index function from a declarative path, as a Model object declares its
 * indexes: `spec.name` indexes one value, `spec.tags[*]` every element of an
 * array, `spec.authors[*].name` a field of every element. Numbers and
 * booleans index as their JSON text; objects, arrays and null are skipped.
 */
export function indexFuncFromPath(path: string): IndexSpec['indexFunc'] {
  const steps = parsePath(path);
  return (object: ApiObject): IndexValue => {
    let current: unknown[] = [object];
    for (const step of steps) {
      const next: unknown[] = [];
      for (const value of current) {
        if (step === '[*]') {
          if (Array.isArray(value)) next.push(...value);
        } else if (isPlainObject(value)) {
          const field = value[step];
          if (field !== undefined) next.push(field);
        }
      }
      current = next;
    }
    return current.flatMap(scalarText);
  };
}

/** Whether a path is one `indexFuncFromPath` understands, e.g. `spec.tags[*]`. */
export function isValidIndexPath(path: string): boolean {
  try {
    parsePath(path);
    return true;
  } catch {
    return false;
  }
}

function parsePath(path: string): string[] {
  if (!/^[A-Za-z_$][\w$-]*(\[\*\])?(\.[A-Za-z_$][\w$-]*(\[\*\])?)*$/.test(path)) {
    throw new Error(`index path "${path}" must be dot-separated field names, each optionally followed by [*]`);
  }
  return path.split('.').flatMap((part) => (part.endsWith('[*]') ? [part.slice(0, -3), '[*]'] : [part]));
}

function scalarText(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [JSON.stringify(value)];
  return [];
}
