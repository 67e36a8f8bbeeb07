import { badRequest, type StatusError } from './errors';
import type { FieldRequirement, LabelRequirement } from './selector-requirements';
import { labelValueErrors, qualifiedNameErrors } from './validation/qualified-name';

/**
 * Parsing of `labelSelector` and `fieldSelector` query values (docs/api.md) into
 * the requirements `Storage.list` takes. Matching an object against them is
 * `labelsMatch`/`fieldMatches` in selector-match.ts.
 *
 * Each parameter is repeatable: every value's requirements are ANDed. Within
 * one value, terms are split on commas outside parentheses, so
 * `spec.tags=(a,b),spec.name=x` is two terms. A malformed term throws a 400
 * `BadRequest` that quotes it, e.g.
 * `unable to parse requirement "app in (a": missing ")"`.
 */

const requirementError = (term: string, why: string): StatusError =>
  badRequest(`unable to parse requirement ${JSON.stringify(term)}: ${why}`);

/**
 * Why `()` is refused. Kubernetes' parser reads it as the empty value, but its rule for a requirement is that a
 * set is never empty: a client that builds `in (…)` from an empty list means nothing, not `""`.
 */
const EMPTY_SET = "for 'in', 'notin' operators, values set can't be empty";

/**
 * Splits a selector into terms at commas outside parentheses. A backslash
 * escapes the next character (field values write `\,` for a literal comma).
 * Terms keep their whitespace; unbalanced parentheses are left for the term's
 * parser to report.
 */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

// ---- label selectors ----

type LabelToken = { kind: 'word'; text: string } | { kind: 'symbol'; text: string };

const SYMBOL_START = new Set(['!', '=', '(', ')', ',', '<', '>']);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** Kubernetes' label selector lexer: symbols (`!`, `=`, `==`, `!=`, `(`, `)`, `,`, `<`, `>`) and words between them; whitespace separates. */
function lexLabelTerm(term: string): LabelToken[] {
  const tokens: LabelToken[] = [];
  let i = 0;
  while (i < term.length) {
    const c = term[i];
    if (isSpace(c)) {
      i++;
    } else if ((c === '!' || c === '=') && term[i + 1] === '=') {
      tokens.push({ kind: 'symbol', text: `${c}=` });
      i += 2;
    } else if (SYMBOL_START.has(c)) {
      tokens.push({ kind: 'symbol', text: c });
      i++;
    } else {
      let end = i;
      while (end < term.length && !isSpace(term[end]) && !SYMBOL_START.has(term[end])) end++;
      tokens.push({ kind: 'word', text: term.slice(i, end) });
      i = end;
    }
  }
  return tokens;
}

/** The word operators of a label term. */
const SET_OPERATORS = new Map<string, 'in' | 'notin'>([
  ['in', 'in'],
  ['notin', 'notin'],
]);
/** The symbol operators of a label term and the set operator each means (`a=(x,y)` is `a in (x,y)`). */
const EQUALITY_OPERATORS = new Map<string, 'in' | 'notin'>([
  ['=', 'in'],
  ['==', 'in'],
  ['!=', 'notin'],
]);

/** A recursive-descent parser for one label term, over its tokens. */
class LabelTermParser {
  private at = 0;
  private readonly tokens: LabelToken[];

  constructor(private readonly term: string) {
    this.tokens = lexLabelTerm(term);
  }

  parse(): LabelRequirement {
    const negated = this.peek()?.text === '!';
    if (negated) this.at++;
    const key = this.key();
    if (negated) return this.done({ key, op: '!exists', values: [] });
    const op = this.next();
    if (op === undefined) return { key, op: 'exists', values: [] };
    return this.done(this.operation(key, op));
  }

  /** The requirement of `key` with the operator `op` and what follows it. */
  private operation(key: string, op: LabelToken): LabelRequirement {
    const setOp = op.kind === 'word' ? SET_OPERATORS.get(op.text) : undefined;
    if (setOp !== undefined) return { key, op: setOp, values: this.valueSet(key, op.text) };
    const equalityOp = op.kind === 'symbol' ? EQUALITY_OPERATORS.get(op.text) : undefined;
    if (equalityOp !== undefined) {
      const values = this.peek()?.text === '(' ? this.valueSet(key, op.text) : [this.value(key, op.text)];
      return { key, op: equalityOp, values };
    }
    if (op.text === '<' || op.text === '>') {
      throw this.fail(`operator "${op.text}" is not supported; use =, ==, !=, in, notin, <key> or !<key>`);
    }
    throw this.fail(`expected an operator (=, ==, !=, in, notin) after "${key}", found "${op.text}"`);
  }

  private peek = (): LabelToken | undefined => this.tokens[this.at];
  private next = (): LabelToken | undefined => this.tokens[this.at++];
  private fail = (why: string): StatusError => requirementError(this.term, why);

  private done(requirement: LabelRequirement): LabelRequirement {
    const extra = this.next();
    if (extra !== undefined) throw this.fail(`unexpected "${extra.text}" after the requirement`);
    return requirement;
  }

  private key(): string {
    const token = this.next();
    if (token?.kind !== 'word') {
      throw this.fail(token === undefined ? 'expected a label key' : `expected a label key, found "${token.text}"`);
    }
    const errors = qualifiedNameErrors(token.text);
    if (errors.length) throw this.fail(`invalid label key "${token.text}": ${errors.join('; ')}`);
    return token.text;
  }

  /** `=`/`==`/`!=` then one value, possibly empty (`app=`). */
  private value(key: string, op: string): string {
    const token = this.peek();
    if (token === undefined) return '';
    if (token.kind !== 'word') throw this.fail(`expected a value after "${op}", found "${token.text}"`);
    this.at++;
    return this.checkValue(key, token.text);
  }

  /** `(a,b)`; empty members are the empty value (`(a,)`, `(,)`), but `()` lists nothing and is refused. */
  private valueSet(key: string, op: string): string[] {
    this.openSet(op);
    const values: string[] = [];
    let current: string | undefined;
    for (;;) {
      const token = this.next();
      if (token === undefined) throw this.fail('missing ")"');
      if (token.kind === 'word') {
        current = this.setMember(key, current, token.text);
        continue;
      }
      if (token.text !== ',' && token.text !== ')') throw this.fail(`unexpected "${token.text}" in the value list`);
      values.push(current ?? '');
      current = undefined;
      if (token.text === ')') return values;
    }
  }

  /** Reads the `(` of a set that lists something. */
  private openSet(op: string): void {
    if (this.next()?.text !== '(') throw this.fail(`expected "(" after "${op}"`);
    if (this.peek()?.text === ')') throw this.fail(EMPTY_SET);
  }

  /** A value read inside `(…)`, where `current` is the one read since the last comma, if any. */
  private setMember(key: string, current: string | undefined, text: string): string {
    if (current !== undefined) throw this.fail(`expected "," or ")" after "${current}", found "${text}"`);
    return this.checkValue(key, text);
  }

  private checkValue(key: string, value: string): string {
    const errors = labelValueErrors(value);
    if (errors.length) throw this.fail(`invalid label value "${value}" for key "${key}": ${errors.join('; ')}`);
    return value;
  }
}

/**
 * Parses `labelSelector` values, Kubernetes' syntax: `key=value`,
 * `key==value`, `key!=value`, `key in (a,b)`, `key notin (a,b)`, `key`,
 * `!key`, with whitespace allowed between tokens (`key in ( a, b )`). Keys and
 * values must follow the label rules; a value may be empty (`key=`, `key in (a,)`),
 * but a set may not (`key in ()` is an error). Beyond Kubernetes, `key=(a,b)` means
 * `key in (a,b)` and `key!=(a,b)` means `key notin (a,b)` (Halo's form, and
 * the same as fieldSelector's). Kubernetes' `<` and `>` are refused.
 * Empty or blank values give no requirements; an empty term (`a=b,`) is an
 * error, as in Kubernetes.
 * @example parseLabelSelector(['app=web,tier in (a,b)', '!legacy'])
 * // → [{key:'app', op:'in', values:['web']}, {key:'tier', op:'in', values:['a','b']}, {key:'legacy', op:'!exists', values:[]}]
 */
export function parseLabelSelector(values: readonly string[]): LabelRequirement[] {
  const requirements: LabelRequirement[] = [];
  for (const value of values) {
    if (value.trim() === '') continue;
    for (const term of splitTerms(value)) {
      if (term.trim() === '') {
        throw badRequest(`unable to parse label selector ${JSON.stringify(value)}: it has an empty requirement`);
      }
      requirements.push(new LabelTermParser(term).parse());
    }
  }
  return requirements;
}

// ---- field selectors ----

/** The operators of a field term, longest first where they overlap, as Kubernetes checks them. */
const FIELD_OPERATORS = ['!=', '==', '='] as const;

/** The first unescaped operator of a term and where it is. */
function findFieldOperator(term: string): { at: number; op: (typeof FIELD_OPERATORS)[number] } | undefined {
  for (let i = 0; i < term.length; i++) {
    if (term[i] === '\\') {
      i++;
      continue;
    }
    const op = FIELD_OPERATORS.find((o) => term.startsWith(o, i));
    if (op !== undefined) return { at: i, op };
  }
  return undefined;
}

const ESCAPABLE = new Set(['\\', ',', '=', '(', ')']);

/** `value` escaped for a field selector (`spec.owner=${escapeFieldValue(name)}`): whatever it holds, one value. */
export const escapeFieldValue = (value: string): string => value.replace(/[\\,=()]/g, (c) => `\\${c}`);

/** Removes the escapes of a field value; unescaped `,` and `=` and unknown escapes are errors (Kubernetes' `UnescapeValue`). */
function unescapeFieldValue(term: string, value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\') {
      const escaped = value[i + 1];
      if (escaped === undefined || !ESCAPABLE.has(escaped)) {
        throw requirementError(
          term,
          `invalid escape sequence "\\${escaped ?? ''}" (escape only \\ , = ( ) with a backslash)`,
        );
      }
      out += escaped;
      i++;
    } else if (c === ',' || c === '=') {
      throw requirementError(term, `unescaped "${c}" in the value "${value}" (write "\\${c}")`);
    } else {
      out += c;
    }
  }
  return out;
}

/** Whether a value ends with a `)` that no backslash escapes. */
function endsWithUnescapedParen(value: string): boolean {
  if (!value.endsWith(')')) return false;
  let slashes = 0;
  for (let i = value.length - 2; i >= 0 && value[i] === '\\'; i--) slashes++;
  return slashes % 2 === 0;
}

function parseFieldTerm(term: string): FieldRequirement {
  const found = findFieldOperator(term);
  if (found === undefined) {
    throw requirementError(term, 'expected <field>=<value>, <field>==<value>, <field>!=<value> or <field>=(<value>,…)');
  }
  // As Kubernetes, neither the field nor the value is trimmed: `spec.name= ada ` asks for " ada ".
  const field = term.slice(0, found.at);
  if (field === '') throw requirementError(term, `expected a field name before "${found.op}"`);
  const op = found.op === '!=' ? 'notin' : 'in';
  const rhs = term.slice(found.at + found.op.length);
  if (!rhs.startsWith('(')) return { field, op, values: [unescapeFieldValue(term, rhs)] };
  if (!endsWithUnescapedParen(rhs)) throw requirementError(term, 'missing ")" at the end of the value list');
  const list = rhs.slice(1, -1);
  if (list === '') throw requirementError(term, EMPTY_SET);
  return { field, op, values: splitTerms(list).map((m) => unescapeFieldValue(term, m)) };
}

/**
 * Parses `fieldSelector` values: `field=value`, `field==value`,
 * `field!=value`, `field=(a,b)` (and `field!=(a,b)`: none of them). Fields are
 * index names; whether the type has them is the storage's check. As in
 * Kubernetes, the first operator in a term wins, a value may be empty, and a
 * value writes `\,` `\=` `\\` for those characters (and `\(` `\)` for a
 * literal parenthesis at its ends); an unescaped `,` or `=` in a value is an
 * error. As in Kubernetes, whitespace is kept: it is part of the field (which
 * then names no index) or of the value, list members included. An empty list
 * (`field=()`) is an error, as `in ()` is for labels. Blank terms are skipped.
 * @example parseFieldSelector(['spec.tags=(a,b),metadata.name!=ada'])
 * // → [{field:'spec.tags', op:'in', values:['a','b']}, {field:'metadata.name', op:'notin', values:['ada']}]
 */
export function parseFieldSelector(values: readonly string[]): FieldRequirement[] {
  const requirements: FieldRequirement[] = [];
  for (const value of values) {
    for (const term of splitTerms(value)) {
      if (term.trim() !== '') requirements.push(parseFieldTerm(term));
    }
  }
  return requirements;
}
