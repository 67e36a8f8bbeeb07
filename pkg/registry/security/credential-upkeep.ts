import type { ApiObject } from '../../api/object';
import type { Logger } from '../../util/log';
import type { ResourceStore } from '../resource-store';
import type { Credential, CredentialStore } from './credentials';

/** The stores whose objects credentials belong to. */
export interface CredentialOwners {
  users: ResourceStore;
  tokens: ResourceStore;
}

/**
 * Run at every apiserver start, before it serves:
 *
 * - a credential stored before credentials recorded their user's `metadata.uid` is given the uid of the user who
 *   now holds that name: nothing told one user of a name from an earlier one then, so the current holder keeps the
 *   password and tokens they log in with today (authentication refuses a credential without a uid meanwhile);
 * - a credential nobody can use any more is removed: its user is gone or has another uid now (a user removed
 *   without cleanup), or its token was revoked while a process stopped before removing the hash.
 *
 * A credential of a user being deleted is left to the user-cleanup controller. Users and tokens are listed after
 * the credentials, so the owner of any credential listed (always stored first) is seen.
 */
export async function tidyCredentials(credentials: CredentialStore, owners: CredentialOwners, log: Logger) {
  const stored = await credentials.list();
  const users = byName((await owners.users.list({})).items);
  const tokens = byName((await owners.tokens.list({})).items);
  for (const credential of stored) {
    const name = credential.metadata.name!;
    const fields = { user: credential.data.user, token: credential.data.token };
    const owner = ownerOf(credential, users, tokens);
    if (owner === undefined) {
      if ((await credentials.remove(name)) !== undefined) log.info(fields, 'credential nobody can use removed');
    } else if (credential.data.uid === undefined && !owner.metadata.deletionTimestamp) {
      if (await credentials.adopt(name, owner.metadata.uid!)) log.info(fields, 'credential given its user uid');
    }
  }
}

/** The user the credential still belongs to (or may be given to), or undefined when it belongs to nobody. */
function ownerOf(
  credential: Credential,
  users: Map<string, ApiObject>,
  tokens: Map<string, ApiObject>,
): ApiObject | undefined {
  const { user: name, uid, token } = credential.data;
  if (token !== undefined) {
    const object = tokens.get(token);
    if (!object || object.metadata.deletionTimestamp) return undefined;
  }
  const user = users.get(name);
  if (!user) return undefined;
  if (uid === undefined) return user.metadata.deletionTimestamp ? undefined : user;
  return uid === user.metadata.uid ? user : undefined;
}

const byName = (objects: ApiObject[]) => new Map(objects.map((o) => [o.metadata.name!, o]));
