import { assertWithinLimits } from '../../util/json-limits';
import { formatFieldPath, type PathSegment } from './field-path';
import { isPlainObject } from '../../api/plain-object';
import { SCHEMA_LIST_KEYWORDS, type OpenApiSchema } from './openapi-schema';
import { hasOwn } from '../../util/own';
import { PLATFORM_FIELDS } from './object-schema';

/** An object with the fields its schema does not declare removed, and where they were. */
export interface PruneResult<T> {
  /** A new object; the input is not changed. */
  object: T;
  /** Field paths of what was removed, in document order, e.g. `['spec.foo', 'spec.items[0].bar']`. */
  unknownFields: string[];
}

/**
 * Removes every field the schema does not declare, as Kubernetes prunes custom
 * resources. A field is declared by `properties` (of the node itself or of any
 * `allOf`/`anyOf`/`oneOf` branch) or by an `additionalProperties` schema, whose
 * entries are then pruned against it. Nothing is removed under a node with
 * `x-kubernetes-preserve-unknown-fields: true` or `additionalProperties: true`
 * (though declared fields there are still pruned inside). An embedded resource
 * has the top level's `apiVersion`, `kind` and `metadata` (PLATFORM_FIELDS)
 * without declaring them; `$ref: "#"` stands for `root`, whose top level declares
 * them, so a nested whole object has them too. Either way `metadata` keeps only
 * Kubernetes' ObjectMeta fields, as Kubernetes prunes it. Array elements are
 * pruned against `items`; an array without `items` is kept as is. Values of the
 * wrong type are left for validation to report.
 *
 * @param root the normalised object schema (see `objectSchema`)
 * @throws StatusError 400 for an object beyond the limits of `assertWithinLimits`
 *   (nested too deep, or an alias bomb a YAML body expanded into)
 */
export function pruneUnknownFields<T>(root: OpenApiSchema, object: T): PruneResult<T> {
  assertWithinLimits(object);
  const copy = structuredClone(object);
  const unknownFields: string[] = [];
  pruneInPlace(copy, [root], [], { root, unknownFields });
  return { object: copy, unknownFields };
}

interface PruneContext {
  root: OpenApiSchema;
  unknownFields: string[];
}

function pruneInPlace(value: unknown, nodes: readonly OpenApiSchema[], path: PathSegment[], ctx: PruneContext): void {
  const schemas = expand(nodes, ctx.root);
  if (Array.isArray(value)) {
    const items = schemas.flatMap((s) => (s.items ? [s.items] : []));
    if (items.length > 0) value.forEach((element, i) => pruneInPlace(element, items, [...path, i], ctx));
    return;
  }
  if (!isPlainObject(value)) return;
  const keepAll = schemas.some(
    (s) => s['x-kubernetes-preserve-unknown-fields'] === true || s.additionalProperties === true,
  );
  const embedded = schemas.some((s) => s['x-kubernetes-embedded-resource'] === true);
  const additional = schemas.flatMap((s) => (isPlainObject(s.additionalProperties) ? [s.additionalProperties] : []));
  for (const key of Object.keys(value)) {
    const declared = schemas.flatMap((s) => (s.properties && hasOwn(s.properties, key) ? [s.properties[key]] : []));
    // An embedded resource has the top level's apiVersion, kind and metadata without declaring them.
    const implicit = embedded && hasOwn(PLATFORM_FIELDS, key) ? [PLATFORM_FIELDS[key]] : additional;
    const childSchemas = declared.length > 0 ? declared : implicit;
    if (childSchemas.length > 0) {
      pruneInPlace(value[key], childSchemas, [...path, key], ctx);
    } else if (!keepAll) {
      delete value[key];
      ctx.unknownFields.push(formatFieldPath([...path, key]));
    }
  }
}

/** The nodes with `$ref: "#"` resolved to the root and the branches of `allOf`/`anyOf`/`oneOf` added. */
function expand(nodes: readonly OpenApiSchema[], root: OpenApiSchema): OpenApiSchema[] {
  const seen = new Set<OpenApiSchema>();
  const visit = (node: OpenApiSchema) => {
    if (seen.has(node)) return;
    seen.add(node);
    if (node.$ref === '#') visit(root);
    for (const keyword of SCHEMA_LIST_KEYWORDS) node[keyword]?.forEach(visit);
  };
  nodes.forEach(visit);
  return [...seen];
}
