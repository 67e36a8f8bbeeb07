/**
 * How the benchmark plugin declares the indexes its model adds: the source of
 * the `indexes` argument of `ctx.schemes.register` in the plugin's index.js.
 * Each variant indexes the same two fields of an Item, so that variants can be
 * compared on the same objects; a variant with function indexes is one more
 * entry of `INDEX_VARIANTS`.
 */
export interface IndexVariant {
  /** e.g. `path`: chooses the variant on the command line and names it in the report. */
  name: string;
  /** What the report says it is, e.g. `two path indexes (spec.name, spec.tags[*])`. */
  description: string;
  /** A JavaScript expression: the array (or `(ix) => …` callback) given to `ctx.schemes.register`. */
  indexesSource: string;
  /** How many indexes it declares (each is built over the existing objects): the progress bar's total. */
  indexCount: number;
}

/** The indexes of the plugin's first version: none but the ones every type has. */
export const NO_INDEXES: IndexVariant = {
  name: 'none',
  description: 'no indexes of its own',
  indexesSource: '[]',
  indexCount: 0,
};

/** Two path indexes: a single-valued one and a multi-valued one. */
export const PATH_INDEXES: IndexVariant = {
  name: 'path',
  description: 'two path indexes (spec.name, spec.tags[*])',
  indexesSource: JSON.stringify([
    { name: 'name', path: 'spec.name' },
    { name: 'tags', path: 'spec.tags[*]' },
  ]),
  indexCount: 2,
};

/** The same two indexes as functions, run in the model's index isolate in the apiserver. */
export const FUNCTION_INDEXES: IndexVariant = {
  name: 'function',
  description: 'two function indexes (spec.name, spec.tags)',
  indexesSource:
    "(ix) => ix.add({ name: 'name', indexFunc: (item) => item.spec.name }).add({ name: 'tags', indexFunc: (item) => item.spec.tags })",
  indexCount: 2,
};

/** The variants the start is measured with, in order. */
export const INDEX_VARIANTS: readonly IndexVariant[] = [PATH_INDEXES, FUNCTION_INDEXES];
