/** The values of the shared Int32Array the apiserver and an index worker wait on (ADR 0022). */
export const SIGNAL = { STARTING: 0, IDLE: 1, REQUEST: 2, FAILED: 3 } as const;

// Runs inside the functions' context: removes what could run code later or block the thread, and defines
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

/**
 * The code of an index worker thread (run with `eval: true`, so it needs no file of its own). It compiles the
 * functions into a `node:vm` context holding only JavaScript's built-ins, with code generation from strings off,
 * sets the signal to IDLE, or posts the compile error on its port and sets FAILED; then, for ever: waits for
 * REQUEST, takes the object's JSON from its port, posts every function's outcome back and sets IDLE. It never
 * returns to its event loop; the apiserver bounds each request by waiting with a deadline and terminates a worker
 * that misses it.
 */
export const INDEX_WORKER_CODE = `
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
const { createContext, Script } = require('node:vm');
const { signal, port, plugin, functions } = workerData;
const { IDLE, REQUEST, FAILED } = ${JSON.stringify(SIGNAL)};
const answer = (state, message) => {
  port.postMessage(message);
  Atomics.store(signal, 0, state);
  Atomics.notify(signal, 0);
};
const compile = (context, { name, source }) => {
  const options = { filename: plugin + '-index-' + name + '.js' };
  for (const wrapped of ['(' + source + ')', '(Object.values({' + source + '})[0])']) {
    let script;
    try {
      script = new Script(wrapped, options);
    } catch {
      continue;
    }
    const fn = script.runInContext(context);
    if (typeof fn === 'function') return fn;
  }
  throw new Error('index ' + name + ": the index function's source does not compile as a function");
};
let run;
try {
  const context = createContext({}, { codeGeneration: { strings: false, wasm: false } });
  context.__fns = functions.map((f) => compile(context, f));
  new Script(${JSON.stringify(PRELUDE)}, { filename: plugin + '-indexes.js' }).runInContext(context);
  run = context.__run;
  Atomics.store(signal, 0, IDLE);
  Atomics.notify(signal, 0);
} catch (e) {
  answer(FAILED, String(e && e.message ? e.message : e));
}
const failedAll = (e) => JSON.stringify(functions.map(() => ({ error: String(e && e.message ? e.message : e) })));
while (run) {
  Atomics.wait(signal, 0, IDLE);
  const request = receiveMessageOnPort(port);
  let text;
  try {
    text = run(request.message);
  } catch (e) {
    text = failedAll(e);
  }
  answer(IDLE, text);
}
`;
