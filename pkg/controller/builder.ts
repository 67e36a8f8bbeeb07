import type { ApiObject } from '../api/object';
import type { ResourceRef } from '../client/resource';
import { Controller, type Source } from './controller';
import type { DeepReadonly } from '../util/deep-freeze';
import type { Selectors } from './lister-watcher';
import type { Manager } from './manager';
import { ownerNames } from './owner-references';
import type { Predicate } from './predicates';
import type { RateLimiter } from './rate-limiter';
import type { Reconciler } from './reconciler';

/** Options of one watched resource: which objects, and which of their events count. */
export interface SourceOptions<T extends ApiObject = ApiObject> extends Selectors {
  predicates?: Predicate<T>[];
}

/** A misconfigured controller, reported by `complete()` with every problem found. */
export class ControllerConfigError extends Error {
  override readonly name = 'ControllerConfigError';

  constructor(
    readonly controller: string,
    readonly problems: string[],
  ) {
    super(`controller "${controller}" is misconfigured: ${problems.join('; ')}`);
  }
}

/**
 * Builds a controller step by step; nothing is checked until `complete()`,
 * which reports every misconfiguration at once (a `ControllerConfigError`)
 * and otherwise adds the controller to the manager (started at once when the
 * manager is already leading).
 * @example
 * controller('person-status', manager)
 *   .for(PERSONS)                         // reconcile Persons: keys are their names
 *   .owns(PETS)                           // a Pet's change reconciles its owning Person
 *   .withPredicates(generationChanged)    // only spec changes
 *   .workers(2)
 *   .complete(new PersonStatusReconciler(client, manager.cacheFor(PERSONS)));
 */
export class ControllerBuilder {
  private forResource: ResourceRef | undefined;
  private readonly sources: Source[] = [];
  private readonly predicates: Predicate[] = [];
  private workerCount = 1;
  private limiter: RateLimiter<string> | undefined;
  private readonly problems: string[] = [];

  constructor(
    private readonly name: string,
    private readonly manager: Manager,
  ) {}

  /** The reconciled resource: each of its objects' events enqueues the object's name. Call once. */
  for<T extends ApiObject = ApiObject>(res: ResourceRef, options: SourceOptions<T> = {}): this {
    if (this.forResource) this.problems.push('for() may be called only once');
    this.forResource = res;
    this.sources.unshift(sourceOf(res, options));
    return this;
  }

  /** A resource whose objects are owned by the `for` resource: each event enqueues the owners' names (`metadata.ownerReferences`). */
  owns<T extends ApiObject = ApiObject>(res: ResourceRef, options: SourceOptions<T> = {}): this {
    const source = sourceOf(res, options);
    source.toKeys = (object) => (this.forResource ? ownerNames(object, this.forResource) : []);
    this.sources.push(source);
    return this;
  }

  /** Any resource, with its own mapping from an object to the keys to reconcile. */
  watches<T extends ApiObject = ApiObject>(
    res: ResourceRef,
    toKeys: (object: DeepReadonly<T>) => string[],
    options: SourceOptions<T> = {},
  ): this {
    const source = sourceOf(res, options);
    source.toKeys = toKeys as Source['toKeys'];
    this.sources.push(source);
    return this;
  }

  /** Predicates every event of every source must pass (besides each source's own). */
  withPredicates(...predicates: Predicate[]): this {
    this.predicates.push(...predicates);
    return this;
  }

  /** How many keys are reconciled at once (default 1). */
  workers(count: number): this {
    this.workerCount = count;
    return this;
  }

  /** The retry rate limiter (default: per key 5 ms doubling to 1000 s, overall 50 qps burst 300). */
  rateLimiter(limiter: RateLimiter<string>): this {
    this.limiter = limiter;
    return this;
  }

  /** Checks the configuration, builds the controller and adds it to the manager. */
  complete(reconciler: Reconciler): Controller {
    const problems = [...this.problems, ...this.check(reconciler)];
    if (problems.length) throw new ControllerConfigError(this.name, problems);
    const sources = this.sources.map((s) => ({ ...s, predicates: [...this.predicates, ...(s.predicates ?? [])] }));
    const built = new Controller(
      { name: this.name, reconciler, workers: this.workerCount, sources, rateLimiter: this.limiter },
      this.manager.controllerDeps(),
    );
    this.manager.add(built);
    return built;
  }

  private check(reconciler: Reconciler): string[] {
    const problems: string[] = [];
    const nameProblem = this.nameProblem();
    if (nameProblem) problems.push(nameProblem);
    if (!this.forResource)
      problems.push('for(resource) was not called: a controller must name the resource it reconciles');
    if (!Number.isInteger(this.workerCount) || this.workerCount < 1)
      problems.push(`workers must be an integer ≥ 1, got ${this.workerCount}`);
    if (typeof reconciler?.reconcile !== 'function') problems.push('the reconciler has no reconcile method');
    for (const { resource } of this.sources.filter((source) => !isCompleteRef(source.resource))) {
      problems.push(`a resource needs group, version and plural, got ${JSON.stringify(resource)}`);
    }
    return problems;
  }

  /** Why the name cannot be used, if it cannot. */
  private nameProblem(): string | undefined {
    if (!this.name.trim()) return 'the name is empty';
    if (this.manager.has(this.name)) return 'the manager already has a controller of that name';
    return undefined;
  }
}

/** A resource reference with a version, a plural and a group (`''` for core). */
const isCompleteRef = (resource: ResourceRef | undefined): boolean =>
  Boolean(resource?.version && resource.plural && typeof resource.group === 'string');

/** Starts building a controller managed by `manager`; see ControllerBuilder. */
export function controller(name: string, manager: Manager): ControllerBuilder {
  return new ControllerBuilder(name, manager);
}

function sourceOf<T extends ApiObject>(res: ResourceRef, options: SourceOptions<T>): Source {
  const source: Source = { resource: res, predicates: (options.predicates ?? []) as Predicate[] };
  if (options.labelSelector || options.fieldSelector) {
    source.selectors = { labelSelector: options.labelSelector, fieldSelector: options.fieldSelector };
  }
  return source;
}
