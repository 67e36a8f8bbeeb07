/**
 * Index functions that only read a path of the object, answered in the
 * apiserver without entering their isolate (ADR 0065).
 *
 * Most index functions are a property path, perhaps optional and perhaps
 * with a case fold: `(person) => person.spec.email?.toLowerCase()`. For such a
 * source this module builds an evaluator that gives exactly what the function
 * gives in its isolate: the same values, or the same error message. Anything
 * it cannot match exactly is left to the isolate, at compile time (a source
 * outside the form below) or per object (a step whose JavaScript answer it
 * does not reproduce, such as a property inherited from a prototype, or a
 * property of a number).
 *
 * The form, for a parameter `p` (as an arrow with or without parentheses and
 * with an expression or `{ return …; }` body, a `function`, or a method):
 *
 *     p  ( . name | ?. name | [ 'name' ] | ?.[ 'name' ] | . fold() | ?. fold() )*
 *        [ ( ?? | || ) ( 'text' | [] ) ]
 *
 * where `fold` is `toLowerCase`, `toUpperCase` or `trim` (one fold at most),
 * in at most 32 steps. No other call, operator, comment, escape or variable is
 * accepted. Evaluation reads own properties of plain data and calls nothing
 * but those three methods of string primitives: it cannot loop, reach a
 * function or leave the object.
 */

import { types } from 'node:util';
import { NOT_STRINGS, RETURNS } from './index-isolate';

/** One function's answer for an object: its values, its error, or `undefined` when only the isolate can tell. */
export type ExpressionOutcome = { values: string[] } | { error: string } | undefined;

/** Evaluates a compiled index expression on an object. */
export type IndexExpression = (object: unknown) => ExpressionOutcome;

type Step = { kind: 'read'; key: string; optional: boolean } | { kind: 'fold'; method: Fold; optional: boolean };
type Fold = 'toLowerCase' | 'toUpperCase' | 'trim';

const FOLDS: ReadonlySet<string> = new Set<Fold>(['toLowerCase', 'toUpperCase', 'trim']);
/** Words that cannot name the parameter or make the source something else than the form. */
const RESERVED = new Set(['function', 'return', 'async', 'await', 'yield', 'this', 'new', 'class', 'arguments']);
const MAX_STEPS = 32;
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,8})$/;
/** What a step answers when only the isolate can tell. */
const ISOLATE = Symbol('isolate');

/** The evaluator for a function source in the form, or `undefined` when the source is outside it. */
export function compileIndexExpression(source: string): IndexExpression | undefined {
  const tokens = tokenize(source);
  if (tokens === undefined) return undefined;
  const parsed = parseFunction(tokens);
  if (parsed === undefined || !withinBounds(parsed.steps)) return undefined;
  const { steps, fallback } = parsed;
  return (object) => {
    const read = walk(object, steps);
    if (read === ISOLATE) return undefined;
    if (read instanceof ReadError) return { error: read.message };
    const outcome = valuesOf(fallback === undefined ? read : fallback(read));
    return outcome === ISOLATE ? undefined : outcome;
  };
}

/**
 * A path short enough that reading it costs no more than a path index: the isolate's time limit bounds the rest.
 * One fold at most, since each one walks the whole string (a thousand folds of a long string would take seconds).
 */
function withinBounds(steps: Step[]): boolean {
  return steps.length <= MAX_STEPS && steps.filter((s) => s.kind === 'fold').length <= 1;
}

type Token = { kind: 'word' | 'string' | 'punct'; text: string; newlineBefore: boolean };

/** One token: blanks, a line break, a word, a quoted string without escapes, or punctuation (`?.` not before a digit). */
const TOKEN =
  /([ \t]+)|(\r\n?|\n)|([A-Za-z_$][\w$]*)|'([^'\\\n\r\u2028\u2029]*)'|"([^"\\\n\r\u2028\u2029]*)"|(=>|\?\?|\|\||\?\.(?!\d)|[(){}[\].;])/y;

/** The source as tokens, or `undefined` when it holds anything the form has no use for (comments, escapes, …). */
function tokenize(source: string): Token[] | undefined {
  const pattern = new RegExp(TOKEN);
  const tokens: Token[] = [];
  let newlineBefore = false;
  while (pattern.lastIndex < source.length) {
    const match = pattern.exec(source);
    if (match === null) return undefined;
    if (match[1] !== undefined) continue;
    if (match[2] !== undefined) {
      newlineBefore = true;
      continue;
    }
    tokens.push(tokenOf(match, newlineBefore));
    newlineBefore = false;
  }
  return tokens;
}

function tokenOf(match: RegExpExecArray, newlineBefore: boolean): Token {
  if (match[3] !== undefined) return { kind: 'word', text: match[3], newlineBefore };
  if (match[6] !== undefined) return { kind: 'punct', text: match[6], newlineBefore };
  return { kind: 'string', text: match[4] ?? match[5], newlineBefore };
}

/** What the function computes: a path and perhaps a value in its place when it is nothing (`??`) or falsy (`||`). */
interface Parsed {
  steps: Step[];
  fallback?: (value: unknown) => unknown;
}

/** The function's path and fallback, or `undefined` when the tokens are not a function of the form. */
function parseFunction(tokens: Token[]): Parsed | undefined {
  const at = new Cursor(tokens);
  const head = parseHead(at);
  if (head === undefined || (head.block && !openReturn(at))) return undefined;
  const steps = parsePath(at, head.param);
  if (steps === undefined) return undefined;
  const fallback = parseFallback(at);
  if (fallback === undefined || (head.block && !closeBlock(at))) return undefined;
  return at.done() ? { steps, fallback: fallback ?? undefined } : undefined;
}

/**
 * `?? 'text'`, `|| 'text'`, `?? []` or `|| []` as a function of the path's value; `null` when there is none, `undefined`
 * when what follows the path is something else.
 */
function parseFallback(at: Cursor): ((value: unknown) => unknown) | null | undefined {
  const operator = at.peekPunct();
  if (operator !== '??' && operator !== '||') return null;
  at.next();
  const nullish = operator === '??';
  const text = at.string();
  if (text === undefined && !(at.punct('[') && at.punct(']'))) return undefined;
  // A new array each time, as the function makes one on each call.
  const literal = () => (text === undefined ? [] : text);
  return nullish ? (value) => value ?? literal() : (value) => value || literal();
}

/** The parameter, and whether a `{ return …; }` body follows: a `function`, a method or an arrow. */
function parseHead(at: Cursor): { param: string; block: boolean } | undefined {
  const withParam = (param: string | undefined, block: boolean) => (param === undefined ? undefined : { param, block });
  if (at.word('function')) {
    at.name();
    return withParam(at.parameter(), true);
  }
  if (at.peekWord() !== undefined && at.peekPunct(1) === '(') {
    at.next();
    return withParam(at.parameter(), true);
  }
  const param = at.peekPunct() === '(' ? at.parameter() : at.name();
  if (!at.punct('=>')) return undefined;
  return withParam(param, at.peekPunct() === '{');
}

/** `{ return` with the path on the same line: after a line break, `return` returns nothing. */
function openReturn(at: Cursor): boolean {
  return at.punct('{') && at.word('return') && at.peek()?.newlineBefore !== true;
}

function closeBlock(at: Cursor): boolean {
  at.punct(';');
  return at.punct('}');
}

function parsePath(at: Cursor, param: string): Step[] | undefined {
  if (at.name() !== param) return undefined;
  const steps: Step[] = [];
  for (let punct = at.peekPunct(); punct === '.' || punct === '?.' || punct === '['; punct = at.peekPunct()) {
    at.next();
    const step = parseStep(at, punct);
    if (step === undefined) return undefined;
    steps.push(step);
  }
  return steps;
}

/** The step after `.`, `?.` or `[`. */
function parseStep(at: Cursor, punct: string): Step | undefined {
  const optional = punct === '?.';
  if (punct === '[' || (optional && at.punct('['))) {
    const key = at.string();
    return key !== undefined && at.punct(']') ? { kind: 'read', key, optional } : undefined;
  }
  const key = at.anyWord();
  if (key === undefined) return undefined;
  if (!at.punct('(')) return { kind: 'read', key, optional };
  return FOLDS.has(key) && at.punct(')') ? { kind: 'fold', method: key as Fold, optional } : undefined;
}

class Cursor {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  peekPunct(offset = 0): string | undefined {
    const t = this.peek(offset);
    return t?.kind === 'punct' ? t.text : undefined;
  }
  peekWord(): string | undefined {
    const t = this.peek();
    return t?.kind === 'word' && !RESERVED.has(t.text) ? t.text : undefined;
  }
  next(): Token | undefined {
    return this.tokens[this.i++];
  }
  punct(text: string): boolean {
    if (this.peekPunct() !== text) return false;
    this.i++;
    return true;
  }
  word(text: string): boolean {
    const t = this.peek();
    if (t?.kind !== 'word' || t.text !== text) return false;
    this.i++;
    return true;
  }
  /** A name that may be a parameter or a variable. */
  name(): string | undefined {
    const word = this.peekWord();
    if (word !== undefined) this.i++;
    return word;
  }
  /** A property name after `.`: any word, reserved ones included. */
  anyWord(): string | undefined {
    const t = this.peek();
    if (t?.kind !== 'word') return undefined;
    this.i++;
    return t.text;
  }
  string(): string | undefined {
    const t = this.peek();
    if (t?.kind !== 'string') return undefined;
    this.i++;
    return t.text;
  }
  /** `( name )`: exactly one plain parameter. */
  parameter(): string | undefined {
    if (!this.punct('(')) return undefined;
    const name = this.name();
    return name !== undefined && this.punct(')') ? name : undefined;
  }
  done(): boolean {
    return this.i === this.tokens.length;
  }
}

/** The path's value on `object`, the error reading it throws, or ISOLATE where JavaScript's answer is not reproduced here. */
function walk(object: unknown, steps: Step[]): unknown {
  let value: unknown = object;
  for (const step of steps) {
    if (value === undefined || value === null) {
      // `?.` on nothing ends the whole chain with `undefined`.
      if (step.optional) return undefined;
      const key = step.kind === 'read' ? step.key : step.method;
      return new ReadError(`Cannot read properties of ${String(value)} (reading '${key}')`);
    }
    if (step.kind === 'fold') {
      if (typeof value !== 'string') return ISOLATE;
      value = value[step.method]();
      continue;
    }
    value = ownData(value, step.key);
    if (value === ISOLATE) return ISOLATE;
  }
  return value;
}

/** The error JavaScript throws for a step on nothing, with its message. */
class ReadError {
  constructor(readonly message: string) {}
}

/**
 * A property as JavaScript reads it from the object's JSON copy (what the isolate is given): an own enumerable data
 * property, or `undefined` when neither the copy nor its prototype has it. Inherited names (`constructor`,
 * `__proto__`, `map` of an array), properties of strings and numbers, and anything JSON would not carry over as it
 * is (an accessor, a hidden property, an object of a class, a proxy, a `toJSON`) go to the isolate.
 */
function ownData(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || key === '__proto__' || !isPlain(value)) return ISOLATE;
  return Array.isArray(value) ? arrayItem(value, key) : objectProperty(value, key);
}

/** Whether JSON carries the object over as it is: an array or plain object, no proxy, no `toJSON` of its own. */
function isPlain(value: object): boolean {
  if (types.isProxy(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  const plainPrototype = Array.isArray(value)
    ? prototype === Array.prototype
    : prototype === Object.prototype || prototype === null;
  return plainPrototype && !Object.prototype.hasOwnProperty.call(value, 'toJSON');
}

function arrayItem(array: unknown[], key: string): unknown {
  if (key === 'length') return array.length;
  if (!ARRAY_INDEX.test(key)) return key in Array.prototype ? ISOLATE : undefined;
  if (Number(key) >= array.length) return undefined;
  // JSON writes a hole, `undefined`, a function or a symbol in an array as `null`.
  const item = dataOf(Object.getOwnPropertyDescriptor(array, key));
  return item === undefined ? null : item;
}

function objectProperty(object: object, key: string): unknown {
  const value = dataOf(Object.getOwnPropertyDescriptor(object, key));
  // JSON leaves out a property whose value is `undefined`, a function or a symbol: the copy's prototype answers.
  return value === undefined && key in Object.prototype ? ISOLATE : value;
}

/** A property's value as JSON writes it (`undefined` when it leaves it out), or ISOLATE for an accessor or hidden one. */
function dataOf(descriptor: PropertyDescriptor | undefined): unknown {
  if (descriptor === undefined) return undefined;
  if (!('value' in descriptor) || descriptor.enumerable !== true) return ISOLATE;
  const value: unknown = descriptor.value;
  return typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
}

/** The function's result as values, with the isolate's words for a result that is not one. */
function valuesOf(value: unknown): ExpressionOutcome | typeof ISOLATE {
  if (value === undefined || value === null) return { values: [] };
  switch (typeof value) {
    case 'string':
      return { values: [value] };
    case 'object':
      if (!isPlain(value)) return ISOLATE;
      return Array.isArray(value) ? arrayValues(value) : notValues('object');
    case 'number':
      // JSON writes NaN and the infinities as `null`.
      return Number.isFinite(value) ? notValues('number') : ISOLATE;
    case 'boolean':
      return notValues('boolean');
    default:
      return ISOLATE;
  }
}

const notValues = (kind: string): ExpressionOutcome => ({ error: `returned ${kind}; ${RETURNS}` });

/** An array's items by index as JSON writes them (no iterator or getter of the array's is run). */
function arrayValues(array: unknown[]): ExpressionOutcome | typeof ISOLATE {
  const values: string[] = [];
  for (let i = 0; i < array.length; i++) {
    const item = dataOf(Object.getOwnPropertyDescriptor(array, String(i)));
    if (item === ISOLATE || (typeof item === 'object' && item !== null && !isPlain(item))) return ISOLATE;
    if (typeof item !== 'string') return notValues(NOT_STRINGS);
    values.push(item);
  }
  return { values };
}
