import { formatFieldPath, type PathSegment } from './field-path';
import { isPlainObject } from '../../api/plain-object';
import { SCHEMA_LIST_KEYWORDS, SUPPORTED_KEYWORDS, type OpenApiSchema } from './openapi-schema';
import { patternProblem } from './linear-regexp';
import { setOwn } from '../../util/own';
import { OBJECT_META_FIELDS } from '../../api/object';

/** One thing wrong with a model's schema, e.g. `{path: 'properties.spec.type', message: 'unsupported keyword "if"'}`. */
export interface SchemaProblem {
  /** Where in the schema, as a field path (`properties.spec.properties.age.maximum`); `''` is the schema itself. */
  path: string;
  message: string;
}

/**
 * The fields the platform declares on every object's top level: `apiVersion` and
 * `kind` are strings; `metadata` declares Kubernetes' ObjectMeta fields, each kept
 * as given (metadata has its own validation elsewhere), so that any other field
 * of it is pruned. They replace whatever a model's schema says about them.
 */
export const PLATFORM_FIELDS: Readonly<Record<string, OpenApiSchema>> = {
  apiVersion: { type: 'string' },
  kind: { type: 'string' },
  metadata: {
    type: 'object',
    properties: Object.fromEntries(
      OBJECT_META_FIELDS.map((field) => [field, { 'x-kubernetes-preserve-unknown-fields': true }]),
    ),
  },
};

/**
 * A model's schema as validation and pruning use it: a new schema (the input is
 * not changed) with the platform's top-level fields added, OpenAPI 3.0's boolean
 * `exclusiveMinimum`/`exclusiveMaximum` turned into JSON Schema's numeric form,
 * `null` added to the `enum` of a `nullable` node (Kubernetes accepts null there),
 * and other `x-` vendor extensions dropped. Every problem found is listed, not just
 * the first; the schema is only usable when `problems` is empty.
 *
 * @example objectSchema({properties: {spec: {type: 'object'}}}).schema.properties.kind
 *   // → {type: 'string'}
 */
export function objectSchema(modelSchema: unknown): { schema: OpenApiSchema; problems: SchemaProblem[] } {
  const problems: SchemaProblem[] = [];
  if (!isPlainObject(modelSchema)) {
    return { schema: {}, problems: [{ path: '', message: 'the schema must be an object' }] };
  }
  const schema = normaliseNode(modelSchema, [], { problems, atRoot: true });
  if (schema.type === undefined) schema.type = 'object';
  if (schema.type !== 'object') {
    problems.push({ path: 'type', message: 'the schema of a whole object must have type "object"' });
  }
  const properties: Record<string, OpenApiSchema> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) setOwn(properties, name, property);
  for (const [name, property] of Object.entries(PLATFORM_FIELDS)) setOwn(properties, name, property);
  schema.properties = properties;
  return { schema, problems };
}

interface WalkState {
  problems: SchemaProblem[];
  /**
   * True while no keyword that descends into the data (`properties`, `items`,
   * `additionalProperties`) has been passed: a `$ref: "#"` here would refer to
   * the schema it sits in and validation would never end.
   */
  atRoot: boolean;
}

/** What a keyword's normaliser may use: the walk's state, a way to report a problem and to normalise a subschema. */
interface NodeWalk {
  state: WalkState;
  problem(at: PathSegment[], message: string): void;
  child(value: unknown, at: PathSegment[], atRoot: boolean): OpenApiSchema;
}

/** A keyword's value rewritten for the compiled schema, or SKIP to leave the keyword out (after a problem). */
type KeywordNormaliser = (value: unknown, at: PathSegment[], walk: NodeWalk) => unknown;
const SKIP = Symbol('skip');

const subschemaList: KeywordNormaliser = (value, at, walk) => {
  if (!Array.isArray(value)) {
    walk.problem(at, 'must be a list of schemas');
    return SKIP;
  }
  return value.map((sub, i) => walk.child(sub, [...at, i], walk.state.atRoot));
};

/** The keywords whose values are (or hold) schemas, and `$ref`; any other supported keyword is kept as it is. */
const KEYWORD_NORMALISERS = new Map<string, KeywordNormaliser>([
  [
    'properties',
    (value, at, walk) => {
      if (!isPlainObject(value)) {
        walk.problem(at, 'must be an object of schemas');
        return SKIP;
      }
      const properties: Record<string, OpenApiSchema> = {};
      for (const [name, sub] of Object.entries(value)) setOwn(properties, name, walk.child(sub, [...at, name], false));
      return properties;
    },
  ],
  ['additionalProperties', (value, at, walk) => (typeof value === 'boolean' ? value : walk.child(value, at, false))],
  [
    'items',
    (value, at, walk) => {
      if (!Array.isArray(value)) return walk.child(value, at, false);
      walk.problem(at, 'must be one schema (OpenAPI v3 has no tuple form)');
      return SKIP;
    },
  ],
  ['not', (value, at, walk) => walk.child(value, at, walk.state.atRoot)],
  [
    'pattern',
    (value, at, walk) => {
      // Not a string: the meta-schema says so.
      const problem = typeof value === 'string' ? patternProblem(value) : undefined;
      if (problem === undefined) return value;
      walk.problem(at, `must be a valid RE2 regular expression, but isn't: ${problem}`);
      return SKIP;
    },
  ],
  ...SCHEMA_LIST_KEYWORDS.map((key): [string, KeywordNormaliser] => [key, subschemaList]),
  [
    '$ref',
    (value, at, walk) => {
      if (value !== '#')
        walk.problem(at, `only "#" (the model's whole object) is supported, not ${JSON.stringify(value)}`);
      else if (walk.state.atRoot)
        walk.problem(at, '"#" here refers to the schema it is part of: validation would never end');
      return '#';
    },
  ],
]);

/** An `x-` keyword other than Kubernetes' own, which validation ignores. */
const isVendorExtension = (key: string): boolean => key.startsWith('x-') && !key.startsWith('x-kubernetes-');

function normaliseNode(node: Record<string, unknown>, path: PathSegment[], state: WalkState): OpenApiSchema {
  const out: OpenApiSchema = {};
  const walk: NodeWalk = {
    state,
    problem: (at, message) => state.problems.push({ path: formatFieldPath(at), message }),
    child: (value, at, atRoot) => {
      if (isPlainObject(value)) return normaliseNode(value, at, { ...state, atRoot });
      walk.problem(at, 'must be a schema object');
      return {};
    },
  };
  for (const [key, value] of Object.entries(node)) {
    const at = [...path, key];
    if (isVendorExtension(key)) continue;
    if (!SUPPORTED_KEYWORDS.has(key)) {
      walk.problem(at, `unsupported keyword "${key}"`);
      continue;
    }
    const normalised = KEYWORD_NORMALISERS.get(key)?.(value, at, walk) ?? value;
    if (normalised !== SKIP) setOwn(out, key, normalised);
  }
  exclusiveBound(out, 'exclusiveMinimum', 'minimum', path, walk.problem);
  exclusiveBound(out, 'exclusiveMaximum', 'maximum', path, walk.problem);
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

/** OpenAPI 3.0's `exclusiveMinimum: true` + `minimum: n` is JSON Schema's `exclusiveMinimum: n`. */
function exclusiveBound(
  node: OpenApiSchema,
  flag: 'exclusiveMinimum' | 'exclusiveMaximum',
  bound: 'minimum' | 'maximum',
  path: PathSegment[],
  problem: (at: PathSegment[], message: string) => void,
): void {
  if (node[flag] === false) {
    delete node[flag];
  } else if (node[flag] === true) {
    if (typeof node[bound] !== 'number') {
      problem([...path, flag], `needs a numeric "${bound}"`);
      delete node[flag];
      return;
    }
    node[flag] = node[bound];
    delete node[bound];
  }
}
