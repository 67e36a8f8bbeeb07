import type { ApiObject } from '../api/object';
import type { Storage, StoredRead } from '../storage/interface';
import type { Model } from './model';
import { ResourceStore } from './resource-store';

// `getStored` hands a reader the stored JSON text only where nothing is taken out of what a response may carry: a
// kind whose `present` hook strips a secret (a user's password hash) is answered as the presented object.
const MODEL: Model = { group: 'example.com', version: 'v1', kind: 'Account', singular: 'account', plural: 'accounts' };
const STORED: ApiObject = {
  apiVersion: 'example.com/v1',
  kind: 'Account',
  metadata: { name: 'ada', resourceVersion: '3' },
  spec: { passwordHash: 'argon2id$secret' },
};

/** A storage that keeps objects as their JSON text, as Redis does. */
const textStorage = {
  get: async () => structuredClone(STORED),
  getStored: async (): Promise<StoredRead> => ({ json: JSON.stringify(STORED) }),
} as unknown as Storage;
const checks = { prune: (object: ApiObject) => ({ object, unknownFields: [] }), validate: () => [] };
const withoutHash = (object: ApiObject): ApiObject => ({ ...object, spec: {} });

describe('ResourceStore.getStored', () => {
  it('passes the stored text on where no hook changes what is presented', async () => {
    const store = new ResourceStore(MODEL, textStorage, checks);
    expect(await store.getStored('ada')).toEqual({ json: JSON.stringify(STORED) });
  });

  it('answers the presented object, never the stored text, where a present hook strips a secret', async () => {
    const store = new ResourceStore(MODEL, textStorage, checks, { present: withoutHash });
    const answer = await store.getStored('ada');
    expect(answer).toEqual({ object: withoutHash(STORED) });
    expect(JSON.stringify(answer)).not.toContain('secret');
  });
});
