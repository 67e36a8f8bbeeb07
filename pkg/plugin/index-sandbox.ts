import { Script, createContext, type Context } from 'node:vm';
import type { ApiObject } from '../api/object';
import { invalid, StatusError } from '../api/errors';
import type { IndexValue } from '../storage/indexes';

/** A plugin's index function as it crosses from the worker: its name and its source text. */
export interface IndexFunctionSource {
  name: string;
  source: string;
}

/** Who owns the functions, for the errors a write gets. */
export interface SandboxOwner {
  plugin: string;
  group: string;
  resource: string;
  kind: string;
}

// Runs inside the context: removes what could run code after the time limit or block the thread, and defines
// `__run(json)`, which hands each function its own parse of the object and answers every function's values
// (or error) as one JSON string, so that nothing but a string primitive ever leaves the context.
const PRELUDE = `
for (const name of ['Promise', 'FinalizationRegistry', 'WeakRef', 'Atomics', 'SharedArrayBuffer', 'WebAssembly']) {
  delete globalThis[name];
}
globalThis.__run = (() => {
  const fns = globalThis.__fns;
  delete globalThis.__fns;
  const { parse, stringify } = JSON;
  const isArray = Array.isArray;
  const describe = (v) => (isArray(v) ? 'an array holding something else than strings' : typeof v);
  const valuesOf = (v) => {
    if (v === undefined || v === null) return [];
    if (typeof v === 'string') return [v];
    if (isArray(v) && v.every((x) => typeof x === 'string')) return v;
    throw new TypeError('returned ' + describe(v) + '; an index function returns a string, an array of strings or nothing');
  };
  const messageOf = (e) => String(e !== null && typeof e === 'object' && 'message' in e ? e.message : e);
  return (json) => stringify(fns.map((fn) => {
    try { return { values: valuesOf(fn(parse(json))) }; } catch (e) { return { error: messageOf(e) }; }
  }));
})();
`;

// Work queued on a promise would run after the time limit, on the apiserver's thread: such syntax is refused, and
// the Promise global is removed. (A context with its own microtask queue is not used: terminating a task in it
// can abort the process when async hooks are enabled.)
const ASYNC_SYNTAX = /\b(async|await|import)\b/;

/** How many objects' answers are kept: enough for the writes in flight at once to find theirs. */
const RECENT_ANSWERS = 256;

type Outcome = { values: string[] } | { error: string };

/**
 * Runs a plugin model's index functions (ADR 0014) inside the apiserver,
 * isolated: each is compiled from its source in a `node:vm` context of its
 * own, with only JavaScript's built-ins (no `require`, `process`, timers, or
 * `eval`), and every call is bounded by a time limit. The object goes in as
 * JSON text and the values come out as JSON text, so the functions never hold
 * an object of the apiserver. One timed call computes every function's values
 * for an object; the index functions the storage calls one by one share it.
 * A function that throws or returns something else refuses the write (422);
 * one that runs out of time refuses it too (500); the process is not harmed.
 */
export class IndexSandbox {
  private readonly context: Context;
  private readonly run: Script;
  /** Recent answers by the object's JSON text: the storage asks for each index, and for one state more than once. */
  private readonly recent = new Map<string, Outcome[]>();

  constructor(
    private readonly owner: SandboxOwner,
    private readonly functions: IndexFunctionSource[],
    private readonly timeoutMs: number,
  ) {
    this.context = createContext({}, { codeGeneration: { strings: false, wasm: false } });
    this.context.__fns = functions.map((f) => this.compile(f));
    new Script(PRELUDE, { filename: `${owner.plugin}-indexes.js` }).runInContext(this.context, { timeout: timeoutMs });
    this.run = new Script('__run(__json)');
  }

  /** The index function the storage calls for index `name`. */
  indexFunc(name: string): (object: ApiObject) => IndexValue {
    const position = this.functions.findIndex((f) => f.name === name);
    return (object) => {
      const outcome = this.outcomes(object)[position];
      if ('error' in outcome) throw this.refusal(name, object, outcome.error);
      return outcome.values;
    };
  }

  private outcomes(object: ApiObject): Outcome[] {
    const json = JSON.stringify(object);
    const known = this.recent.get(json);
    if (known) return known;
    const text = this.timedRun(json) ?? this.timedRun(json);
    if (text === undefined) {
      throw new StatusError(
        500,
        'InternalError',
        `the index functions of plugin "${this.owner.plugin}" did not finish within ${this.timeoutMs}ms`,
      );
    }
    const outcomes = JSON.parse(text) as Outcome[];
    this.recent.set(json, outcomes);
    if (this.recent.size > RECENT_ANSWERS) this.recent.delete(this.recent.keys().next().value!);
    return outcomes;
  }

  /**
   * One run of every function, bounded; undefined when it ran out of time. The limit is wall-clock time, which a
   * loaded machine or a garbage collection pause stretches: the caller tries a second time before refusing.
   */
  private timedRun(json: string): string | undefined {
    this.context.__json = json;
    try {
      return this.run.runInContext(this.context, { timeout: this.timeoutMs }) as string;
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
      return undefined;
    } finally {
      this.context.__json = undefined;
    }
  }

  private refusal(index: string, object: ApiObject, error: string): StatusError {
    const { group, resource, kind, plugin } = this.owner;
    return invalid({ group, resource, kind, name: object.metadata?.name }, [
      {
        field: `index ${index}`,
        reason: 'FieldValueInvalid',
        message: `the index function of plugin "${plugin}" failed: ${error}`,
      },
    ]);
  }

  /** A function compiled in the context; a method (`indexFunc(o) {…}`) is taken from an object literal. */
  private compile({ name, source }: IndexFunctionSource): unknown {
    if (ASYNC_SYNTAX.test(source)) {
      throw new Error(`index ${name}: an index function must be synchronous (async, await and import are not allowed)`);
    }
    const options = { filename: `${this.owner.plugin}-index-${name}.js`, timeout: this.timeoutMs };
    for (const wrapped of [`(${source})`, `(Object.values({${source}})[0])`]) {
      let script: Script;
      try {
        script = new Script(wrapped, options);
      } catch {
        continue;
      }
      const fn = script.runInContext(this.context, options) as unknown;
      if (typeof fn === 'function') return fn;
    }
    throw new Error(`index ${name}: the index function's source does not compile as a function`);
  }
}
