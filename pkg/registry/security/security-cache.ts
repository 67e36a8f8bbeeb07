import type { ApiObject } from '../../api/object';
import type { Storage } from '../../storage/interface';
import type { Logger } from '../../util/log';
import {
  enforcedRole,
  SimpleRoleGraph,
  type EnforcedRole,
  type RbacSource,
  type Role,
  type RoleBinding,
} from '../../auth/rbac';
import type { CredentialSource, LoginAccount, TokenRefusal } from '../../auth/authn/sources';
import { LOGGED_IN_GROUPS, type UserInfo } from '../../auth/user';
import { storageTypeOf } from '../model';
import { StorageMirror } from '../mirror';
import { CREDENTIALS_TYPE, passwordCredentialName, type Credential } from './credentials';
import { ROLE_BINDING_KIND } from './role-binding-kind';
import { ROLE_KIND } from './role-kind';
import { TOKEN_KIND, type TokenSpec } from './token-kind';
import { USER_KIND } from './user-kind';

/** A binding of a user to a role, as the authoriser reads it. */
interface BindingRef {
  binding: string;
  role: string;
}

/**
 * Everything authentication and authorisation read, in memory and kept
 * current by watch: users, their
 * password hashes, tokens, roles (compiled for matching) and bindings by
 * user. A change made through any replica reaches every replica's cache
 * through the type's change stream; no request waits on storage for it.
 */
export class SecurityCache implements CredentialSource, RbacSource {
  readonly users: StorageMirror;
  readonly roles: StorageMirror;
  readonly bindings: StorageMirror;
  readonly tokens: StorageMirror;
  /** Every role with its edges indexed both ways: what effective rules (and the escalation check) are computed over. */
  readonly roleGraph = new SimpleRoleGraph();
  private readonly credentials: StorageMirror;
  private readonly compiled = new Map<string, EnforcedRole>();
  private readonly bindingsByUser = new Map<string, BindingRef[]>();
  /** Token credentials by hash. */
  private readonly tokensByHash = new Map<string, Credential>();
  /** Tokens given on the command line (the controller-manager's), by hash. */
  private readonly staticTokens = new Map<string, UserInfo>();
  /**
   * The hashes of the tokens whose credential went (revoked, or cleaned up once expired), the newest
   * `maxGoneTokens` only: a 401 can then say what happened to the token. Kept in memory: after a restart such a
   * token is just unknown.
   */
  private readonly goneTokens = new Map<string, 'revoked' | 'expired'>();

  /** `maxGoneTokens`: how many gone tokens' fates are remembered (default `MAX_GONE_TOKENS`). */
  constructor(
    storage: Storage,
    log: Logger,
    private readonly maxGoneTokens = MAX_GONE_TOKENS,
  ) {
    const mirror = (type: string) => new StorageMirror(storage, type, log.child({ part: 'cache' }));
    this.users = mirror(storageTypeOf(USER_KIND));
    this.roles = mirror(storageTypeOf(ROLE_KIND));
    this.bindings = mirror(storageTypeOf(ROLE_BINDING_KIND));
    this.tokens = mirror(storageTypeOf(TOKEN_KIND));
    this.credentials = mirror(CREDENTIALS_TYPE);
    this.roles.subscribe((name, _previous, role) => {
      if (role) this.roleGraph.set(role as Role);
      else this.roleGraph.remove(name);
      // A role marked for deletion grants nothing from that moment.
      if (role && !role.metadata.deletionTimestamp) this.compiled.set(name, enforcedRole(role as Role));
      else this.compiled.delete(name);
    });
    this.bindings.subscribe((name, previous, current) => this.reindexBinding(name, previous, current));
    this.credentials.subscribe((_name, previous, current) => {
      const before = previous as Credential | undefined;
      const after = current as Credential | undefined;
      if (before?.data.token) this.tokensByHash.delete(before.data.hash);
      if (after?.data.token) this.tokensByHash.set(after.data.hash, after);
      if (before?.data.token && !after) this.rememberGone(before);
    });
  }

  /** Loads every mirrored type; resolves when the cache can answer. */
  async start(): Promise<void> {
    await Promise.all([this.users, this.roles, this.bindings, this.tokens, this.credentials].map((m) => m.start()));
  }

  stop(): void {
    for (const m of [this.users, this.roles, this.bindings, this.tokens, this.credentials]) m.stop();
  }

  /** Resolves once this replica has seen the credentials written up to `revision`. */
  credentialsSeen(revision: string | undefined): Promise<void> {
    return this.credentials.waitFor(revision);
  }

  /**
   * A store hook that holds a write's answer until this replica's cache has
   * the write: a client's next request is then judged by it (read your writes).
   */
  seenHook(mirror: StorageMirror): (object: ApiObject) => Promise<void> {
    return (object) => mirror.waitFor(object.metadata.resourceVersion);
  }

  /** Accepts `hash` (a token's SHA-256) as `user`, e.g. the controller-manager's token file. */
  addStaticToken(hash: string, user: UserInfo): void {
    this.staticTokens.set(hash, user);
  }

  /** A user marked for deletion has no account from that moment: no password or token of theirs works. */
  account(name: string): LoginAccount | undefined {
    const user = this.liveUser(name);
    if (!user) return undefined;
    const credential = this.credentials.get(passwordCredentialName(name)) as Credential | undefined;
    return { name, disabled: isDisabled(user), passwordHash: ownedBy(credential, user)?.data.hash };
  }

  /** The `metadata.uid` of the user of that name, unless there is none or it is marked for deletion. */
  liveUserUid(name: string): string | undefined {
    return this.liveUser(name)?.metadata.uid;
  }

  tokenUser(hash: string): UserInfo | undefined {
    const fixed = this.staticTokens.get(hash);
    if (fixed) return fixed;
    const credential = this.tokensByHash.get(hash);
    const token = credential === undefined ? undefined : this.tokens.get(credential.data.token!);
    if (!credential || !token || token.metadata.deletionTimestamp) return undefined;
    const spec = token.spec as TokenSpec;
    if (spec.expiresAt && Date.parse(spec.expiresAt) <= Date.now()) return undefined;
    if (!this.mayLogIn(spec.username, credential)) return undefined;
    const user: UserInfo = { name: spec.username, groups: [...LOGGED_IN_GROUPS], tokenName: token.metadata.name };
    if (spec.roles) user.roleLimit = spec.roles;
    return user;
  }

  tokenRefusal(hash: string): TokenRefusal {
    const credential = this.tokensByHash.get(hash);
    if (!credential) return this.goneTokens.get(hash) ?? 'unknown';
    const token = this.tokens.get(credential.data.token!);
    if (!token || token.metadata.deletionTimestamp) return 'revoked';
    const { expiresAt } = token.spec as TokenSpec;
    if (expiresAt && Date.parse(expiresAt) <= Date.now()) return 'expired';
    return 'user';
  }

  /** Notes why a token credential went: its token expired by then, else it was revoked. */
  private rememberGone(credential: Credential): void {
    const token = this.tokens.get(credential.data.token!);
    const expiresAt = (token?.spec as TokenSpec | undefined)?.expiresAt;
    const why = expiresAt && Date.parse(expiresAt) <= Date.now() ? 'expired' : 'revoked';
    this.goneTokens.delete(credential.data.hash);
    this.goneTokens.set(credential.data.hash, why);
    if (this.goneTokens.size > this.maxGoneTokens) this.goneTokens.delete(this.goneTokens.keys().next().value!);
  }

  /** Whether the token credential was made for the user who holds `name` now, and that user may log in. */
  private mayLogIn(name: string, credential: Credential): boolean {
    const owner = this.liveUser(name);
    if (!owner || credential.data.user !== name || !ownedBy(credential, owner)) return false;
    return !isDisabled(owner);
  }

  bindingsOf(userName: string): readonly BindingRef[] {
    return this.bindingsByUser.get(userName) ?? NO_BINDINGS;
  }

  role(name: string): EnforcedRole | undefined {
    return this.compiled.get(name);
  }

  /** Every role, for listings and the permissions endpoint. */
  allRoles(): Role[] {
    return [...this.roles.values()] as Role[];
  }

  private liveUser(name: string): ApiObject | undefined {
    const user = this.users.get(name);
    return user && !user.metadata.deletionTimestamp ? user : undefined;
  }

  private reindexBinding(name: string, previous: ApiObject | undefined, current: ApiObject | undefined): void {
    for (const subject of (previous as RoleBinding | undefined)?.subjects ?? []) {
      const list = this.userBindingsWithout(subject.name, name);
      if (list.length) this.bindingsByUser.set(subject.name, list);
      else this.bindingsByUser.delete(subject.name);
    }
    const binding = current as RoleBinding | undefined;
    // A binding being deleted grants nothing from the moment it is marked.
    if (!binding || binding.metadata.deletionTimestamp) return;
    for (const subject of binding.subjects ?? []) {
      const list = this.userBindingsWithout(subject.name, name);
      list.push({ binding: name, role: binding.roleRef.name });
      this.bindingsByUser.set(subject.name, list);
    }
  }

  /** A copy of a user's bindings without the binding `name`. */
  private userBindingsWithout(user: string, name: string): BindingRef[] {
    return (this.bindingsByUser.get(user) ?? []).filter((b) => b.binding !== name);
  }
}

const NO_BINDINGS: readonly BindingRef[] = Object.freeze([]);

/** How many gone tokens the cache remembers the fate of (a hash and a word each: about 1 MB at most). */
const MAX_GONE_TOKENS = 10_000;

/** The credential, when it was made for this very user (same uid), not an earlier user of the name. */
const ownedBy = (credential: Credential | undefined, user: ApiObject): Credential | undefined =>
  credential?.data.uid !== undefined && credential.data.uid === user.metadata.uid ? credential : undefined;

const isDisabled = (user: ApiObject) => (user.spec as { disabled?: boolean } | undefined)?.disabled === true;
