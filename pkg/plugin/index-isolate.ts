import ivm from 'isolated-vm';
import { performance } from 'node:perf_hooks';
import { coarseTimeout } from './call-deadline';
import type { IndexFunctionSource } from './index-sandbox';

/** The heap an index isolate may use, by default: a function that allocates past it loses its isolate, nothing else. */
export const DEFAULT_INDEX_MEMORY_MB = 64;

/** Why a call got no answer. */
export type IndexCallFailure = 'timeout' | 'memory' | 'closed';

/** Every function's outcome for one object as JSON text, or why there is none. */
export type IndexCallResult = { text: string } | { failure: IndexCallFailure };

/** What an index function may return, in the error for one that returned something else. */
export const RETURNS = 'an index function returns a string, an array of strings or nothing';
/** How that error names an array that holds something else than strings. */
export const NOT_STRINGS = 'an array holding something else than strings';

// Runs first in every isolate, before any plugin code: keeps its own JSON and Array.isArray (a function that replaces
// the globals cannot change what the host reads), removes what could run code after a call or block the thread, and
// defines `__define(name, fn)` and `__run(json)`, which hands each function its own parse of the object and answers
// every function's values (or error) as one JSON string.
const PRELUDE = `
(() => {
  for (const name of ['Promise', 'FinalizationRegistry', 'WeakRef', 'Atomics', 'SharedArrayBuffer', 'WebAssembly']) {
    delete globalThis[name];
  }
  const { parse, stringify } = JSON;
  const isArray = Array.isArray;
  const fns = [];
  const describe = (v) => (isArray(v) ? ${JSON.stringify(NOT_STRINGS)} : typeof v);
  const valuesOf = (v) => {
    if (v === undefined || v === null) return [];
    if (typeof v === 'string') return [v];
    if (isArray(v) && v.every((x) => typeof x === 'string')) return [...v];
    throw new TypeError('returned ' + describe(v) + '; ' + ${JSON.stringify(RETURNS)});
  };
  const messageOf = (e) => {
    try {
      return String(e !== null && typeof e === 'object' && 'message' in e ? e.message : e);
    } catch {
      return 'the function threw something that cannot be told';
    }
  };
  globalThis.__define = (fn) => {
    if (typeof fn !== 'function') throw new TypeError('not a function');
    fns[fns.length] = fn;
  };
  const run = (json) => {
    const outcomes = [];
    for (let i = 0; i < fns.length; i++) {
      try {
        outcomes[i] = { values: valuesOf(fns[i](parse(json))) };
      } catch (e) {
        outcomes[i] = { error: messageOf(e) };
      }
    }
    return stringify(outcomes);
  };
  globalThis.__run = run;
})();
`;

/**
 * One plugin model's index functions in a V8 isolate of their own
 * (isolated-vm, ADR 0030): a separate heap with nothing of Node's or the
 * apiserver's in it (no `process`, `require`, timers or host objects), so
 * that no property walk, stack trace or returned value leads back to the
 * apiserver. The object goes in as a JSON string and the outcomes come out as
 * one; nothing else crosses. Each call is bounded by a time limit (the
 * isolate is interrupted; the limit is rounded up to group due times, see
 * `coarseTimeout`) and the isolate by a heap limit (it is disposed);
 * an isolate lost to its memory limit is made anew for the next call.
 */
export class IndexIsolate {
  private isolate?: ivm.Isolate;
  private run?: ivm.Reference<(json: string) => string>;
  private closed = false;

  private constructor(
    private readonly plugin: string,
    private readonly functions: IndexFunctionSource[],
    private readonly options: { timeoutMs: number; memoryMb: number },
  ) {}

  /** An isolate with the functions compiled; throws an Error saying which function does not compile. */
  static start(
    plugin: string,
    functions: IndexFunctionSource[],
    options: { timeoutMs: number; memoryMb: number },
  ): IndexIsolate {
    const created = new IndexIsolate(plugin, functions, options);
    created.spawn();
    return created;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Every function's outcome for the object `json`, or why there is none (its isolate is then ready for the next). */
  call(json: string): IndexCallResult {
    if (this.closed) return { failure: 'closed' };
    try {
      const run = this.run ?? this.spawn();
      const timeout = coarseTimeout(this.options.timeoutMs, performance.now());
      const text: unknown = run.applySync(undefined, [json], { timeout });
      // Only a string primitive is ever read; anything else (it cannot be a host object) is a broken prelude.
      if (typeof text !== 'string') throw new Error('the index functions answered something other than text');
      return { text };
    } catch (err) {
      if (this.isolate?.isDisposed !== false) {
        this.drop();
        return { failure: 'memory' };
      }
      if (/timed out/.test((err as Error).message)) return { failure: 'timeout' };
      // The prelude itself failed (a function replaced a built-in it relies on): every function fails with that.
      const error = String((err as Error).message);
      return { text: JSON.stringify(this.functions.map(() => ({ error }))) };
    }
  }

  /** Disposes of the isolate; later calls answer `closed`. */
  close(): void {
    this.closed = true;
    this.drop();
  }

  private spawn(): ivm.Reference<(json: string) => string> {
    const isolate = new ivm.Isolate({
      memoryLimit: this.options.memoryMb,
      // V8 lost control of the isolate (not a mere memory limit, which disposes of it): it is not used again.
      onCatastrophicError: () => this.drop(),
    });
    try {
      const context = isolate.createContextSync();
      isolate
        .compileScriptSync(PRELUDE, { filename: `${this.plugin}-indexes.js` })
        .runSync(context, { timeout: this.options.timeoutMs });
      for (const fn of this.functions) this.compile(isolate, context, fn);
      this.isolate = isolate;
      this.run = context.global.getSync('__run', { reference: true }) as ivm.Reference<(json: string) => string>;
      return this.run;
    } catch (err) {
      isolate.dispose();
      throw err;
    }
  }

  /** Evaluates the source as a function expression, or else as a method (`indexFunc(o) {…}`), and defines it. */
  private compile(isolate: ivm.Isolate, context: ivm.Context, { name, source }: IndexFunctionSource): void {
    const filename = `${this.plugin}-index-${name}.js`;
    for (const wrapped of [`__define((${source}\n));`, `__define(Object.values({${source}\n})[0]);`]) {
      let script: ivm.Script;
      try {
        script = isolate.compileScriptSync(wrapped, { filename });
      } catch {
        continue;
      }
      try {
        script.runSync(context, { timeout: this.options.timeoutMs });
        return;
      } catch {
        continue;
      }
    }
    throw new Error(`index ${name}: the index function's source does not compile as a function`);
  }

  private drop(): void {
    const isolate = this.isolate;
    this.isolate = undefined;
    this.run = undefined;
    if (isolate && !isolate.isDisposed) isolate.dispose();
  }
}
