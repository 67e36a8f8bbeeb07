import yaml from 'js-yaml';
import { badRequest, StatusError } from '../api/errors';
import { assertWithinLimits, MAX_VALUES, tooManyFields } from './json-limits';

/**
 * Parses a YAML body (a create or update body, a server-side apply patch): one YAML document (JSON is YAML too), read
 * with YAML 1.2's core schema (no timestamps, binary or merge keys: `yes` stays
 * a string). YAML aliases may reuse a node, but a document that expands to far
 * more nodes than its text holds (a "billion laughs" bomb) is refused before
 * anything walks or copies it; the result shares no node between two places.
 *
 * With `maxFields`, a document of more fields (object keys plus array elements) is refused while it is parsed:
 * every field is at least one node and at most two (a key and its value), so the parse stops after
 * `2 × maxFields + 1` nodes; the walk after it counts exactly (and aliases expanded).
 *
 * @throws StatusError 400 for invalid YAML, several documents, excessive aliasing,
 *   or a document nested deeper than `assertWithinLimits` allows; 413 for more than `maxFields` fields
 */
export function parseYamlDocument(text: string, what = 'the body', maxFields = Infinity): unknown {
  let docs: unknown[];
  let nodes = 0;
  const listener = (event: string) => {
    if (event === 'close' && ++nodes > 2 * maxFields + 1) throw tooManyFields(maxFields);
  };
  try {
    docs = yaml.loadAll(text, undefined, { schema: yaml.CORE_SCHEMA, listener });
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw badRequest(`${what} is not valid YAML: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`);
  }
  const present = docs.filter((d) => d !== null && d !== undefined);
  if (present.length !== 1) throw badRequest(`${what} must hold one YAML document, not ${present.length}`);
  // Every value a YAML text spells out takes at least one character of it; more is aliasing.
  assertWithinLimits(present[0], { maxValues: Math.min(MAX_VALUES, text.length + 1000), maxFields });
  // A JSON round trip gives every alias its own copy: nothing in the result is shared.
  return JSON.parse(JSON.stringify(present[0])) as unknown;
}
