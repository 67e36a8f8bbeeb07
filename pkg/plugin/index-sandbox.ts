import type { ApiObject } from '../api/object';
import { invalid, serviceUnavailable, StatusError } from '../api/errors';
import type { IndexValue } from '../storage/indexes';
import { compileIndexExpression, type IndexExpression } from './index-expression';
import { IndexIsolate, type IndexCallFailure } from './index-isolate';

/** A plugin's index function as it crosses from the worker: its name and its source text. */
export interface IndexFunctionSource {
  name: string;
  source: string;
}

/** The limits of a model's index functions: per call (time) and per isolate (heap). */
export interface SandboxLimits {
  timeoutMs: number;
  memoryMb: number;
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
 * Runs a plugin model's index functions (ADR 0014, ADR 0030) where nothing
 * leads back to the apiserver: compiled from their source in a V8 isolate of
 * their own (an IndexIsolate: only JavaScript's built-ins, no `require`,
 * `process`, timers or host object), with its own heap limit, each call
 * bounded by a time limit. The object goes in as JSON text and the values
 * come out as JSON text. One call computes every function's values for an
 * object; the index functions the storage calls one by one share it. A
 * function that throws or returns something else refuses the write (422);
 * one that runs out of time or memory refuses it too (500, naming the
 * limit); the apiserver is not harmed. When every function only reads a
 * path of the object, the apiserver reads it itself, with the same outcome,
 * and enters the isolate only for objects on which a step needs JavaScript's
 * own answer (ADR 0065).
 */
export class IndexSandbox {
  /** Recent answers by the object's JSON text: the storage asks for each index, and for one state more than once. */
  private readonly recent = new Map<string, Outcome[]>();
  /** The last object's answers: the storage asks for each index of a write in a row, cheaper than a map lookup. */
  private last?: { json: string; outcomes: Outcome[] };
  /**
   * The object the last answers were computed for, until the end of the current turn: the storage asks for each of
   * a write's indexes with the same object, one after the other, so the later asks need not turn it into text again.
   * Kept for the turn only, so that an object changed in place and written again is always read afresh.
   */
  private lastObject?: ApiObject;
  /**
   * Every function as a path read in the apiserver (ADR 0065), when every one of them is such a path; the isolate
   * then answers only for objects on which a path step needs JavaScript's own answer. With one function of another
   * kind the isolate runs for every object anyway, and answers them all.
   */
  private readonly expressions?: IndexExpression[];

  private constructor(
    private readonly owner: SandboxOwner,
    private readonly functions: IndexFunctionSource[],
    private readonly isolate: IndexIsolate,
    private readonly limits: SandboxLimits,
  ) {
    const expressions = functions.map((f) => compileIndexExpression(f.source));
    if (expressions.every((e) => e !== undefined)) this.expressions = expressions as IndexExpression[];
  }

  /** A sandbox with its functions compiled; rejects with an Error saying which function is wrong. */
  static async create(
    owner: SandboxOwner,
    functions: IndexFunctionSource[],
    limits: SandboxLimits,
  ): Promise<IndexSandbox> {
    for (const { name, source } of functions) {
      if (ASYNC_SYNTAX.test(source)) {
        throw new Error(
          `index ${name}: an index function must be synchronous (async, await and import are not allowed)`,
        );
      }
    }
    const isolate = IndexIsolate.start(owner.plugin, functions, limits);
    return new IndexSandbox(owner, functions, isolate, limits);
  }

  /** The index function the storage calls for index `name`. */
  indexFunc(name: string): (object: ApiObject) => IndexValue {
    const position = this.functions.findIndex((f) => f.name === name);
    return (object) => {
      const outcome = this.outcome(position, object);
      if ('error' in outcome) throw this.refusal(name, object, outcome.error);
      return outcome.values;
    };
  }

  /** Disposes of the functions' isolate (the plugin stopped); later writes are refused with 503. */
  close(): void {
    this.isolate.close();
  }

  /** One function's outcome: read in the apiserver when it can be, else every function's from the isolate. */
  private outcome(position: number, object: ApiObject): Outcome {
    if (this.expressions !== undefined && !this.isolate.isClosed) {
      const read = this.expressions[position](object);
      if (read !== undefined) return read;
    }
    return this.outcomes(object)[position];
  }

  private outcomes(object: ApiObject): Outcome[] {
    if (this.lastObject === object && this.last !== undefined) return this.last.outcomes;
    const json = JSON.stringify(object);
    if (this.last?.json !== json) this.last = { json, outcomes: this.recent.get(json) ?? this.answered(json) };
    if (this.lastObject === undefined) queueMicrotask(() => (this.lastObject = undefined));
    this.lastObject = object;
    return this.last.outcomes;
  }

  private answered(json: string): Outcome[] {
    const result = this.isolate.call(json);
    if ('failure' in result) throw this.unanswered(result.failure);
    const outcomes = checkedOutcomes(result.text, this.functions.length);
    this.recent.set(json, outcomes);
    if (this.recent.size > RECENT_ANSWERS) this.recent.delete(this.recent.keys().next().value!);
    return outcomes;
  }

  private unanswered(failure: IndexCallFailure): StatusError {
    const { plugin } = this.owner;
    if (failure === 'closed')
      return serviceUnavailable(`plugin "${plugin}" is stopped: its index functions no longer run`);
    const why =
      failure === 'timeout'
        ? `did not finish within ${this.limits.timeoutMs}ms (the index function time limit)`
        : `went past their memory limit of ${this.limits.memoryMb} MiB`;
    return new StatusError(500, 'InternalError', `the index functions of plugin "${plugin}" ${why}`);
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

/**
 * The outcomes the isolate answered, each checked: the text comes from code a plugin's functions may have tampered
 * with (a replaced `toJSON`, say), so anything but an array of strings or an error message is an error.
 */
function checkedOutcomes(text: string, count: number): Outcome[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const list = Array.isArray(parsed) ? (parsed as unknown[]) : [];
  const outcomes: Outcome[] = new Array<Outcome>(count);
  for (let i = 0; i < count; i++) outcomes[i] = checkedOutcome(list[i]);
  return outcomes;
}

function checkedOutcome(answer: unknown): Outcome {
  const outcome = answer as { values?: unknown; error?: unknown } | null | undefined;
  if (typeof outcome?.error === 'string') return { error: outcome.error };
  const values = outcome?.values;
  if (Array.isArray(values) && allStrings(values)) return { values: values as string[] };
  return { error: 'the index functions answered something other than their values' };
}

function allStrings(values: unknown[]): boolean {
  for (const value of values) if (typeof value !== 'string') return false;
  return true;
}
