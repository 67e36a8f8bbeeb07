import yaml from 'js-yaml';
import { UsageError } from './errors';

/** A kubeconfig's named lists, as `config kubeconfig` writes and merges them. */
type NamedList = { name: string }[];
type Kubeconfig = Record<string, unknown> & { clusters?: NamedList; users?: NamedList; contexts?: NamedList };

const LISTS = ['clusters', 'users', 'contexts'] as const;

/**
 * `added` merged into the kubeconfig text `existing` (a file `config kubeconfig -o` writes to, e.g.
 * `~/.kube/config`): its cluster, user and context replace those of the same names, every other entry
 * is kept, and its context becomes the current one. Empty text: `added` alone. UsageError when the
 * text is not a kubeconfig, so that no other file is overwritten.
 */
export function mergeKubeconfig(existing: string, added: Kubeconfig, file: string): Kubeconfig {
  let parsed: unknown;
  try {
    parsed = yaml.load(existing);
  } catch (err) {
    throw new UsageError(`${file} is not a kubeconfig (${(err as Error).message}); name another file`);
  }
  if (parsed === undefined || parsed === null) return added;
  const config = parsed as Kubeconfig;
  if (typeof parsed !== 'object' || config.kind !== 'Config' || LISTS.some((l) => !isList(config[l])))
    throw new UsageError(`${file} is not a kubeconfig (want kind: Config); name another file`);
  const merged: Kubeconfig = { ...config, 'current-context': added['current-context'] };
  for (const list of LISTS) merged[list] = upsert(config[list] ?? [], added[list] ?? []);
  return merged;
}

const isList = (value: unknown): boolean =>
  value === undefined || value === null || (Array.isArray(value) && value.every((e) => typeof e?.name === 'string'));

function upsert(entries: NamedList, added: NamedList): NamedList {
  const names = new Set(added.map((e) => e.name));
  return [...entries.filter((e) => !names.has(e.name)), ...added];
}
