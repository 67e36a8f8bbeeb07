import type { Command } from 'commander';
import { apiVersionOf } from '../client';
import { connect, type ConnectionFlags } from './connection';
import type { CliIo } from './io';
import { Discovery, resolveWithFieldPath } from './resources';

/** The part of an OpenAPI schema explain reads. */
export interface Schema {
  type?: string;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  allOf?: Schema[];
  $ref?: string;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

interface OpenApiDocument {
  components?: { schemas?: Record<string, Schema> };
}

/** `svcctl explain RESOURCE[.field.path] [--api-version GROUP/VERSION]`. */
export function registerExplain(program: Command, io: CliIo): void {
  program
    .command('explain')
    .description("Describes a resource type or one of its fields, from the server's OpenAPI documents")
    .argument(
      '<resource>',
      'a resource type, optionally <resource>.<group>, then optionally a field path: persons, persons.example.com.spec.age',
    )
    .option('--api-version <group/version>', 'the group and version to explain, when several serve the resource')
    .addHelpText(
      'after',
      `
Examples:
  svcctl explain persons
  svcctl explain person.spec.otherPerson
  svcctl explain persons.example.com.spec.age`,
    )
    .action(async (arg: string, flags: { apiVersion?: string }, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const discovered = await new Discovery(client).all();
      const candidates = flags.apiVersion ? discovered.filter((r) => apiVersionOf(r) === flags.apiVersion) : discovered;
      const { resource: res, path } = resolveWithFieldPath(candidates, arg);
      const documentPath =
        res.group === '' ? `/openapi/v3/api/${res.version}` : `/openapi/v3/apis/${res.group}/${res.version}`;
      const document = await client.request<OpenApiDocument>({ method: 'GET', path: documentPath });
      const schemas = document.components?.schemas ?? {};
      const root = Object.values(schemas).find((s) =>
        (s['x-kubernetes-group-version-kind'] ?? []).some(
          (g) => g.group === res.group && g.version === res.version && g.kind === res.kind,
        ),
      );
      if (!root) throw new Error(`the server's OpenAPI document has no schema for ${res.kind}`);
      io.stdout(explainSchema(root, schemas, path, { kind: res.kind, apiVersion: apiVersionOf(res) }));
    });
}

/** The text of `explain`: kind, version, the field (when a path is given), its description and its fields. */
export function explainSchema(
  root: Schema,
  schemas: Record<string, Schema>,
  path: string[],
  what: { kind: string; apiVersion: string },
): string {
  const schema = walk(root, schemas, path, what.kind);
  const lines = [`KIND:     ${what.kind}`, `VERSION:  ${what.apiVersion}`, ''];
  const last = path[path.length - 1];
  if (last) lines.push(`FIELD: ${last} <${typeOf(schema, schemas)}>`, '');
  lines.push('DESCRIPTION:', `  ${schema.description ?? '<empty>'}`, ...fieldLines(schema, schemas));
  return `${lines.join('\n')}\n`;
}

/**
 * The schema at `path` (through arrays' items). A field that does not exist is an error naming it (exit 1, as with
 * kubectl: the call was well formed, the server's schema says no).
 */
function walk(root: Schema, schemas: Record<string, Schema>, path: string[], kind: string): Schema {
  let schema = deref(root, schemas);
  for (const [i, field] of path.entries()) {
    const next = propertiesOf(schema, schemas)?.[field];
    if (!next) throw new Error(`field "${field}" does not exist in ${[kind, ...path.slice(0, i)].join('.')}`);
    schema = deref(next, schemas);
  }
  return schema;
}

/** An object's properties, or those of an array's items. */
const propertiesOf = (schema: Schema, schemas: Record<string, Schema>) =>
  schema.properties ?? (schema.items ? deref(schema.items, schemas).properties : undefined);

/** `FIELDS:` and a line per field (its type, whether required, its description); nothing without fields. */
function fieldLines(schema: Schema, schemas: Record<string, Schema>): string[] {
  const fields = propertiesOf(schema, schemas);
  if (!fields || Object.keys(fields).length === 0) return [];
  const required = new Set(schema.required ?? []);
  const lines = ['', 'FIELDS:'];
  for (const [name, field] of Object.entries(fields).sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`  ${name}\t<${typeOf(field, schemas)}>${required.has(name) ? ' -required-' : ''}`);
    const description = deref(field, schemas).description;
    if (description) lines.push(`    ${description}`);
  }
  return lines;
}

function deref(schema: Schema, schemas: Record<string, Schema>, depth = 0): Schema {
  const target = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
  if (!target || depth > 10) return schema;
  const found = schemas[target.replace('#/components/schemas/', '')];
  return found ? deref({ ...found, description: schema.description ?? found.description }, schemas, depth + 1) : schema;
}

function typeOf(schema: Schema, schemas: Record<string, Schema>): string {
  const resolved = deref(schema, schemas);
  if (resolved.type === 'array') return `[]${resolved.items ? typeOf(resolved.items, schemas) : 'Object'}`;
  return resolved.type ?? 'Object';
}
