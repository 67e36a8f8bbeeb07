import { asRevision, listNames, revisionOf, specOf, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Slack for "now": the backend may read the clock a little before or after the caller.
const CLOCK_SLACK_MS = 1_000;

/** Create and get: server-owned fields, name clashes, generateName, and the type's revision counter. */
export function describeCreateGet(h: Harness): void {
  describe('create and get', () => {
    it('a new type is empty, at revision 0', async () => {
      const { storage, type } = await h.widgets();
      expect(await storage.currentRevision(type)).toBe('0');
      const result = await storage.list(type);
      expect(result.items).toEqual([]);
      expect(result.total).toBe(0);
      expect(result.revision).toBe('0');
    });

    it('create fills uid, creationTimestamp, generation, version and resourceVersion', async () => {
      const { storage, type } = await h.widgets();
      const before = Date.now();
      const created = await storage.create(type, widget('ada', { color: 'red' }, { env: 'prod' }));
      const after = Date.now();

      expect(created.metadata.uid).toMatch(UUID);
      expect(created.metadata.creationTimestamp).toMatch(RFC3339_UTC);
      const createdAt = Date.parse(created.metadata.creationTimestamp ?? '');
      expect(createdAt).toBeGreaterThanOrEqual(before - CLOCK_SLACK_MS);
      expect(createdAt).toBeLessThanOrEqual(after + CLOCK_SLACK_MS);
      expect(created.metadata.generation).toBe(1);
      expect(created.metadata.version).toBe(1);
      expect(created.metadata.resourceVersion).toBe(await storage.currentRevision(type));
      expect(created).toMatchObject({
        apiVersion: 'conformance.svc.run/v1',
        kind: 'Widget',
        metadata: { name: 'ada', labels: { env: 'prod' } },
        spec: { color: 'red' },
      });
    });

    it('create replaces server-owned fields a client sets', async () => {
      const { storage, type } = await h.widgets();
      const sent = widget('ada');
      sent.metadata = {
        ...sent.metadata,
        uid: 'client-uid',
        creationTimestamp: '2000-01-01T00:00:00.000Z',
        deletionTimestamp: '2000-01-02T00:00:00.000Z',
        generation: 7,
        version: 9,
        resourceVersion: '12345',
      };
      const created = await storage.create(type, sent);
      expect(created.metadata.uid).not.toBe('client-uid');
      expect(created.metadata.uid).toMatch(UUID);
      expect(created.metadata.creationTimestamp).not.toBe('2000-01-01T00:00:00.000Z');
      expect(created.metadata.deletionTimestamp).toBeUndefined();
      expect(created.metadata.generation).toBe(1);
      expect(created.metadata.version).toBe(1);
      expect(created.metadata.resourceVersion).toBe('1');
      expect(await storage.get(type, 'ada')).toEqual(created);
    });

    it('get returns the object as created, and a copy the caller may change', async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('ada', { color: 'red' }));
      const got = await storage.get(type, 'ada');
      expect(got).toEqual(created);
      specOf(got).color = 'blue';
      specOf(created).color = 'green';
      created.metadata.labels = { changed: 'yes' };
      const again = await storage.get(type, 'ada');
      expect(again.spec).toEqual({ color: 'red' });
      expect(again.metadata.labels).toBeUndefined();
    });

    it('get of a missing object fails with NotFound', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada'));
      await expectStorageError(storage.get(type, 'grace'), 'NotFound');
    });

    it('getStored (where a backend has it) answers what get answers: JSON text parsing to it, or the object', async () => {
      const { storage, type } = await h.widgets();
      if (!storage.getStored) return;
      const created = await storage.create(type, widget('ada', { color: 'red', note: 'a "quoted" é \u2028 line' }));
      const updated = await storage.update(type, 'ada', (o) => ({ ...o, spec: { ...specOf(o), counter: 7 } }));
      const stored = await storage.getStored(type, 'ada');
      const object = 'json' in stored ? (JSON.parse(stored.json) as unknown) : stored.object;
      expect(object).toEqual(await storage.get(type, 'ada'));
      expect(object).toEqual(updated);
      expect(created.metadata.resourceVersion).not.toBe(updated.metadata.resourceVersion);
      await expectStorageError(storage.getStored(type, 'grace'), 'NotFound');
    });

    it('getStored asked for several objects at once answers each its own, and NotFound only the missing one', async () => {
      const { storage, type } = await h.widgets();
      if (!storage.getStored) return;
      const created = [await storage.create(type, widget('ada')), await storage.create(type, widget('bob'))];
      const read = (name: string) =>
        storage.getStored!(type, name).then((stored) => ('json' in stored ? JSON.parse(stored.json) : stored.object));
      const [ada, missing, bob, again] = await Promise.allSettled([
        read('ada'),
        read('grace'),
        read('bob'),
        read('ada'),
      ]);
      expect([ada, bob, again]).toEqual([
        { status: 'fulfilled', value: created[0] },
        { status: 'fulfilled', value: created[1] },
        { status: 'fulfilled', value: created[0] },
      ]);
      expect(missing.status).toBe('rejected');
      await expectStorageError(Promise.reject((missing as PromiseRejectedResult).reason), 'NotFound');
    });

    it('create on a taken name fails with AlreadyExists and keeps the stored object', async () => {
      const { storage, type } = await h.widgets();
      const first = await storage.create(type, widget('ada', { color: 'red' }));
      await expectStorageError(storage.create(type, widget('ada', { color: 'blue' })), 'AlreadyExists');
      expect(await storage.get(type, 'ada')).toEqual(first);
      expect(await storage.currentRevision(type)).toBe(first.metadata.resourceVersion);
    });

    it('each write bumps the revision by one; reads and failed writes do not', async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('ada'));
      expect(created.metadata.resourceVersion).toBe('1');
      const updated = await storage.update(type, 'ada', (o) => ({ ...o, spec: { note: 'changed' } }));
      expect(updated.metadata.resourceVersion).toBe('2');
      await storage.get(type, 'ada');
      await storage.list(type);
      await expectStorageError(storage.create(type, widget('ada')), 'AlreadyExists');
      await expectStorageError(
        storage.update(type, 'ada', (o) => o, { version: 1 }),
        'Conflict',
      );
      await expectStorageError(storage.delete(type, 'grace'), 'NotFound');
      expect(await storage.currentRevision(type)).toBe('2');
      const deleted = await storage.delete(type, 'ada');
      expect(deleted.metadata.resourceVersion).toBe('3');
      expect(asRevision(await storage.currentRevision(type))).toBe(3n);
    });

    it('generateName names objects with the prefix and five more characters, all distinct', async () => {
      const { storage, type } = await h.widgets();
      const created = [];
      for (let i = 0; i < 20; i++) {
        created.push(await storage.create(type, { ...widget(''), metadata: { generateName: 'gen-' } }));
      }
      const names = created.map((o) => o.metadata.name ?? '');
      for (const name of names) expect(name).toMatch(/^gen-[a-z0-9]{5}$/);
      expect(new Set(names).size).toBe(20);
      expect(await listNames(storage, type, { sort: [{ index: 'metadata.name', direction: 'asc' }] })).toEqual(
        [...names].sort(),
      );
      for (const object of created) expect(await storage.get(type, object.metadata.name ?? '')).toEqual(object);
      expect(revisionOf(created[19])).toBe(20n);
    });

    it('generateName uses the first 58 characters of a longer prefix: a generated name is at most 63', async () => {
      const { storage, type } = await h.widgets();
      const prefix = `${'g'.repeat(57)}-${'h'.repeat(100)}`;
      const created = await storage.create(type, { ...widget(''), metadata: { generateName: prefix } });
      expect(created.metadata.name).toMatch(new RegExp(`^${'g'.repeat(57)}-[a-z0-9]{5}$`));
      expect(created.metadata.generateName).toBe(prefix);
    });
  });
}
