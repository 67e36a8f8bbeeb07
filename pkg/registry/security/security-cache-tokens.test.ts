import pino from 'pino';
import type { ApiObject } from '../../api/object';
import { MemoryStorage } from '../../storage/memory/memory-storage';
import { waitFor } from '../../util/wait-for';
import { storageTypeOf } from '../model';
import { CredentialStore, tokenCredentialName } from './credentials';
import { SecurityCache } from './security-cache';
import { TOKEN_KIND } from './token-kind';
import { USER_KIND } from './user-kind';

const TOKENS = storageTypeOf(TOKEN_KIND);
const USERS = storageTypeOf(USER_KIND);

let storage: MemoryStorage;
let credentials: CredentialStore;
let cache: SecurityCache;

beforeEach(async () => {
  storage = new MemoryStorage();
  credentials = new CredentialStore(storage);
  await credentials.define();
  cache = new SecurityCache(storage, pino({ level: 'silent' }));
  await cache.start();
  await storage.create(USERS, { apiVersion: 'v1alpha1', kind: 'User', metadata: { name: 'ada', uid: 'ada-1' } });
});
afterEach(async () => {
  cache.stop();
  await storage.close();
});

/** A token of ada's (expiring at `expiresAt`, if given) whose hash is `hash`, as the cache sees it. */
async function token(name: string, hash: string, expiresAt?: string): Promise<void> {
  const object: ApiObject = {
    apiVersion: 'v1alpha1',
    kind: 'PersonalAccessToken',
    metadata: { name },
    spec: { username: 'ada', ...(expiresAt && { expiresAt }) },
  };
  await cache.tokens.waitFor((await storage.create(TOKENS, object)).metadata.resourceVersion);
  await cache.credentialsSeen(await credentials.setTokenHash(name, 'ada', 'ada-1', hash));
}

const revoke = async (name: string) => cache.credentialsSeen(await credentials.remove(tokenCredentialName(name)));

describe('SecurityCache.tokenRefusal', () => {
  it('says a token never seen is unknown', () => {
    expect(cache.tokenRefusal('no-such-hash')).toBe('unknown');
  });

  it('says a token whose credential went is revoked, or expired when it had expired by then', async () => {
    await token('kept', 'h-kept');
    await token('old', 'h-old', new Date(Date.now() + 300).toISOString());
    await waitFor(() => cache.tokenRefusal('h-old') === 'expired', { what: 'the token to expire' });
    await revoke('kept');
    await revoke('old');
    expect(cache.tokenRefusal('h-kept')).toBe('revoked');
    expect(cache.tokenRefusal('h-old')).toBe('expired');
  });

  it("says a token whose object is marked for deletion is revoked, and one whose user is gone is the user's", async () => {
    await token('marked', 'h-marked');
    const marked = await storage.update(TOKENS, 'marked', (t) => ({
      ...t,
      metadata: { ...t.metadata, deletionTimestamp: new Date().toISOString() },
    }));
    await cache.tokens.waitFor(marked.metadata.resourceVersion);
    expect(cache.tokenRefusal('h-marked')).toBe('revoked');
    await token('orphan', 'h-orphan');
    await storage.delete(USERS, 'ada');
    await waitFor(() => cache.users.get('ada') === undefined, { what: 'ada to leave the cache' });
    expect(cache.tokenRefusal('h-orphan')).toBe('user');
  });

  it('remembers the fate of the last tokens gone only, as many as it keeps', async () => {
    cache.stop();
    cache = new SecurityCache(storage, pino({ level: 'silent' }), 3);
    await cache.start();
    for (let i = 0; i < 4; i++) await token(`t${i}`, `h${i}`);
    for (let i = 0; i < 4; i++) await revoke(`t${i}`);
    expect(['h0', 'h1', 'h2', 'h3'].map((hash) => cache.tokenRefusal(hash))).toEqual([
      'unknown',
      'revoked',
      'revoked',
      'revoked',
    ]);
  });
});
