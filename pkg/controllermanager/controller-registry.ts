import type { ApiClient } from '../client/api-client';
import type { Manager } from '../controller/manager';
import type { Logger } from '../util/log';

/** What a controller's setup gets: the manager to add itself to, the API client, and the process's logger (the runtime names each controller in its logs). */
export interface ControllerContext {
  manager: Manager;
  client: ApiClient;
  log: Logger;
}

/**
 * A controller the controller-manager can run by name (`--controllers <name>`).
 * @example
 * registry.register({
 *   name: 'person-status', description: 'writes each Person\'s status', enabledByDefault: false,
 *   setup: ({ manager }) => { registerPersonStatus(manager); },
 * });
 */
export interface ControllerRegistration {
  /** `[a-z0-9-]`, e.g. `gc`. */
  name: string;
  /** One line for `--help`. */
  description: string;
  /** Whether `*` (the default of `--controllers`) runs it; default true. One that is off by default runs only when named. */
  enabledByDefault?: boolean;
  /** Adds the controller (or controllers) to the manager; they run while the manager leads. */
  setup(ctx: ControllerContext): void | Promise<void>;
}

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/**
 * The controllers a controller-manager knows, by name, so that later
 * controllers plug in with one `register` call. `select` reads the
 * `--controllers` list the way kube-controller-manager does: `*` is every
 * controller enabled by default, `name` adds one, `-name` leaves one out.
 * @example
 * const registry = builtinControllers().register(personStatus);
 * registry.select(['*', '-gc']); // everything on by default except gc
 */
export class ControllerRegistry {
  private readonly entries = new Map<string, ControllerRegistration>();

  /** Adds a controller; throws on a name that is malformed or taken. */
  register(registration: ControllerRegistration): this {
    if (!NAME.test(registration.name))
      throw new Error(`a controller name must match ${NAME}, got "${registration.name}"`);
    if (this.entries.has(registration.name))
      throw new Error(`a controller named "${registration.name}" is registered already`);
    this.entries.set(registration.name, registration);
    return this;
  }

  /** The controller of that name, if registered. */
  get(name: string): ControllerRegistration | undefined {
    return this.entries.get(name);
  }

  /** Every registered controller, in registration order. */
  list(): ControllerRegistration[] {
    return [...this.entries.values()];
  }

  /**
   * The controllers a `--controllers` list selects, in registration order.
   * Throws on an unknown name (listing the known ones) and when nothing is selected.
   */
  select(spec: readonly string[]): ControllerRegistration[] {
    const items = spec.map((s) => s.trim()).filter((s) => s !== '');
    const unknown = items.map((s) => s.replace(/^-/, '')).filter((name) => name !== '*' && !this.entries.has(name));
    if (unknown.length) {
      throw new Error(
        `unknown controller(s) ${unknown.map((u) => `"${u}"`).join(', ')}; known: ${[...this.entries.keys()].join(', ')}`,
      );
    }
    const wanted = (r: ControllerRegistration) => {
      if (items.includes(`-${r.name}`)) return false;
      return items.includes(r.name) || (items.includes('*') && (r.enabledByDefault ?? true));
    };
    const selected = this.list().filter(wanted);
    if (!selected.length) throw new Error(`--controllers "${spec.join(',')}" selects no controller`);
    return selected;
  }
}
