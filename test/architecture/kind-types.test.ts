import { join } from 'node:path';
import ts from 'typescript';
import { LEASE_KIND } from '../../pkg/registry/builtin/lease';
import type { JsonSchema, Model } from '../../pkg/registry/model';
import { MODEL_KIND } from '../../pkg/registry/models/model-kind';
import { ROLE_BINDING_KIND } from '../../pkg/registry/security/role-binding-kind';
import { ROLE_KIND } from '../../pkg/registry/security/role-kind';
import { TOKEN_KIND } from '../../pkg/registry/security/token-kind';
import { PLUGIN_KIND } from '../../pkg/plugin/plugin-kind';

// Each built-in kind's JSON Schema (what the apiserver admits) and the TypeScript types code reads its objects
// through are written separately. This test reads the types with the compiler and walks them beside the schema:
// every typed field is in the schema with the same JSON type, a field the type says is always there is required
// by the schema, and a complete type (the kind's own) covers every field the schema has.

const root = join(__dirname, '..', '..');

interface TypedKind {
  /** The type, e.g. `Role` in `pkg/auth/rbac/types.ts` (exported or not). */
  file: string;
  type: string;
  kind: Model;
  /** Where in the object the type sits: the whole object, or its `spec`. */
  at: 'object' | 'spec';
  /** The kind's own type, which should name every field; a reader's view names only what it reads. */
  complete: boolean;
  /** Fields the schema lets a client leave out that the kind's store hooks always write, so stored objects have them. */
  filled?: string[];
}

const KINDS: TypedKind[] = [
  { file: 'pkg/auth/rbac/types.ts', type: 'Role', kind: ROLE_KIND, at: 'object', complete: true },
  {
    file: 'pkg/auth/rbac/types.ts',
    type: 'RoleBinding',
    kind: ROLE_BINDING_KIND,
    at: 'object',
    complete: true,
    // roleBindingHooks stores `roleRef` and `subjects` in their normal form: `apiGroup: ''`, `subjects: []`.
    filled: ['roleRef.apiGroup', 'subjects', 'subjects[].apiGroup'],
  },
  { file: 'pkg/registry/security/token-kind.ts', type: 'TokenSpec', kind: TOKEN_KIND, at: 'spec', complete: true },
  { file: 'pkg/controller/lease-model.ts', type: 'LeaseSpec', kind: LEASE_KIND, at: 'spec', complete: true },
  { file: 'pkg/registry/models/model-object.ts', type: 'ModelSpec', kind: MODEL_KIND, at: 'spec', complete: true },
  { file: 'controllers/gc/resources.ts', type: 'ModelSpec', kind: MODEL_KIND, at: 'spec', complete: false },
  { file: 'controllers/plugins/plugins.ts', type: 'Plugin', kind: PLUGIN_KIND, at: 'object', complete: false },
];

const program = ts.createProgram(
  KINDS.map((k) => join(root, k.file)),
  { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, noEmit: true, skipLibCheck: true },
);
const checker = program.getTypeChecker();
const API_OBJECT_FILE = join(root, 'pkg/api/object.ts');

function declaredType(file: string, name: string): ts.Type {
  const source = program.getSourceFile(join(root, file));
  const node = source?.statements.find(
    (s): s is ts.InterfaceDeclaration | ts.TypeAliasDeclaration =>
      (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name,
  );
  if (!node) throw new Error(`${file} declares no type ${name}`);
  return checker.getTypeAtLocation(node.name);
}

/** The properties a type declares itself: those `ApiObject` gives every object (metadata, kind…) are left out. */
const ownProperties = (type: ts.Type) =>
  checker
    .getPropertiesOfType(type)
    .filter((p) => !(p.declarations ?? []).every((d) => d.getSourceFile().fileName === API_OBJECT_FILE));

const isOptional = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Optional) !== 0;

const flagsOf = (type: ts.Type): ts.TypeFlags[] => (type.isUnion() ? type.types.map((t) => t.flags) : [type.flags]);

const isAny = (type: ts.Type) => (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0;

/** How strictly a type is compared: see `TypedKind`. */
interface Rules {
  complete: boolean;
  filled: ReadonlySet<string>;
}

/** What is wrong between a TypeScript type and the schema at `path`; empty when they agree. */
function compare(type: ts.Type, schema: JsonSchema | undefined, path: string, rules: Rules): string[] {
  if (schema === undefined) return [`${path}: typed, but not in the schema`];
  const t = checker.getNonNullableType(type);
  if (isAny(t)) return [];
  switch (schema.type) {
    case 'string':
      return compareString(t, schema, path);
    case 'integer':
    case 'number':
      return sameKind(t, ts.TypeFlags.NumberLike, schema.type, path);
    case 'boolean':
      return sameKind(t, ts.TypeFlags.BooleanLike, 'boolean', path);
    case 'array':
      if (!checker.isArrayType(t)) return [`${path}: the schema says array, the type ${checker.typeToString(t)}`];
      return compare(
        checker.getTypeArguments(t as ts.TypeReference)[0],
        schema.items as JsonSchema,
        `${path}[]`,
        rules,
      );
    case 'object':
      return compareObject(t, schema, path, rules);
    default:
      return [`${path}: the schema gives no type`];
  }
}

function sameKind(type: ts.Type, flag: ts.TypeFlags, schemaType: string, path: string): string[] {
  const every = flagsOf(type).every((f) => (f & flag) !== 0);
  return every ? [] : [`${path}: the schema says ${schemaType}, the type ${checker.typeToString(type)}`];
}

/** A string, or string literals the schema's enum allows. */
function compareString(type: ts.Type, schema: JsonSchema, path: string): string[] {
  const wrong = sameKind(type, ts.TypeFlags.StringLike, 'string', path);
  if (wrong.length) return wrong;
  const allowed = schema.enum as string[] | undefined;
  const literals = (type.isUnion() ? type.types : [type]).filter((m) => m.isStringLiteral()).map((m) => m.value);
  const stray = literals.filter((v) => allowed !== undefined && !allowed.includes(v));
  return stray.length ? [`${path}: the type allows ${stray.join(', ')}, which the schema's enum does not`] : [];
}

function compareObject(type: ts.Type, schema: JsonSchema, path: string, rules: Rules): string[] {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const open = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (properties === undefined) return open ? [] : [`${path}: the schema names no fields and keeps none`];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const typed = ownProperties(type);
  const problems = typed.flatMap((property) => {
    const field = path ? `${path}.${property.name}` : property.name;
    if (property.name in properties) return compareField(property, properties[property.name], required, field, rules);
    return open ? [] : [`${field}: typed, but not in the schema`];
  });
  if (!rules.complete) return problems;
  const names = new Set(typed.map((p) => p.name));
  const untyped = Object.keys(properties).filter((name) => !names.has(name));
  return [...problems, ...untyped.map((name) => `${path ? `${path}.` : ''}${name}: in the schema, but not typed`)];
}

function compareField(
  property: ts.Symbol,
  schema: JsonSchema,
  required: ReadonlySet<string>,
  field: string,
  rules: Rules,
): string[] {
  const problems: string[] = [];
  const optional = isOptional(property);
  if (!optional && !required.has(property.name) && !rules.filled.has(field))
    problems.push(`${field}: always there in the type, optional in the schema`);
  if (rules.complete && optional && required.has(property.name))
    problems.push(`${field}: required by the schema, optional in the type`);
  return [...problems, ...compare(checker.getTypeOfSymbol(property), schema, field, rules)];
}

describe('built-in kinds: TypeScript types against JSON Schemas', () => {
  it.each(KINDS.map((k) => [`${k.type} (${k.file})`, k] as const))('%s agrees with its schema', (_name, k) => {
    const schema = k.kind.schema as JsonSchema;
    const at = k.at === 'spec' ? (schema.properties as Record<string, JsonSchema>).spec : schema;
    expect(
      compare(declaredType(k.file, k.type), at, k.at === 'spec' ? 'spec' : '', {
        complete: k.complete,
        filled: new Set(k.filled),
      }),
    ).toEqual([]);
  });
});
