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

  it('relists when its watch falls behind and expires, and ends up holding every object', async () => {
    const slow = new MemoryStorage({ watchBuffer: 1 });
    await slow.defineType(TYPE, []);
    const behind = new StorageMirror(slow, TYPE, pino({ level: 'silent' }));
    const lists = jest.spyOn(slow, 'list');
    try {
      await behind.start();
      const written = await Promise.all(
        ['a', 'b', 'c', 'd', 'e'].map((name) => slow.create(TYPE, widget(name, 'red'))),
      );
      const last = written.map((o) => Number(o.metadata.resourceVersion)).sort((x, y) => y - x)[0];
      await behind.waitFor(String(last));
      expect(lists.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect([...behind.values()].map((o) => o.metadata.name).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    } finally {
      behind.stop();
    }
  });

  it('keeps following changes when a listener throws', async () => {
    mirror.subscribe(() => {
      throw new Error('listener bug');
    });
    await mirror.start();
    const created = await storage.create(TYPE, widget('grace', 'blue'));
    await mirror.waitFor(created.metadata.resourceVersion);
    expect(mirror.get('grace')?.spec).toEqual({ color: 'blue' });
  });

  it('fails to start when the type cannot be listed', async () => {
    jest.spyOn(storage, 'list').mockRejectedValueOnce(new Error('injected: storage down'));
    await expect(mirror.start()).rejects.toThrow('injected: storage down');
  });

  it('waitFor resolves for a revision it has reached, and gives up on one it never reaches after its timeout', async () => {
    await mirror.start();
    await expect(mirror.waitFor(mirror.currentRevision)).resolves.toBeUndefined();
    await expect(mirror.waitFor(undefined)).resolves.toBeUndefined();
    await expect(mirror.waitFor('999999', 50)).resolves.toBeUndefined();
  });
});
