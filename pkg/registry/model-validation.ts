import { invalid, type StatusCause } from '../api/errors';
import type { Model } from './model';
import { isDns1123Name, isDns1123Subdomain } from '../api/validation';
import { DEFAULT_INDEXES } from '../storage/indexes';

const DEFAULT_INDEX_NAMES = new Set(DEFAULT_INDEXES.map((i) => i.name));

const VERSION = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/** Whether a group belongs to the platform: the core group `""` and every `*.svc.run` group. */
export const isPlatformGroup = (group: string): boolean =>
  group === '' || group === 'svc.run' || group.endsWith('.svc.run');

/**
 * Checks a model definition (issue 4 §2): a plugin's group is a DNS subdomain
 * that is neither empty nor the platform's; singular and plural are lowercase
 * DNS labels; the kind is CamelCase; the version looks like `v1alpha1`.
 * Throws a 422 listing every problem.
 */
export function validateModel(model: Model, { platform }: { platform: boolean }): void {
  const causes: StatusCause[] = [];
  const bad = (field: string, message: string) =>
    causes.push({ field: `spec.${field}`, reason: 'FieldValueInvalid', message });
  if (!platform && model.group === '') bad('group', 'must not be empty: the core group belongs to the platform');
  else if (!platform && isPlatformGroup(model.group))
    bad('group', 'must not end in ".svc.run": those groups belong to the platform');
  else if (model.group !== '' && (!isDns1123Subdomain(model.group) || model.group.length > 253)) {
    bad('group', 'must be a lowercase DNS subdomain, e.g. "example.com"');
  }
  if (!VERSION.test(model.version)) bad('version', 'must look like v1, v1alpha1 or v2beta3');
  if (!KIND.test(model.kind))
    bad('names.kind', 'must be CamelCase letters and digits, starting with an uppercase letter');
  for (const field of ['singular', 'plural'] as const) {
    if (!isDns1123Name(model[field]) || model[field].length > 63)
      bad(`names.${field}`, 'must be a lowercase DNS label, e.g. "persons"');
  }
  const names = new Set<string>();
  for (const [i, index] of (model.indexes ?? []).entries()) {
    if (names.has(index.name)) bad(`indexes[${i}].name`, `index "${index.name}" is declared twice`);
    if (DEFAULT_INDEX_NAMES.has(index.name))
      bad(`indexes[${i}].name`, `"${index.name}" is a default index of every model`);
    names.add(index.name);
  }
  if (causes.length)
    throw invalid({ kind: 'Model', name: model.group ? `${model.plural}.${model.group}` : model.plural }, causes);
}
