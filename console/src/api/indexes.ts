import { api } from './client';
import { MODELS } from './paths';

/** The indexes every model has and can be sorted on. */
const ALWAYS = ['metadata.name', 'metadata.creationTimestamp'];

/**
 * The index names a model's list can be sorted by: every model's own, and
 * those its Model object declares (`spec.indexes`). A platform kind has no
 * Model object, and a caller may not read it: then the first ones only.
 */
export async function sortableIndexes(group: string, plural: string): Promise<string[]> {
  // Model objects never have the core group or a platform group (`….svc.run`): no need to ask.
  if (!group || group.endsWith('.svc.run')) return ALWAYS;
  const model = await api<{ spec?: { indexes?: { name?: string }[] } }>(
    'GET',
    `${MODELS}/${encodeURIComponent(`${plural}.${group}`)}`,
  ).catch(() => undefined);
  const declared = (model?.spec?.indexes ?? []).map((i) => i.name).filter((n): n is string => !!n);
  return [...new Set([...ALWAYS, ...declared])];
}
