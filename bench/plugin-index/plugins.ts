import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The models compared: the same schema and the same two indexes (one unique), declared as paths, as index functions
 * that read a path (answered in the apiserver, ADR 0065), and as index functions that do more (run in the model's
 * isolate, ADR 0030; `String(…)` is such a call, and gives the same values here).
 */
export const MODELS = {
  paths: { group: 'paths.bench.example.com', plural: 'people' },
  pathFunctions: { group: 'path-functions.bench.example.com', plural: 'people' },
  isolateFunctions: { group: 'isolate-functions.bench.example.com', plural: 'people' },
} as const;
export type Variant = keyof typeof MODELS;
export const VARIANTS = Object.keys(MODELS) as Variant[];

const INDEXES: Record<Variant, string> = {
  paths: `(ix) => ix
    .add({ name: 'spec.name', path: 'spec.name' })
    .add({ name: 'spec.email', unique: true, path: 'spec.email' })`,
  pathFunctions: `(ix) => ix
    .add({ name: 'spec.name', indexFunc: (person) => person.spec.name })
    .add({ name: 'spec.email', unique: true, indexFunc: (person) => person.spec.email?.toLowerCase() })`,
  isolateFunctions: `(ix) => ix
    .add({ name: 'spec.name', indexFunc: (person) => String(person.spec.name) })
    .add({ name: 'spec.email', unique: true, indexFunc: (person) => String(person.spec.email).toLowerCase() })`,
};

/** Writes one plugin per variant into `pluginsDir`, each registering its model. */
export function writeBenchPlugins(pluginsDir: string): void {
  for (const variant of VARIANTS) {
    const dir = join(pluginsDir, `bench-${variant.toLowerCase()}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'plugin.yaml'),
      `apiVersion: plugin.svc.run/v1alpha1\nkind: Plugin\nmetadata: {name: bench-${variant.toLowerCase()}}\nspec: {version: 1.0.0}\n`,
    );
    writeFileSync(
      join(dir, 'index.js'),
      `module.exports = { async start(ctx) {
  await ctx.schemes.register({
    group: '${MODELS[variant].group}', version: 'v1',
    names: { kind: 'Person', singular: 'person', plural: 'people' },
    schema: { type: 'object', properties: { spec: { type: 'object', properties: {
      name: { type: 'string' }, email: { type: 'string' }, age: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } },
    } } } },
  }, ${INDEXES[variant]});
} };
`,
    );
  }
}

/** The i-th person of a run (names unique across runs through `run`). */
export function person(variant: Variant, run: number, i: number): string {
  const name = `p-${run}-${i}`;
  return JSON.stringify({
    apiVersion: `${MODELS[variant].group}/v1`,
    kind: 'Person',
    metadata: { name, labels: { 'bench.example.com/run': String(run) } },
    spec: { name: `Person ${i % 1000}`, email: `${name}@example.com`, age: 20 + (i % 50), tags: ['a', 'b', 'c'] },
  });
}
