import type { ApiObject } from '../../api/object';
import { isStorageError } from '../errors';
import * as objects from '../objects';
import { MemoryStorage } from './memory-storage';

jest.mock('../objects', () => ({ ...jest.requireActual('../objects'), generateName: jest.fn() }));
const generateName = objects.generateName as jest.MockedFunction<typeof objects.generateName>;

const TYPE = 'widgets.test.svc.run';
const generated = (prefix: string): ApiObject => ({
  apiVersion: 'test.svc.run/v1',
  kind: 'Widget',
  metadata: { generateName: prefix },
});

describe('create with generateName', () => {
  let storage: MemoryStorage;
  beforeEach(async () => {
    generateName.mockReset();
    storage = new MemoryStorage();
    await storage.create(TYPE, { ...generated(''), metadata: { name: 'w-taken' } });
  });
  afterEach(() => storage.close());

  it('draws another name when the generated one is taken', async () => {
    generateName.mockReturnValueOnce('w-taken').mockReturnValueOnce('w-taken').mockReturnValueOnce('w-free');
    const created = await storage.create(TYPE, generated('w-'));
    expect(created.metadata.name).toBe('w-free');
    expect(generateName).toHaveBeenCalledWith('w-');
  });

  it('gives up with AlreadyExists after a few taken names', async () => {
    generateName.mockReturnValue('w-taken');
    let caught: unknown;
    try {
      await storage.create(TYPE, generated('w-'));
    } catch (err) {
      caught = err;
    }
    expect(isStorageError(caught, 'AlreadyExists')).toBe(true);
    expect(generateName.mock.calls.length).toBeGreaterThan(1);
    expect(generateName.mock.calls.length).toBeLessThanOrEqual(10);
  });
});
