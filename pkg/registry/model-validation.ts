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
 * Checks a model definition (docs/api.md): a plugin's group is a DNS subdomain
 * that is neither empty nor the platform's; singular and plural are lowercase
 * DNS labels; the kind is CamelCase; the version looks like `v1alpha1`.
 * Throws a 422 listing every problem.
 */
export function validateModel(model: Model, { platform }: { platform: boolean }): void {
  const problems: [field: string, message: string][] = [];
  const groupProblem = platform ? dnsGroupProblem(model.group) : pluginGroupProblem(model.group);
  if (groupProblem) problems.push(['group', groupProblem]);
  if (!VERSION.test(model.version)) problems.push(['version', 'must look like v1, v1alpha1 or v2beta3']);
  if (!KIND.test(model.kind))
    problems.push(['names.kind', 'must be CamelCase letters and digits, starting with an uppercase letter']);
  for (const field of ['singular', 'plural'] as const) {
    if (!isDns1123Name(model[field]) || model[field].length > 63)
      problems.push([`names.${field}`, 'must be a lowercase DNS label, e.g. "persons"']);
  }
  problems.push(...indexProblems(model));
  if (problems.length === 0) return;
  const causes: StatusCause[] = problems.map(([field, message]) => ({
    field: `spec.${field}`,
    reason: 'FieldValueInvalid',
    message,
  }));
  throw invalid({ kind: 'Model', name: model.group ? `${model.plural}.${model.group}` : model.plural }, causes);
}

/** What is wrong with a plugin's group: empty or the platform's are refused, besides dnsGroupProblem. */
function pluginGroupProblem(group: string): string | undefined {
  if (group === '') return 'must not be empty: the core group belongs to the platform';
  if (isPlatformGroup(group)) return 'must not end in ".svc.run": those groups belong to the platform';
  return dnsGroupProblem(group);
}

/** What is wrong with a group that is not the core group `""`: it must be a DNS subdomain. */
function dnsGroupProblem(group: string): string | undefined {
  if (group !== '' && (!isDns1123Subdomain(group) || group.length > 253))
    return 'must be a lowercase DNS subdomain, e.g. "example.com"';
  return undefined;
}

/** Indexes declared twice, or under a default index's name; `filteredBy` naming no other non-unique index. */
function indexProblems(model: Model): [string, string][] {
  const problems: [string, string][] = [];
  const names = new Set<string>();
  for (const [i, index] of (model.indexes ?? []).entries()) {
    if (names.has(index.name)) problems.push([`indexes[${i}].name`, `index "${index.name}" is declared twice`]);
    if (DEFAULT_INDEX_NAMES.has(index.name))
      problems.push([`indexes[${i}].name`, `"${index.name}" is a default index of every model`]);
    names.add(index.name);
  }
  problems.push(...filteredByProblems(model));
  return problems;
}

/** `filteredBy` entries that name no other non-unique index of the model (defaults included). */
function filteredByProblems(model: Model): [string, string][] {
  const indexes = [...DEFAULT_INDEXES, ...(model.indexes ?? [])];
  const pairable = new Set(indexes.filter((spec) => !spec.unique).map((spec) => spec.name));
  const problems: [string, string][] = [];
  for (const [i, index] of (model.indexes ?? []).entries()) {
    for (const filter of index.filteredBy ?? []) {
      if (filter === index.name || !pairable.has(filter)) {
        const message = `"${filter}" must name another, non-unique index (e.g. metadata.labels)`;
        problems.push([`indexes[${i}].filteredBy`, message]);
      }
    }
  }
  return problems;
}
