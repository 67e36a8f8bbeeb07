import { UsageError } from './errors';
import { isPlainObject } from '../api/plain-object';

// kubectl's JSONPath templates (`-o jsonpath=…`), the part svcctl speaks: text with `{…}` actions holding a path
// (`.field`, `['key']`, `.*`/`[*]`, `[n]`, slices `[a:b]`/`[a:b:step]`), a quoted text (`{"\n"}`), or
// `{range PATH}…{end}`. The rest of kubectl's syntax (recursive descent `..`, filters `[?(…)]`, unions `[a,b]`) is a
// usage error naming the construct, never an empty result.

/** One step of a path. */
type Step = { kind: 'field'; name: string } | { kind: 'wildcard' } | SliceStep;

/** `[n]` (`index`) or `[start:end:step]`, kubectl's way: negative counts from the end, out of bounds is an error. */
interface SliceStep {
  kind: 'slice';
  start?: number;
  end?: number;
  step: number;
  index: boolean;
}

/** A part of a template: literal text, a path whose values are printed, or a range repeating its body per value. */
type TemplateNode =
  | { kind: 'text'; text: string }
  | { kind: 'path'; steps: Step[] }
  | { kind: 'range'; steps: Step[]; body: TemplateNode[] };

/** A template, parsed (see parseJsonPath). */
export interface JsonPathTemplate {
  source: string;
  nodes: TemplateNode[];
}

/** Parses a template; UsageError naming what svcctl cannot read. */
export function parseJsonPath(source: string): JsonPathTemplate {
  const root: TemplateNode[] = [];
  const open: TemplateNode[][] = [root];
  let at = 0;
  while (at < source.length) {
    const brace = source.indexOf('{', at);
    const current = open[open.length - 1] ?? root;
    if (brace < 0) {
      current.push({ kind: 'text', text: source.slice(at) });
      break;
    }
    if (brace > at) current.push({ kind: 'text', text: source.slice(at, brace) });
    const close = actionEnd(source, brace);
    const action = source.slice(brace + 1, close).trim();
    at = close + 1;
    if (action === 'end') {
      if (open.length === 1) throw new UsageError(`jsonpath ${source}: {end} without a {range}`);
      open.pop();
    } else if (/^range\s/.test(action)) {
      const body: TemplateNode[] = [];
      current.push({ kind: 'range', steps: parsePath(action.slice('range'.length).trim()), body });
      open.push(body);
    } else if (action.startsWith('"')) {
      current.push({ kind: 'text', text: quotedText(action) });
    } else {
      current.push({ kind: 'path', steps: parsePath(action) });
    }
  }
  // As kubectl, a {range} without its {end} repeats the rest of the template.
  return { source, nodes: root };
}

/**
 * The template's text for `value`: each path's values joined by spaces (strings as they are, objects and arrays as
 * JSON). An index or slice outside its array is an error (exit 1), as with kubectl; a missing field prints nothing.
 */
export function evaluateJsonPath(value: unknown, template: string | JsonPathTemplate): string {
  const parsed = typeof template === 'string' ? parseJsonPath(template) : template;
  try {
    return render(parsed.nodes, value);
  } catch (err) {
    throw new Error(`error executing jsonpath ${JSON.stringify(parsed.source)}: ${(err as Error).message}`);
  }
}

function render(nodes: TemplateNode[], value: unknown): string {
  let text = '';
  for (const node of nodes) {
    if (node.kind === 'text') text += node.text;
    else if (node.kind === 'path') text += select(value, node.steps).map(printed).join(' ');
    else for (const each of select(value, node.steps)) text += render(node.body, each);
  }
  return text;
}

function select(value: unknown, steps: Step[]): unknown[] {
  let current = [value];
  for (const step of steps) current = current.flatMap((v) => (v === null || v === undefined ? [] : apply(step, v)));
  return current;
}

function apply(step: Step, value: unknown): unknown[] {
  if (step.kind === 'wildcard') return Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : [];
  if (step.kind === 'field') {
    const found = isPlainObject(value) ? value[step.name] : undefined;
    return found === undefined ? [] : [found];
  }
  return Array.isArray(value) ? sliced(value, step) : [];
}

/** kubectl's slice of an array (client-go's jsonpath evalArray): out of bounds is an error, not a shorter slice. */
function sliced(array: unknown[], step: SliceStep): unknown[] {
  const length = array.length;
  const { start, end } = boundsOf(step, length);
  if (start === end) return [];
  if (start < 0 || start >= length) throw new Error(`array index out of bounds: index ${start}, length ${length}`);
  if (end < 0 || end > length) throw new Error(`array index out of bounds: index ${end - 1}, length ${length}`);
  if (start > end) throw new Error(`starting index ${start} is greater than ending index ${end}`);
  return array.slice(start, end).filter((_, i) => i % step.step === 0);
}

/** Where a slice starts and ends: negative counts from the end; `[n]` is `[n:n+1]`, so `[-1]` ends at the end. */
function boundsOf(step: SliceStep, length: number): { start: number; end: number } {
  const first = step.start ?? 0;
  const end = step.index ? first + 1 : (step.end ?? length);
  return {
    start: first < 0 ? first + length : first,
    end: end < 0 || (step.index && end === 0) ? end + length : end,
  };
}

function printed(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The index of the `}` closing the action opened at `open`, past quoted text. */
function actionEnd(source: string, open: number): number {
  let quote: string | undefined;
  for (let i = open + 1; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '}') return i;
  }
  throw new UsageError(`jsonpath ${source}: an unclosed action (a "{" without its "}")`);
}

/** `{"\n"}`: the text of a quoted string, with JSON's escapes. */
function quotedText(action: string): string {
  try {
    const text: unknown = JSON.parse(action);
    if (typeof text === 'string') return text;
  } catch {
    // Reported below.
  }
  throw new UsageError(`cannot read the jsonpath text {${action}}: want a quoted string such as {"\\n"}`);
}

/** The steps of a path (`.items[0:3].metadata.name`, `$.spec`, `@`, ``); UsageError naming what is not supported. */
function parsePath(expression: string): Step[] {
  const steps: Step[] = [];
  let rest = expression.replace(/^[$@]/, '');
  while (rest !== '') {
    if (rest.startsWith('..')) throw unsupported(expression, 'recursive descent (..)');
    const field = /^\.((?:\\.|[^.[\\\s])*)/.exec(rest);
    const bracket = /^\[([^\]]*)\]/.exec(rest);
    if (field) {
      const name = (field[1] ?? '').replace(/\\(.)/g, '$1');
      if (name === '*') steps.push({ kind: 'wildcard' });
      else if (name !== '') steps.push({ kind: 'field', name });
      rest = rest.slice(field[0].length);
    } else if (bracket) {
      steps.push(bracketStep(expression, (bracket[1] ?? '').trim()));
      rest = rest.slice(bracket[0].length);
    } else {
      throw new UsageError(
        `cannot read the jsonpath expression {${expression}} at "${rest}": a path starts with "." (like {.metadata.name})`,
      );
    }
  }
  return steps;
}

/** What `[…]` holds: `*`, a quoted key, an index or a slice. */
function bracketStep(expression: string, inside: string): Step {
  if (inside === '*') return { kind: 'wildcard' };
  const quoted = /^(['"])(.*)\1$/.exec(inside);
  if (quoted) return { kind: 'field', name: quoted[2] ?? '' };
  if (inside.startsWith('?')) throw unsupported(expression, `the filter [${inside}]`);
  if (inside.includes(',')) throw unsupported(expression, `the union [${inside}]`);
  return sliceStep(expression, inside);
}

/** `[n]`, `[a:b]` or `[a:b:step]`, each number optional but `n`. */
function sliceStep(expression: string, inside: string): SliceStep {
  const slice = /^(-?\d+)?(?:\s*(:)\s*(-?\d+)?(?:\s*:\s*(-?\d+)?)?)?$/.exec(inside);
  if (!slice || inside === '') throw unsupported(expression, `[${inside}]`);
  const [, start, colon, end, step] = slice;
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const every = number(step) ?? 1;
  if (every <= 0) throw new UsageError(`jsonpath {${expression}}: the step of [${inside}] must be > 0`);
  return { kind: 'slice', start: number(start), end: number(end), step: every, index: colon === undefined };
}

const unsupported = (expression: string, construct: string) =>
  new UsageError(
    `jsonpath {${expression}}: ${construct} is not supported by svcctl (fields, ['key'], *, [n], [a:b:step], range and quoted text are)`,
  );
