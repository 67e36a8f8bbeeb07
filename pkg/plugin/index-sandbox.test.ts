import type { ApiObject } from '../api/object';
import { StatusError } from '../api/errors';
import { IndexSandbox, type IndexFunctionSource } from './index-sandbox';

const owner = { plugin: 'people', group: 'people.example.com', resource: 'persons', kind: 'Person' };
const person = (spec: Record<string, unknown>): ApiObject =>
  ({ apiVersion: 'people.example.com/v1', kind: 'Person', metadata: { name: 'ada' }, spec }) as ApiObject;
const sandbox = (functions: Record<string, (o: any) => unknown>, timeoutMs = 100) =>
  new IndexSandbox(
    owner,
    Object.entries(functions).map(([name, fn]): IndexFunctionSource => ({ name, source: fn.toString() })),
    timeoutMs,
  );
const refusal = (fn: () => unknown): StatusError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('IndexSandbox', () => {
  it('runs single- and multi-valued functions, arrows, functions and methods, on the object', () => {
    const box = new IndexSandbox(
      owner,
      [
        { name: 'name', source: ((o: any) => o.spec.name).toString() },
        { name: 'tags', source: 'function (o) { return o.spec.tags; }' },
        { name: 'upper', source: 'indexFunc(o) { return o.spec.name.toUpperCase(); }' },
        { name: 'none', source: '() => undefined' },
      ],
      100,
    );
    const object = person({ name: 'ada', tags: ['x', 'y'] });
    expect(box.indexFunc('name')(object)).toEqual(['ada']);
    expect(box.indexFunc('tags')(object)).toEqual(['x', 'y']);
    expect(box.indexFunc('upper')(object)).toEqual(['ADA']);
    expect(box.indexFunc('none')(object)).toEqual([]);
  });

  it('hands each function its own copy: a function cannot change the stored object or what another sees', () => {
    const box = sandbox({
      a: (o) => {
        o.spec.name = 'changed';
        return o.spec.name;
      },
      b: (o) => o.spec.name,
    });
    const object = person({ name: 'ada' });
    expect(box.indexFunc('a')(object)).toEqual(['changed']);
    expect(box.indexFunc('b')(object)).toEqual(['ada']);
    expect((object.spec as { name: string }).name).toBe('ada');
  });

  it('gives no access to require, process, eval or timers', () => {
    const box = new IndexSandbox(
      owner,
      [
        { name: 'require', source: '() => typeof require + typeof process + typeof setTimeout' },
        { name: 'eval', source: '() => eval("1")' },
        { name: 'escape', source: '(o) => o.constructor.constructor("return process")().pid' },
      ],
      100,
    );
    const object = person({});
    expect(box.indexFunc('require')(object)).toEqual(['undefinedundefinedundefined']);
    expect(refusal(() => box.indexFunc('eval')(object)).code).toBe(422);
    expect(refusal(() => box.indexFunc('escape')(object)).message).toContain('Code generation from strings disallowed');
  });

  it('refuses the write with 422 naming the index when a function throws or returns something else', () => {
    const box = sandbox({
      throws: () => {
        throw new Error('no name');
      },
      number: () => 42,
      thenable: () => ({ then: () => 'x' }),
    });
    const object = person({});
    const thrown = refusal(() => box.indexFunc('throws')(object));
    expect(thrown.code).toBe(422);
    expect(thrown.reason).toBe('Invalid');
    expect(thrown.message).toContain('index throws: the index function of plugin "people" failed: no name');
    expect(refusal(() => box.indexFunc('number')(object)).message).toContain('returned number');
    expect(refusal(() => box.indexFunc('thenable')(object)).message).toContain('returned object');
  });

  it('stops a function that loops with a 500, and keeps working afterwards', () => {
    const box = sandbox(
      {
        loop: (o) => {
          if (o.spec.loop) for (;;);
          return 'fine';
        },
      },
      50,
    );
    const stopped = refusal(() => box.indexFunc('loop')(person({ loop: true })));
    expect(stopped.code).toBe(500);
    expect(stopped.message).toBe('the index functions of plugin "people" did not finish within 50ms');
    expect(box.indexFunc('loop')(person({}))).toEqual(['fine']);
  });

  it('refuses asynchronous functions, whose work would outlive the time limit, and has no Promise', () => {
    for (const source of ['async (o) => o.spec.name', '(o) => { import("fs"); }']) {
      expect(() => new IndexSandbox(owner, [{ name: 'x', source }], 100)).toThrow(
        'index x: an index function must be synchronous',
      );
    }
    const box = new IndexSandbox(owner, [{ name: 'p', source: '() => typeof Promise' }], 100);
    expect(box.indexFunc('p')(person({}))).toEqual(['undefined']);
  });

  it('refuses a source that is not a function', () => {
    expect(() => new IndexSandbox(owner, [{ name: 'x', source: 'function () { [native code] }' }], 100)).toThrow(
      "index x: the index function's source does not compile as a function",
    );
  });
});
