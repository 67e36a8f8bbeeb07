import pino from 'pino';
import { ApiClient } from '../client/api-client';
import type { ResourceRef } from '../client/resource';
import { controller, ControllerConfigError } from './builder';
import { Controller } from './controller';
import { Manager } from './manager';
import { reconcilerFn, type Reconciler } from './reconciler';

const THINGS: ResourceRef = { group: 'test.example', version: 'v1', plural: 'things' };
const noop = reconcilerFn(async () => undefined);
const newManager = () =>
  new Manager({ client: new ApiClient({ server: 'http://127.0.0.1:9' }), log: pino({ level: 'silent' }) });

/** The problems `complete` reported, or [] when it succeeded. */
function problemsOf(build: () => unknown): string[] {
  try {
    build();
    return [];
  } catch (err) {
    if (err instanceof ControllerConfigError) return err.problems;
    throw err;
  }
}

describe('controller builder', () => {
  it('builds a controller and adds it to the manager', () => {
    const manager = newManager();
    const built = controller('things', manager).for(THINGS).workers(3).complete(noop);
    expect(built).toBeInstanceOf(Controller);
    expect(built.name).toBe('things');
    expect(manager.has('things')).toBe(true);
  });

  it('reports a missing for() at complete, not before', () => {
    const manager = newManager();
    const chain = controller('things', manager).workers(2);
    expect(problemsOf(() => chain.complete(noop))).toEqual([expect.stringContaining('for(resource) was not called')]);
    expect(manager.has('things')).toBe(false);
  });

  it('reports a worker count below 1 or not an integer', () => {
    const manager = newManager();
    expect(problemsOf(() => controller('a', manager).for(THINGS).workers(0).complete(noop))).toEqual([
      expect.stringContaining('workers'),
    ]);
    expect(problemsOf(() => controller('b', manager).for(THINGS).workers(1.5).complete(noop))).toEqual([
      expect.stringContaining('workers'),
    ]);
  });

  it('reports a name the manager already has', () => {
    const manager = newManager();
    controller('things', manager).for(THINGS).complete(noop);
    expect(problemsOf(() => controller('things', manager).for(THINGS).complete(noop))).toEqual([
      expect.stringContaining('already has a controller of that name'),
    ]);
  });

  it('reports for() called twice, an empty name and a reconciler without reconcile, all at once', () => {
    const manager = newManager();
    const problems = problemsOf(() =>
      controller(' ', manager)
        .for(THINGS)
        .for(THINGS)
        .complete({} as Reconciler),
    );
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/once[\s\S]*empty[\s\S]*reconcile method/);
  });

  it('reports a resource without a version or plural', () => {
    const manager = newManager();
    const problems = problemsOf(() =>
      controller('x', manager).for({ group: 'g', version: '', plural: 'things' }).complete(noop),
    );
    expect(problems).toEqual([expect.stringContaining('group, version and plural')]);
  });

  it('names the controller in the error message', () => {
    const manager = newManager();
    expect(() => controller('person-status', manager).complete(noop)).toThrow(
      'controller "person-status" is misconfigured',
    );
  });
});
