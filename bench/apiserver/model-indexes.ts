import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import type { ApiObject } from '../../pkg/api/object';
import { modelFromObject } from '../../pkg/registry/models/model-object';
import { withDefaultIndexes, type IndexSpec } from '../../pkg/storage/indexes';

/**
 * Every index of the type a Model manifest declares, defaults first, in the
 * order the apiserver defines them in storage (so that a write script gets
 * the same keys and arguments from the baseline as from the apiserver).
 *
 * @example indexesOfModelFile('manifests/examples/person-model.yaml').map((s) => s.name)
 * // ['metadata.name', 'metadata.labels', 'metadata.creationTimestamp', 'metadata.deletionTimestamp', 'spec.name', 'spec.tags']
 */
export function indexesOfModelFile(path: string): IndexSpec[] {
  const model = modelFromObject(load(readFileSync(path, 'utf8')) as ApiObject);
  return withDefaultIndexes(model.indexes ?? []);
}
