import pino from 'pino';
import type { ApiObject } from '../../api/object';
import { MemoryStorage } from '../../storage/memory/memory-storage';
import { waitFor } from '../../util/wait-for';
import { storageTypeOf } from '../model';
import { LastSuperAdminGuard } from './last-super-admin';
import { ROLE_BINDING_KIND } from './role-binding-kind';
import { SecurityCache } from './security-cache';
import { USER_KIND } from './user-kind';

const USERS = storageTypeOf(USER_KIND);
const BINDINGS = storageTypeOf(ROLE_BINDING_KIND);

const user = (name: string, spec: Record<string, unknown> = {}): ApiObject => ({
  apiVersion: 'v1alpha1',
  kind: 'User',
  metadata: { name },
  spec,
});
const binding = (name: string, role: string, subjects: string[]): ApiObject => ({
  apiVersion: 'v1alpha1',
  kind: 'RoleBinding',
  metadata: { name },
  roleRef: { apiGroup: '', kind: 'Role', name: role },
  subjects: subjects.map((s) => ({ kind: 'User', apiGroup: '', name: s })),
});

let storage: MemoryStorage;
let cache: SecurityCache;
let guard: LastSuperAdminGuard;

/** Stores the objects and waits until the cache has them. */
async function given(...objects: ApiObject[]): Promise<void> {
  for (const o of objects) await storage.create(o.kind === 'User' ? USERS : BINDINGS, o);
  await waitFor(() => objects.every((o) => (o.kind === 'User' ? cache.users : cache.bindings).get(o.metadata.name!)));
}

beforeEach(async () => {
  storage = new MemoryStorage();
  cache = new SecurityCache(storage, pino({ level: 'silent' }));
  guard = new LastSuperAdminGuard(cache);
  await cache.start();
});
afterEach(async () => {
  cache.stop();
  await storage.close();
});

describe('LastSuperAdminGuard', () => {
  it('counts the enabled users bound to super-role by a binding not being deleted', async () => {
    await given(
      user('ada'),
      user('dis', { disabled: true }),
      user('gone'),
      user('edd'),
      binding('b1', 'super-role', ['ada', 'dis', 'ghost']),
      binding('b2', 'editor', ['edd']),
    );
    await storage.update(USERS, 'gone', (u) => ({ ...u, metadata: { ...u.metadata, deletionTimestamp: 'now' } }));
    await given(binding('b3', 'super-role', ['gone', 'edd']));
    await storage.update(BINDINGS, 'b3', (b) => ({ ...b, metadata: { ...b.metadata, deletionTimestamp: 'now' } }));
    await waitFor(() => cache.bindings.get('b3')?.metadata.deletionTimestamp);
    expect([...guard.enabledSuperAdmins()]).toEqual(['ada']);
  });

  it('refuses (409) the loss of the last one, and allows it while another remains or when none was left', async () => {
    await given(
      user('ada'),
      user('bob'),
      binding('ada-su', 'super-role', ['ada']),
      binding('bob-su', 'super-role', ['bob']),
    );
    expect(() => guard.checkUnbinding('ada-su', ['ada'], true)).not.toThrow();
    expect(() => guard.checkUserRemoval('bob', true)).not.toThrow();
    expect(() => guard.check({ users: ['bob'], unbound: [{ binding: 'ada-su', users: ['ada'] }] }, {}, false)).toThrow(
      expect.objectContaining({ code: 409, reason: 'Conflict' }),
    );
    await storage.delete(BINDINGS, 'ada-su');
    await storage.delete(BINDINGS, 'bob-su');
    await waitFor(() => cache.bindings.get('bob-su') === undefined);
    expect(() => guard.checkUserRemoval('bob', false)).not.toThrow();
  });

  it('counts a recorded loss as done until the cache shows it, or for 10 s; a dry run records nothing', async () => {
    await given(
      user('ada'),
      user('bob'),
      binding('ada-su', 'super-role', ['ada']),
      binding('bob-su', 'super-role', ['bob']),
    );
    guard.checkUnbinding('ada-su', ['ada'], true);
    expect(() => guard.checkUnbinding('bob-su', ['bob'], true)).not.toThrow();
    guard.checkUnbinding('ada-su', ['ada'], false);
    // The same write checked again (a retry) still passes; another loss does not.
    expect(() => guard.checkUnbinding('ada-su', ['ada'], false)).not.toThrow();
    expect(() => guard.checkUserRemoval('bob', true)).toThrow(expect.objectContaining({ code: 409 }));
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 10_001);
    try {
      expect(() => guard.checkUserRemoval('bob', true)).not.toThrow();
    } finally {
      clock.mockRestore();
    }
  });

  it('forgets a recorded loss once the cache shows it', async () => {
    await given(
      user('ada'),
      user('bob'),
      binding('ada-su', 'super-role', ['ada']),
      binding('bob-su', 'super-role', ['bob']),
    );
    guard.checkUnbinding('ada-su', ['ada'], false);
    const setSubjects = async (subjects: string[]) => {
      await storage.update(BINDINGS, 'ada-su', (b) => ({ ...b, subjects: binding('', '', subjects).subjects }));
      await waitFor(() => cache.bindingsOf('ada').length === subjects.length);
    };
    await setSubjects([]);
    await setSubjects(['ada']);
    // ada was bound again after the loss was seen: she counts, so bob may go.
    expect(() => guard.checkUserRemoval('bob', true)).not.toThrow();
  });
});
