import type { Logger } from '../../util/log';
import type { ResourceStore } from '../resource-store';
import type { CredentialStore } from './credentials';

/**
 * Gives every credential stored before credentials recorded their user's `metadata.uid` the uid of the user who
 * now holds that name: nothing told one user of a name from an earlier one then, so the current holder keeps the
 * password and tokens they log in with today. A credential whose user is gone or being deleted is removed
 * instead. Users are read from storage after the credentials, so a user made since is never missed. Runs at every
 * start (it finds nothing to do once done); authentication refuses a credential without a uid meanwhile.
 */
export async function adoptUnownedCredentials(
  credentials: CredentialStore,
  users: ResourceStore,
  log: Logger,
): Promise<void> {
  const unowned = (await credentials.list()).filter((c) => c.data.uid === undefined);
  for (const credential of unowned) {
    const name = credential.metadata.name!;
    const user = await currentUser(users, credential.data.user);
    if (user && !user.metadata.deletionTimestamp && user.metadata.uid) {
      if (await credentials.adopt(name, user.metadata.uid))
        log.info({ user: credential.data.user, token: credential.data.token }, 'credential given its user uid');
    } else {
      await credentials.remove(name);
      log.info(
        { user: credential.data.user, token: credential.data.token },
        'credential of a user that is gone removed',
      );
    }
  }
}

async function currentUser(users: ResourceStore, name: string) {
  try {
    return await users.get(name);
  } catch (err) {
    if ((err as { code?: number }).code === 404) return undefined;
    throw err;
  }
}
