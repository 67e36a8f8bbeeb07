import type { ApiObject } from '../../pkg/api/object';
import { describeResource, type DiscoveredResource, type ResourceRef } from '../../pkg/client';
import type { DeepReadonly } from '../../pkg/controller';

/** Where `Model` objects are served: `/apis/apiextensions.svc.run/v1alpha1/models`. */
export const MODELS: ResourceRef = {
  group: 'apiextensions.svc.run',
  version: 'v1alpha1',
  plural: 'models',
  kind: 'Model',
};

/** What the gc controller needs of a resource: listing and watching its objects, and deleting them. */
const NEEDED_VERBS = ['list', 'watch', 'delete'];

/**
 * The resources the gc controller collects, from discovery: those that can be
 * listed, watched and deleted, each once (a group may serve a plural in
 * several versions; objects are the same in each, so its preferred version is taken).
 * @example collectableResources(await client.discover()) // [{group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person'}, …]
 */
export function collectableResources(discovered: readonly DiscoveredResource[]): ResourceRef[] {
  const chosen = new Map<string, DiscoveredResource>();
  for (const found of discovered) {
    if (!NEEDED_VERBS.every((verb) => found.verbs.includes(verb))) continue;
    const key = describeResource(found);
    const previous = chosen.get(key);
    if (!previous || (found.preferred && !previous.preferred)) chosen.set(key, found);
  }
  return [...chosen.values()].map(({ group, version, plural, kind }) => ({ group, version, plural, kind }));
}

/** The fields of a Model's spec that say where its objects are served. */
interface ModelSpec {
  group?: string;
  version?: string;
  names?: { kind?: string; plural?: string };
}

/**
 * The resource a `Model` object declares, or undefined when its spec does not
 * name one (the apiserver refuses such Models; this only guards against them).
 * @example resourceOfModel(personModel) // {group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person'}
 */
export function resourceOfModel(model: DeepReadonly<ApiObject>): ResourceRef | undefined {
  const spec = model.spec as DeepReadonly<ModelSpec> | undefined;
  const plural = spec?.names?.plural;
  if (typeof spec?.group !== 'string' || !spec.version || !plural) return undefined;
  return { group: spec.group, version: spec.version, plural, kind: spec.names?.kind };
}

/** The name of the gc controller of one resource, e.g. `gc/persons.example.com`. */
export const collectorName = (res: ResourceRef): string => `gc/${describeResource(res)}`;
