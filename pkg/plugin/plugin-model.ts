import type { ApiObject } from '../api/object';
import type { IndexSpec } from '../storage/indexes';
import type { Model } from '../registry/model';
import { modelFromObject } from '../registry/models/model-object';
import { IndexSandbox, type SandboxLimits } from './index-sandbox';
import { DEFAULT_INDEX_MEMORY_MB } from './index-isolate';
import type { DeclaredIndex } from './protocol';

/** How long one write's index functions may run, together; see ADR 0014. */
export const DEFAULT_INDEX_FUNCTION_TIMEOUT_MS = 500;

const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: DEFAULT_INDEX_FUNCTION_TIMEOUT_MS,
  memoryMb: DEFAULT_INDEX_MEMORY_MB,
};

/** A plugin's model, and how to end what runs its index functions when the model is taken out of service. */
export interface PluginModel {
  model: Model;
  close(): void;
}

/**
 * The Model a plugin registers with `ctx.schemes.register(model, indexes)`:
 * path indexes compile to the apiserver's own index functions, function
 * indexes run in an IndexSandbox. Rejects with an Error saying what is wrong
 * (a missing field, an index name given twice, a source that does not compile).
 */
export async function pluginModel(
  plugin: string,
  spec: Record<string, unknown>,
  indexes: DeclaredIndex[],
  limits: Partial<SandboxLimits> = {},
): Promise<PluginModel> {
  const names = spec.names as Record<string, unknown> | undefined;
  const fields = [spec.group, spec.version, names?.kind, names?.plural];
  if (!fields.every((f) => typeof f === 'string' && f !== '')) {
    throw new Error('model: group, version, names.kind and names.plural are required');
  }
  const seen = new Set<string>();
  for (const index of indexes) {
    if (seen.has(index.name)) throw new Error(`index "${index.name}" is declared twice`);
    seen.add(index.name);
  }
  const paths = indexes.filter((i) => i.source === undefined);
  const model = modelFromObject({ spec: { ...spec, indexes: paths } } as unknown as ApiObject);
  const functions = indexes.filter((i): i is DeclaredIndex & { source: string } => i.source !== undefined);
  if (functions.length === 0) return { model, close: () => undefined };
  const sandbox = await IndexSandbox.create(
    { plugin, group: model.group, resource: model.plural, kind: model.kind },
    functions.map(({ name, source }) => ({ name, source })),
    { ...DEFAULT_LIMITS, ...definedOnly(limits) },
  );
  const compiled: IndexSpec[] = functions.map((i) => ({
    name: i.name,
    unique: i.unique ?? false,
    order: i.order ?? 'ASC',
    indexFunc: sandbox.indexFunc(i.name),
  }));
  return { model: { ...model, indexes: [...(model.indexes ?? []), ...compiled] }, close: () => sandbox.close() };
}

/** The limits that were given (an option left undefined keeps its default). */
const definedOnly = (limits: Partial<SandboxLimits>): Partial<SandboxLimits> =>
  Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
