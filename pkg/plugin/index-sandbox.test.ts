import type { ApiObject } from '../api/object';
import { StatusError } from '../api/errors';
import { IndexIsolate } from './index-isolate';
import { IndexSandbox, type IndexFunctionSource } from './index-sandbox';

const owner = { plugin: 'people', group: 'people.example.com', resource: 'persons', kind: 'Person' };
const person = (spec: Record<string, unknown>): ApiObject =>
  ({ apiVersion: 'people.example.com/v1', kind: 'Person', metadata: { name: 'ada' }, spec }) as ApiObject;
const opened: IndexSandbox[] = [];
afterEach(() => opened.splice(0).forEach((box) => box.close()));
const create = async (functions: IndexFunctionSource[], timeoutMs = 1000) => {
  const box = await IndexSandbox.create(owner, functions, { timeoutMs, memoryMb: 64 });
  opened.push(box);
  return box;
};
const sandbox = (functions: Record<string, (o: any) => unknown>, timeoutMs?: number) =>
  create(
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
  it('runs single- and multi-valued functions, arrows, functions and methods, on the object', async () => {
    const box = await create([
      { name: 'name', source: ((o: any) => o.spec.name).toString() },
      { name: 'tags', source: 'function (o) { return o.spec.tags; }' },
      { name: 'upper', source: 'indexFunc(o) { return o.spec.name.toUpperCase(); }' },
      { name: 'none', source: '() => undefined' },
    ]);
    const object = person({ name: 'ada', tags: ['x', 'y'] });
    expect(box.indexFunc('name')(object)).toEqual(['ada']);
    expect(box.indexFunc('tags')(object)).toEqual(['x', 'y']);
    expect(box.indexFunc('upper')(object)).toEqual(['ADA']);
    expect(box.indexFunc('none')(object)).toEqual([]);
  });

  it('hands each function its own copy: a function cannot change the stored object or what another sees', async () => {
    const box = await sandbox({
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

  it('gives no access to require, process or timers', async () => {
    const box = await create([
      {
        name: 'require',
        source: '() => typeof require + typeof process + typeof setTimeout + typeof globalThis.global',
      },
      { name: 'escape', source: '(o) => o.constructor.constructor("return typeof process")()' },
    ]);
    const object = person({});
    expect(box.indexFunc('require')(object)).toEqual(['undefinedundefinedundefinedundefined']);
    expect(box.indexFunc('escape')(object)).toEqual(['undefined']);
  });

  // The known ways out of a node:vm context: each looks for the apiserver's `process` and finds none.
  it('leads nowhere through this, arguments.callee, stack traces or the values it hands back', async () => {
    const box = await create([
      { name: 'this', source: 'function () { return this.constructor.constructor("return typeof process")(); }' },
      {
        name: 'callee',
        source: `function f() {
          const caller = arguments.callee.caller;
          if (!caller) return 'no caller';
          return caller.constructor('return typeof process')();
        }`,
      },
      {
        name: 'stack',
        source: `(o) => {
          Error.prepareStackTrace = (e, frames) => frames.map((frame) => {
            const self = frame.getThis && frame.getThis();
            if (self && self.process) return 'process';
            const fn = frame.getFunction && frame.getFunction();
            if (fn && fn.constructor('return typeof process')() !== 'undefined') return 'process';
            return '-';
          }).join('');
          return new Error('x').stack.includes('process') ? 'escaped' : 'contained';
        }`,
      },
      { name: 'getter', source: `() => ({ toString: () => typeof process, get length() { return typeof process; } })` },
    ]);
    const object = person({});
    expect(box.indexFunc('this')(object)).toEqual(['undefined']);
    expect(box.indexFunc('callee')(object)).not.toEqual(['object']);
    expect(box.indexFunc('stack')(object)).toEqual(['contained']);
    expect(refusal(() => box.indexFunc('getter')(object)).message).toContain('returned object');
    const replaced = await create([
      // Replaced globals when the functions are loaded: what goes back to the host is still only a string.
      {
        name: 'proxy',
        source: `(JSON.stringify = () => new Proxy({}, { get: () => this.constructor.constructor('return typeof process')() }),
          Array.prototype.map = function () { return new Proxy([], {}); },
          (o) => 'fine')`,
      },
    ]);
    expect(replaced.indexFunc('proxy')(object)).toEqual(['fine']);
    const tampered = await create([
      {
        name: 'tojson',
        source: `(Array.prototype.toJSON = function () { return this.length === 1 ? [1] : 'x'; },
          Array.prototype.every = () => true,
          (o) => [3])`,
      },
    ]);
    expect(refusal(() => tampered.indexFunc('tojson')(object)).message).toContain(
      'the index functions answered something other than their values',
    );
  });

  it('refuses the write with 422 naming the index when a function throws or returns something else', async () => {
    const box = await sandbox({
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

  it('stops a function that loops with a 500, and keeps working afterwards', async () => {
    const box = await sandbox(
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
    expect(stopped.message).toBe(
      'the index functions of plugin "people" did not finish within 50ms (the index function time limit)',
    );
    expect(box.indexFunc('loop')(person({}))).toEqual(['fine']);
  });

  it('ends a function that allocates past its heap limit with a 500, in its own isolate, and keeps working', async () => {
    const box = await sandbox(
      {
        hog: (o) => {
          const held = [];
          if (o.spec.hog) for (;;) held.push(new Array(1e5).fill(o.spec.hog));
          return 'fine';
        },
      },
      10_000,
    );
    const before = process.memoryUsage().heapUsed;
    const refused = refusal(() => box.indexFunc('hog')(person({ hog: 'x' })));
    expect(refused.code).toBe(500);
    expect(refused.message).toBe('the index functions of plugin "people" went past their memory limit of 64 MiB');
    // The isolate's heap (64 MiB) ran out, not the apiserver's, which is no larger for it.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(32 * 1024 * 1024);
    expect(box.indexFunc('hog')(person({}))).toEqual(['fine']);
  }, 30_000);

  it('counts ArrayBuffers against the memory limit: a huge one is not allocated and the write is refused', async () => {
    const box = await create([
      { name: 'buffer', source: '() => String(new ArrayBuffer(1024 * 1024 * 1024).byteLength)' },
    ]);
    const refused = refusal(() => box.indexFunc('buffer')(person({})));
    expect(refused.code).toBe(422);
    expect(refused.message).toContain('Array buffer allocation failed');
  });

  it('keeps a function that changes the built-ins to the sandbox: the apiserver and other models do not see it', async () => {
    const box = await sandbox({ patch: (o) => ((String.prototype.trim = () => 'patched'), o.spec.name.trim()) });
    const other = await sandbox({ trim: (o) => o.spec.name.trim() });
    expect(box.indexFunc('patch')(person({ name: ' ada ' }))).toEqual(['patched']);
    expect(other.indexFunc('trim')(person({ name: ' ada ' }))).toEqual(['ada']);
    expect(' ada '.trim()).toBe('ada');
  });

  it('runs the functions once for an object whose indexes are asked in turn, and again for a changed object', async () => {
    // Each call into the isolate bumps a counter its globals keep: the values say which call answered.
    const box = await create([
      { name: 'first', source: '() => String((globalThis.calls = (globalThis.calls || 0) + 1))' },
      { name: 'second', source: '() => String(globalThis.calls)' },
    ]);
    const ada = person({ name: 'ada' });
    expect(box.indexFunc('first')(ada)).toEqual(['1']);
    expect(box.indexFunc('second')(ada)).toEqual(['1']);
    expect(box.indexFunc('second')(person({ name: 'ada' }))).toEqual(['1']);
    const grace = person({ name: 'grace' });
    expect(box.indexFunc('second')(grace)).toEqual(['2']);
    expect(box.indexFunc('first')(grace)).toEqual(['2']);
    expect(box.indexFunc('first')(ada)).toEqual(['1']);
    expect(box.indexFunc('first')(person({ name: 'ada', age: 36 }))).toEqual(['3']);
  });

  it('reads an object changed in place afresh once the turn that asked for it has ended', async () => {
    const box = await sandbox({ name: (o) => o.spec.name });
    const ada = person({ name: 'ada' });
    expect(box.indexFunc('name')(ada)).toEqual(['ada']);
    await Promise.resolve();
    (ada.spec as Record<string, unknown>).name = 'grace';
    expect(box.indexFunc('name')(ada)).toEqual(['grace']);
  });

  it('refuses writes with 503 once the plugin stopped (its functions no longer run)', async () => {
    const box = await sandbox({ name: (o) => o.spec.name });
    expect(box.indexFunc('name')(person({ name: 'ada' }))).toEqual(['ada']);
    box.close();
    const refused = refusal(() => box.indexFunc('name')(person({ name: 'grace' })));
    expect(refused.code).toBe(503);
    expect(refused.message).toBe('plugin "people" is stopped: its index functions no longer run');
  });

  it('answers functions that read a path without entering the isolate, and asks it where JavaScript must tell', async () => {
    const calls = jest.spyOn(IndexIsolate.prototype, 'call');
    try {
      const box = await create([
        { name: 'name', source: '(o) => o.spec.name' },
        { name: 'email', source: '(o) => o.spec.email?.toLowerCase()' },
      ]);
      const ada = person({ name: 'ada', email: 'ADA@EXAMPLE.COM' });
      expect([box.indexFunc('name')(ada), box.indexFunc('email')(ada)]).toEqual([['ada'], ['ada@example.com']]);
      expect(refusal(() => box.indexFunc('name')(person({ name: 7 }))).message).toContain('returned number');
      expect(calls).not.toHaveBeenCalled();
      // A fold of a number is JavaScript's to tell: the isolate answers, for both functions at once.
      const odd = person({ name: { length: 3 }, email: 5 });
      expect(refusal(() => box.indexFunc('email')(odd)).message).toContain('toLowerCase is not a function');
      expect(calls).toHaveBeenCalledTimes(1);
      // One function outside the form sends every object to the isolate.
      const mixed = await create([
        { name: 'name', source: '(o) => o.spec.name' },
        { name: 'upper', source: '(o) => String(o.spec.name).toUpperCase()' },
      ]);
      expect(mixed.indexFunc('upper')(ada)).toEqual(['ADA']);
      expect(calls).toHaveBeenCalledTimes(2);
    } finally {
      calls.mockRestore();
    }
  });

  it('refuses asynchronous functions, whose work would outlive the time limit, and has no Promise', async () => {
    for (const source of ['async (o) => o.spec.name', '(o) => { import("fs"); }']) {
      await expect(create([{ name: 'x', source }])).rejects.toThrow('index x: an index function must be synchronous');
    }
    const box = await create([{ name: 'p', source: '() => typeof Promise' }]);
    expect(box.indexFunc('p')(person({}))).toEqual(['undefined']);
  });

  it('refuses a source that is not a function', async () => {
    await expect(create([{ name: 'x', source: 'function () { [native code] }' }])).rejects.toThrow(
      "index x: the index function's source does not compile as a function",
    );
  });
});
