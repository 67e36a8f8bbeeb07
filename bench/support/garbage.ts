import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/**
 * Runs a full garbage collection now, so that a timed call does not pay for
 * the garbage an earlier one left (e.g. a baseline that parsed 100k objects
 * before a 1 ms list). Works without `node --expose-gc`: the flag is set at
 * run time and a fresh context picks up the `gc` function it exposes.
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
