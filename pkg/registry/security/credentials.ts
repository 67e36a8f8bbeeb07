import type { ApiObject } from '../../api/object';
import type { Storage } from '../../storage/interface';
import { isStorageError } from '../../storage/errors';

/**
 * Where password and token hashes live: a storage type of its own that no
 * HTTP route serves, so no API, list, watch or error can ever carry one
 * (docs/api.md, docs/security.md). One object per user password (`password-<user>`) and per
 * personal access token (`token-<token name>`).
 */
export const CREDENTIALS_TYPE = 'credentials.internal.svc.run';

/**
 * A stored credential: an argon2id hash of a password, or the SHA-256 of a token. `uid` is the `metadata.uid` of
 * the user it was made for: it works only while the user of that name has that uid, so a deleted user's
 * credentials never log in a later user of the same name. Absent only on credentials stored before uids were
 * recorded (see `tidyCredentials`).
 */
export interface Credential extends ApiObject {
  data: { user: string; uid?: string; hash: string; token?: string };
}

export const passwordCredentialName = (user: string) => `password-${user}`;
export const tokenCredentialName = (token: string) => `token-${token}`;

/** Writes and removes credentials; reading is the security cache's job. Writes return the revision they made. */
export class CredentialStore {
  constructor(private readonly storage: Storage) {}

  /** Declares the type; call once at start. */
  define(): Promise<void> {
    return this.storage.defineType(CREDENTIALS_TYPE, []);
  }

  /** Whether the user has a password (a first start that died before storing the admin's has none). */
  async hasPassword(user: string): Promise<boolean> {
    try {
      await this.storage.get(CREDENTIALS_TYPE, passwordCredentialName(user));
      return true;
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
      return false;
    }
  }

  /** Stores the password hash of the user `user` whose `metadata.uid` is `uid`. */
  setPassword(user: string, uid: string, hash: string): Promise<string | undefined> {
    return this.put(passwordCredentialName(user), { user, uid, hash });
  }

  /** Stores the hash of the token `tokenName`, made for the user `user` whose `metadata.uid` is `uid`. */
  setTokenHash(tokenName: string, user: string, uid: string, hash: string): Promise<string | undefined> {
    return this.put(tokenCredentialName(tokenName), { user, uid, hash, token: tokenName });
  }

  /** Every stored credential (hashes included: for the apiserver's own start-up work only). */
  async list(): Promise<Credential[]> {
    return (await this.storage.list(CREDENTIALS_TYPE)).items as Credential[];
  }

  /** Records `uid` on a credential that has none; false when it is gone or has one already. */
  async adopt(name: string, uid: string): Promise<boolean> {
    try {
      let adopted = false;
      await this.storage.update(CREDENTIALS_TYPE, name, (current) => {
        const data = (current as Credential).data;
        adopted = data.uid === undefined;
        return adopted ? { ...current, data: { ...data, uid } } : current;
      });
      return adopted;
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
      return false;
    }
  }

  async remove(name: string): Promise<string | undefined> {
    try {
      return (await this.storage.delete(CREDENTIALS_TYPE, name)).metadata.resourceVersion;
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
      return undefined;
    }
  }

  private async put(name: string, data: Credential['data']): Promise<string | undefined> {
    const object: Credential = { apiVersion: 'v1alpha1', kind: 'Credential', metadata: { name }, data };
    try {
      return (await this.storage.create(CREDENTIALS_TYPE, object)).metadata.resourceVersion;
    } catch (err) {
      if (!isStorageError(err, 'AlreadyExists')) throw err;
      return (await this.storage.update(CREDENTIALS_TYPE, name, (current) => ({ ...current, data }))).metadata
        .resourceVersion;
    }
  }
}
