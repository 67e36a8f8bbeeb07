import pino from 'pino';
import type { ApiObject } from '../../api/object';
import { MemoryStorage } from '../../storage/memory/memory-storage';
import { waitFor } from '../../util/wait-for';
import { storageTypeOf } from '../model';
import { SchemeManager } from '../scheme';
import { MODEL_KIND } from './model-kind';
import { ModelSync } from './model-sync';

const log = pino({ level: 'silent' });
const MODELS = storageTypeOf(MODEL_KIND);

const personModel = (name = 'persons.example.com', extra: Record<string, unknown> = {}): ApiObject => ({
  apiVersion: 'apiextensions.svc.run/v1alpha1',
  kind: 'Model',
  metadata: { name },
  spec: {
    group: 'example.com',
    version: 'v1alpha1',
    names: { kind: 'Person', plural: 'persons' },
    schema: { type: 'object', properties: { spec: { type: 'object', properties: { age: { type: 'integer' } } } } },
    ...extra,
  },
});

describe('ModelSync', () => {
  let storage: MemoryStorage;
  let schemes: SchemeManager;
  let sync: ModelSync;

  beforeEach(async () => {
    storage = new MemoryStorage();
    schemes = new SchemeManager(storage, log);
    await schemes.register(MODEL_KIND, undefined, { platform: true });
  });

  afterEach(() => sync.stop());

  it('serves the stored Models once start() resolves', async () => {
    await storage.create(MODELS, personModel());
    // Registering takes a while (compiling, defining indexes): start() waits for it all the same.
    const register = schemes.register.bind(schemes);
    jest.spyOn(schemes, 'register').mockImplementation(async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return register(...args);
    });
    sync = new ModelSync(storage, schemes, log);
    await sync.start();
    expect(schemes.served('example.com', 'persons')?.model.kind).toBe('Person');
  });

  it('follows later changes: a new Model is served, one marked for deletion or removed is not', async () => {
    sync = new ModelSync(storage, schemes, log);
    await sync.start();
    expect(schemes.served('example.com', 'persons')).toBeUndefined();

    await storage.create(MODELS, personModel());
    await waitFor(() => schemes.served('example.com', 'persons'), { what: 'persons served' });

    await storage.update(MODELS, 'persons.example.com', (o) => ({
      ...o,
      metadata: { ...o.metadata, deletionTimestamp: new Date().toISOString() },
    }));
    await waitFor(() => schemes.served('example.com', 'persons') === undefined, { what: 'persons withdrawn' });

    await storage.create(MODELS, personModel('pets.example.com', { names: { kind: 'Pet', plural: 'pets' } }));
    await waitFor(() => schemes.served('example.com', 'pets'), { what: 'pets served' });
    await storage.delete(MODELS, 'pets.example.com');
    await waitFor(() => schemes.served('example.com', 'pets') === undefined, { what: 'pets withdrawn' });
  });
});
