import pino from 'pino';
import type { ApiObject } from '../api/object';
import { MemoryStorage } from '../storage/memory/memory-storage';
import { StorageMirror } from './mirror';

const TYPE = 'widgets.example.com';
const widget = (name: string, color: string): ApiObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec: { color },
});

describe('StorageMirror', () => {
  let storage: MemoryStorage;
  let mirror: StorageMirror;

  beforeEach(async () => {
    storage = new MemoryStorage();
    await storage.defineType(TYPE, []);
    await storage.create(TYPE, widget('ada', 'red'));
    mirror = new StorageMirror(storage, TYPE, pino({ level: 'silent' }));
  });

  afterEach(() => mirror.stop());

  it('holds the listed objects once started, then follows creates, updates and deletes', async () => {
    const seen: [string, unknown, unknown][] = [];
    mirror.subscribe((name, previous, current) => seen.push([name, previous?.spec, current?.spec]));
    await mirror.start();
    expect(mirror.get('ada')?.spec).toEqual({ color: 'red' });

    await storage.create(TYPE, widget('grace', 'blue'));
    await storage.update(TYPE, 'ada', (o) => ({ ...o, spec: { color: 'green' } }));
    const removed = await storage.delete(TYPE, 'grace');
    await mirror.waitFor(removed.metadata.resourceVersion);

    expect([...mirror.values()].map((o) => [o.metadata.name, o.spec])).toEqual([['ada', { color: 'green' }]]);
    expect(mirror.currentRevision).toBe(removed.metadata.resourceVersion);
    expect(seen).toEqual([
      ['ada', undefined, { color: 'red' }],
      ['grace', undefined, { color: 'blue' }],
      ['ada', { color: 'red' }, { color: 'green' }],
      ['grace', { color: 'blue' }, undefined],
    ]);
  });

  it('waitFor resolves for a revision it has reached, and gives up on one it never reaches after its timeout', async () => {
    await mirror.start();
    await expect(mirror.waitFor(mirror.currentRevision)).resolves.toBeUndefined();
    await expect(mirror.waitFor(undefined)).resolves.toBeUndefined();
    await expect(mirror.waitFor('999999', 50)).resolves.toBeUndefined();
  });
});
