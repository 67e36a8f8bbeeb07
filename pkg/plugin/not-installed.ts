import type { ApiObject } from '../api/object';

/** The `Ready` condition's reason on a Plugin object that names no installed plugin. */
export const NOT_INSTALLED = 'NotInstalled';

/**
 * Whether a Plugin object is one no host has taken up: it exists, is not being deleted, and has no phase yet (every
 * host that has the plugin writes one at once). Only such an object is marked not installed, so that an apiserver
 * without the plugin never overwrites what a replica that has it wrote.
 */
export function awaitsAnyHost(object: ApiObject | undefined): object is ApiObject {
  if (!object || object.metadata.deletionTimestamp) return false;
  return (object.status as { phase?: unknown } | undefined)?.phase === undefined;
}

/**
 * The status of a Plugin object that names no installed plugin (one created through the API, not by the host from
 * the plugins folder): PENDING — it waits for the plugin — with a `Ready` condition that says why and what to do.
 * Once a plugin of that name is put in the plugins folder, the host takes the object up and writes its own phase.
 */
export function notInstalledStatus(name: string, now = new Date()): Record<string, unknown> {
  const message =
    `no plugin named "${name}" is installed: put its folder or .tgz into the plugins folder (--plugins-dir) of the ` +
    'apiserver; this object starts nothing until then';
  return {
    phase: 'PENDING',
    message,
    extensions: [],
    conditions: [
      { type: 'Ready', status: 'False', reason: NOT_INSTALLED, message, lastTransitionTime: now.toISOString() },
    ],
  };
}
