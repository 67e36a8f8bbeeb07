import type { ApiObject } from '../../pkg/api/object';
import { pluginUserName } from '../../pkg/auth/plugin-identities';
import { isAdmitted, withoutAdmissionStamp, type Role } from '../../pkg/auth/rbac';
import {
  ApiError,
  apiVersionOf,
  isConflict,
  isNotFound,
  objectPath,
  type ApiClient,
  type DiscoveredResource,
} from '../../pkg/client';
import {
  addFinalizer,
  copyOf,
  hasFinalizer,
  removeFinalizer,
  updateStatus,
  type DeepReadonly,
  type ReadonlyCache,
  type ReconcileContext,
  type Reconciler,
  type Request,
} from '../../pkg/controller';
import { jsonEqual } from '../../pkg/util/json-equal';
import { declarationProblem, type DeclaredObject } from '../../pkg/auth/plugin-declarations';
import {
  describeExtension,
  EXTENSIONS_CONDITION,
  PLUGIN_EXTENSIONS_FINALIZER,
  PLUGIN_NAME_LABEL,
  PLUGINS,
  type ExtensionRef,
  type Plugin,
  type PluginCondition,
} from './plugins';

/** What applying a plugin's extension objects came to: what is applied, and why the others are not. */
interface Outcome {
  applied: ExtensionRef[];
  problems: string[];
}

/**
 * Applies each STARTED plugin's `extensions/` objects (read from the
 * apiserver's `…/plugins/<name>/extensions`, never from disk): creates each,
 * or updates it over what is stored, labelled `plugin.svc.run/plugin-name`;
 * lists them in `status.extensions`; deletes those the plugin no longer
 * declares. Objects a plugin may not declare are not applied and are named,
 * with the reason, in the Plugin's `message` and `ExtensionsApplied`
 * condition. A STOPPED plugin's objects are deleted; a finalizer holds a
 * Plugin marked for deletion until they are.
 *
 * Role templates are written as the controller itself (the platform checks
 * them: see `declarationProblem`); every other object is written as the
 * plugin's identity `system:plugin:<name>` (`Impersonate-User`), so a plugin
 * declares exactly what its own code may write: objects of its own models,
 * and whatever roles bound to it allow.
 */
export class PluginExtensionsReconciler implements Reconciler {
  /** Plugin name → the client acting as that plugin. */
  private readonly asPlugin = new Map<string, ApiClient>();

  constructor(
    private readonly client: ApiClient,
    private readonly plugins: ReadonlyCache<Plugin>,
  ) {}

  /** Who writes `ref` for plugin `name`: the controller for a role template, the plugin itself for anything else. */
  private writerOf(name: string, ref: { apiVersion: string; kind: string }): ApiClient {
    if (ref.kind === 'Role' && ref.apiVersion === 'v1alpha1') return this.client;
    let client = this.asPlugin.get(name);
    if (!client) {
      client = this.client.impersonating(pluginUserName(name));
      this.asPlugin.set(name, client);
    }
    return client;
  }

  async reconcile({ name }: Request, { signal, log }: ReconcileContext): Promise<void> {
    const cached = this.plugins.get(name);
    if (!cached) return;
    if (cached.metadata.deletionTimestamp) return this.release(cached, signal, log);
    let plugin: DeepReadonly<Plugin> | Plugin = cached;
    const withFinalizer = addFinalizer<Plugin>(plugin, PLUGIN_EXTENSIONS_FINALIZER);
    if (withFinalizer.changed) plugin = await this.client.update<Plugin>(PLUGINS, withFinalizer.object, { signal });
    const phase = plugin.status?.phase;
    if (phase === 'STOPPED') {
      this.asPlugin.delete(name);
      await this.deleteAll(name, plugin.status?.extensions ?? [], signal);
      await this.writeStatus(plugin, { applied: [], problems: [] }, 'Stopped', signal);
    } else if (phase === 'STARTED') {
      await this.applyAndReport(plugin, signal, log);
    }
  }

  /** A Plugin being deleted: deletes its extension objects, then lets it go. */
  private async release(
    cached: DeepReadonly<Plugin>,
    signal: AbortSignal,
    log: ReconcileContext['log'],
  ): Promise<void> {
    if (!hasFinalizer(cached, PLUGIN_EXTENSIONS_FINALIZER)) return;
    this.asPlugin.delete(cached.metadata.name!);
    await this.deleteAll(cached.metadata.name!, cached.status?.extensions ?? [], signal);
    await this.client.update(PLUGINS, removeFinalizer<Plugin>(cached, PLUGIN_EXTENSIONS_FINALIZER).object, {
      signal,
    });
    log.info('extension objects deleted; the Plugin may go');
  }

  private async applyAndReport(
    plugin: DeepReadonly<Plugin> | Plugin,
    signal: AbortSignal,
    log: ReconcileContext['log'],
  ): Promise<void> {
    const outcome = await this.apply(plugin, signal);
    const reason = outcome.problems.length ? 'NotApplied' : 'Applied';
    const { changed } = await this.writeStatus(plugin, outcome, reason, signal);
    if (changed)
      log.info({ applied: outcome.applied.length, refused: outcome.problems.length }, 'extension objects applied');
  }

  private async apply(plugin: DeepReadonly<Plugin> | Plugin, signal: AbortSignal): Promise<Outcome> {
    const name = plugin.metadata.name!;
    const { items } = await this.client.request<{ items: (DeclaredObject & ApiObject)[] }>({
      method: 'GET',
      path: objectPath(PLUGINS, name, 'extensions'),
      signal,
    });
    const resources = await this.client.discover({ signal });
    const outcome: Outcome = { applied: [], problems: [] };
    for (const object of items) await this.applyDeclared(name, object, resources, outcome, signal);
    const dropped = (plugin.status?.extensions ?? []).filter(
      (old) => !outcome.applied.some((now) => sameRef(old, now)),
    );
    await this.deleteAll(name, dropped, signal, resources, true);
    return outcome;
  }

  /** Applies one declared object, or records why it is not applied; anything else than a refusal is thrown. */
  private async applyDeclared(
    name: string,
    object: DeclaredObject & ApiObject,
    resources: DiscoveredResource[],
    outcome: Outcome,
    signal: AbortSignal,
  ): Promise<void> {
    const ref = { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name! };
    const resource = resourceOf(resources, ref);
    const problem =
      declarationProblem(name, object) ?? (resource ? undefined : `${ref.apiVersion} ${ref.kind} is not served`);
    if (problem || !resource) {
      outcome.problems.push(`${describeExtension(ref)}: ${problem}`);
      return;
    }
    try {
      await this.applyOne(resource, name, object, signal);
      outcome.applied.push(ref);
    } catch (err) {
      // A refusal of the object itself (invalid, forbidden) is reported; anything else is retried.
      if (!(err instanceof ApiError) || err.code >= 500 || isConflict(err)) throw err;
      outcome.problems.push(`${describeExtension(ref)}: ${err.message}`);
    }
  }

  /** Creates the object, or updates it over the stored one when that differs from what the plugin declares. */
  private async applyOne(
    res: DiscoveredResource,
    pluginName: string,
    declared: ApiObject,
    signal: AbortSignal,
  ): Promise<void> {
    const client = this.writerOf(pluginName, declared);
    const labels = { ...declared.metadata.labels, [PLUGIN_NAME_LABEL]: pluginName };
    const desired: ApiObject = { ...declared, metadata: { ...declared.metadata, labels } };
    let stored: ApiObject;
    try {
      stored = await client.get(res, declared.metadata.name!, { signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await client.create(res, desired, { signal });
      return;
    }
    const { metadata: _desiredMeta, ...desiredBody } = desired;
    const upToDate =
      Object.entries(desiredBody).every(([key, value]) => jsonEqual(stored[key], value)) &&
      jsonEqual(stored.metadata.labels ?? {}, labels) &&
      jsonEqual(withoutAdmissionStamp(stored.metadata.annotations), declared.metadata.annotations ?? {}) &&
      // A role template stored before the role-write check is written again, so that the check stamps it.
      (stored.kind !== 'Role' || isAdmitted(stored as Role));
    if (upToDate) return;
    await client.update(
      res,
      {
        ...desired,
        status: stored.status,
        metadata: { ...stored.metadata, labels, annotations: declared.metadata.annotations },
      },
      { signal },
    );
  }

  /**
   * Deletes each listed object that carries this plugin's label (one that is already gone is fine): as the
   * plugin while it runs (`asPlugin`), as the controller once it is stopped or deleted, when the models it
   * served are no longer served.
   */
  private async deleteAll(
    pluginName: string,
    refs: readonly ExtensionRef[],
    signal: AbortSignal,
    known?: DiscoveredResource[],
    asPlugin = false,
  ): Promise<void> {
    if (refs.length === 0) return;
    const resources = known ?? (await this.client.discover({ signal }));
    for (const ref of refs) {
      const res = resourceOf(resources, ref);
      if (res)
        await deleteLabelled(
          asPlugin ? this.writerOf(pluginName, ref) : this.client,
          res,
          ref.name,
          pluginName,
          signal,
        );
    }
  }

  private writeStatus(plugin: DeepReadonly<Plugin> | Plugin, outcome: Outcome, reason: string, signal: AbortSignal) {
    const current = copyOf<Plugin>(plugin);
    const message = outcome.problems.join('; ');
    const conditions = current.status?.conditions ?? [];
    const previous = conditions.find((c) => c.type === EXTENSIONS_CONDITION);
    const status = outcome.problems.length ? 'False' : 'True';
    const condition: PluginCondition = {
      type: EXTENSIONS_CONDITION,
      status,
      reason,
      message,
      lastTransitionTime: previous?.status === status ? previous.lastTransitionTime : new Date().toISOString(),
    };
    const next = {
      ...current.status,
      extensions: outcome.applied,
      conditions: [...conditions.filter((c) => c.type !== EXTENSIONS_CONDITION), condition],
      ...(reason === 'Stopped' ? {} : { message }),
    };
    return updateStatus<Plugin>(this.client, PLUGINS, current, next, { signal });
  }
}

/** Deletes the object when it carries plugin `pluginName`'s label; one already gone is fine. */
async function deleteLabelled(
  client: ApiClient,
  res: DiscoveredResource,
  name: string,
  pluginName: string,
  signal: AbortSignal,
): Promise<void> {
  try {
    const stored = await client.get(res, name, { signal });
    if (stored.metadata.labels?.[PLUGIN_NAME_LABEL] !== pluginName) return;
    await client.delete(res, name, { signal, preconditions: { uid: stored.metadata.uid } });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

const sameRef = (a: ExtensionRef, b: ExtensionRef) =>
  a.apiVersion === b.apiVersion && a.kind === b.kind && a.name === b.name;

function resourceOf(resources: DiscoveredResource[], ref: ExtensionRef): DiscoveredResource | undefined {
  return resources.find((r) => r.kind === ref.kind && apiVersionOf(r) === ref.apiVersion);
}
