import { performance } from 'node:perf_hooks';
import type { ApiObject } from '../../pkg/api/object';
import { StoredObjects, type DictionaryClient } from '../../pkg/storage/redis/stored-objects';
import { typeKeys } from '../../pkg/storage/redis/keys';
import { splitAtRevision } from '../../pkg/storage/redis/object-codec';
import { renderTable } from '../support/report';
import { benchObject } from './bench-model';

/**
 * What compressed objects (ADR 0026) cost the process, per object, beside
 * the JSON they replace: the write side (the stored form: JSON split at its
 * revision, or deflated against the type's dictionary) and the read side (the
 * object from its stored form). Pure CPU, no Redis: the dictionary lives in
 * memory. `node dist/bench/storage/codec.js [objects]`.
 */

const TYPE = 'persons.bench.svc.run';
const ROUNDS = 5;

/** A dictionary store in memory, as Redis would hold it. */
function memoryDictionaries(): DictionaryClient {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key) ?? null,
    set: async (key, value) => {
      if (!values.has(key)) values.set(key, value);
    },
  };
}

/** A stored object as the write script leaves it: the parts around the revision, joined. */
const stored = (parts: [string, string], revision: string): string => `${parts[0]}${revision}${parts[1]}`;

/** Median microseconds per object of `work` over `objects`, in ROUNDS rounds. */
async function microsPerObject(objects: number, work: (i: number) => unknown): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let i = 0; i < objects; i++) await work(i);
    rounds.push(((performance.now() - start) * 1000) / objects);
  }
  return rounds.sort((a, b) => a - b)[ROUNDS >> 1];
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 20_000);
  const objects: ApiObject[] = Array.from({ length: count }, (_, i) => {
    const object = benchObject(i);
    object.metadata = {
      ...object.metadata,
      uid: `6f1c2b4e-0000-4000-8000-${String(i).padStart(12, '0')}`,
      creationTimestamp: new Date(Date.UTC(2026, 10, 27) + i * 1000).toISOString(),
      generation: 1,
      version: 1,
      resourceVersion: String(1000 + i),
    };
    return object;
  });
  const codec = new StoredObjects(memoryDictionaries(), (type) => typeKeys('bench', type), 'deflate');
  const json = objects.map((o) => JSON.stringify(o));
  const compressed: string[] = [];
  for (const object of objects)
    compressed.push(stored(await codec.writeParts(TYPE, object), object.metadata.resourceVersion ?? ''));

  const rows = [
    [
      'write: stored form',
      await microsPerObject(count, (i) => splitAtRevision(objects[i])),
      await microsPerObject(count, (i) => codec.writeParts(TYPE, objects[i])),
    ],
    [
      'read: object from stored form',
      await microsPerObject(count, (i) => JSON.parse(json[i])),
      await microsPerObject(count, (i) => codec.readOne(TYPE, compressed[i])),
    ],
  ].map(([what, plain, deflate]) => [
    String(what),
    `${(plain as number).toFixed(2)} µs`,
    `${(deflate as number).toFixed(2)} µs`,
    `+${((deflate as number) - (plain as number)).toFixed(2)} µs`,
  ]);
  const size = (values: string[]) => Math.round(values.reduce((n, v) => n + Buffer.byteLength(v), 0) / values.length);
  process.stdout.write(
    `${count.toLocaleString('en-US')} benchmark Persons, median of ${ROUNDS} rounds, one core (Node ${process.version})\n` +
      `stored bytes per object: JSON ${size(json)}, compressed ${size(compressed)}\n` +
      `${renderTable(['per object', 'JSON (none)', 'deflate', 'difference'], rows)}\n`,
  );
}

void main();
