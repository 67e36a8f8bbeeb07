import type { ApiObject } from '../api/object';
import { invalid, serviceUnavailable, StatusError } from '../api/errors';
import type { IndexValue } from '../storage/indexes';
import { IndexWorker } from './index-worker';

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

// Work queued on a promise could outlive the call; such syntax is refused, and the Promise global is removed.
const ASYNC_SYNTAX = /\b(async|await|import)\b/;

/** How many objects' answers are kept: enough for the writes in flight at once to find theirs. */
const RECENT_ANSWERS = 256;

type Outcome = { values: string[] } | { error: string };

/**
 * Runs a plugin model's index functions (ADR 0014, ADR 0022) isolated from
 * the apiserver: compiled from their source in a `node:vm` context of their
 * own (only JavaScript's built-ins: no `require`, `process`, timers or
 * `eval`), on a thread of their own (an IndexWorker) with its own heap
 * limit, each call bounded by a time limit. The object goes in as JSON text
 * and the values come out as JSON text. One call computes every function's
 * values for an object; the index functions the storage calls one by one
 * share it. A function that throws or returns something else refuses the
 * write (422); one that runs out of time or memory refuses it too (500) and
 * its thread is replaced; the apiserver is not harmed.
 */
export class IndexSandbox {
  /** Recent answers by the object's JSON text: the storage asks for each index, and for one state more than once. */
  private readonly recent = new Map<string, Outcome[]>();

  private constructor(
    private readonly owner: SandboxOwner,
    private readonly functions: IndexFunctionSource[],
    private readonly worker: IndexWorker,
    private readonly timeoutMs: number,
  ) {}

  /** A sandbox with its functions compiled; rejects with an Error saying which function is wrong. */
  static async create(owner: SandboxOwner, functions: IndexFunctionSource[], timeoutMs: number): Promise<IndexSandbox> {
    for (const { name, source } of functions) {
      if (ASYNC_SYNTAX.test(source)) {
        throw new Error(
          `index ${name}: an index function must be synchronous (async, await and import are not allowed)`,
        );
      }
    }
    const worker = await IndexWorker.start(owner.plugin, functions, timeoutMs);
    return new IndexSandbox(owner, functions, worker, timeoutMs);
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

  /** Ends the functions' thread (the plugin stopped); later writes are refused with 503. */
  close(): void {
    this.worker.close();
  }

  private outcomes(object: ApiObject): Outcome[] {
    const json = JSON.stringify(object);
    const known = this.recent.get(json);
    if (known) return known;
    // The limit is wall-clock time, which a loaded machine or a garbage collection pause stretches: a call that gets
    // no answer is tried once more (on a new thread) before the write is refused.
    const text = this.worker.call(json) ?? this.worker.call(json);
    if (text === undefined) throw this.unanswered();
    const outcomes = JSON.parse(text) as Outcome[];
    this.recent.set(json, outcomes);
    if (this.recent.size > RECENT_ANSWERS) this.recent.delete(this.recent.keys().next().value!);
    return outcomes;
  }

  private unanswered(): StatusError {
    const { plugin } = this.owner;
    if (this.worker.isClosed)
      return serviceUnavailable(`plugin "${plugin}" is stopped: its index functions no longer run`);
    return new StatusError(
      500,
      'InternalError',
      `the index functions of plugin "${plugin}" did not finish within ${this.timeoutMs}ms (or ran out of memory)`,
    );
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
}
