import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../authenticator';
import { PluginIdentities } from '../plugin-identities';
import type { UserInfo } from '../user';
import { PluginImpersonation } from './plugin-impersonation';

const CONTROLLER = 'system:controller-manager';
const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
/** Authenticates `Authorization: User <name>` as that user. */
const byHeader: Authenticator = {
  authenticate: async (req) => {
    const name = /^User (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return name === undefined ? undefined : { name, groups: ['authenticated'] };
  },
};
const controllerOnly = (user: UserInfo | undefined) => user?.name === CONTROLLER;

function setup() {
  const identities = new PluginIdentities();
  identities.issue('notes');
  return { identities, authenticator: new PluginImpersonation(byHeader, identities, controllerOnly) };
}

describe('PluginImpersonation', () => {
  it('lets the controller-manager act as a running plugin', async () => {
    const { authenticator } = setup();
    const user = await authenticator.authenticate(
      request({ authorization: `User ${CONTROLLER}`, 'impersonate-user': 'system:plugin:notes' }),
    );
    expect(user).toEqual({ name: 'system:plugin:notes', groups: ['authenticated', 'anonymous'] });
  });

  it('refuses anyone else, and a plugin that is not running', async () => {
    const { identities, authenticator } = setup();
    const asAlice = request({ authorization: 'User alice', 'impersonate-user': 'system:plugin:notes' });
    await expect(authenticator.authenticate(asAlice)).rejects.toMatchObject({
      code: 403,
      message: 'users "system:plugin:notes" is forbidden: User "alice" cannot impersonate plugin identities',
    });
    const anonymous = request({ 'impersonate-user': 'system:plugin:notes' });
    await expect(authenticator.authenticate(anonymous)).rejects.toMatchObject({ code: 403 });
    const stopped = request({ authorization: `User ${CONTROLLER}`, 'impersonate-user': 'system:plugin:people' });
    await expect(authenticator.authenticate(stopped)).rejects.toMatchObject({
      code: 403,
      message: 'users "system:plugin:people" is forbidden: plugin "people" is not running',
    });
    identities.revoke('notes');
    const revoked = request({ authorization: `User ${CONTROLLER}`, 'impersonate-user': 'system:plugin:notes' });
    await expect(authenticator.authenticate(revoked)).rejects.toMatchObject({ code: 403 });
  });

  it('leaves requests without the header, or naming someone not a plugin, as they are', async () => {
    const { authenticator } = setup();
    expect((await authenticator.authenticate(request({ authorization: 'User alice' })))?.name).toBe('alice');
    const other = request({ authorization: 'User alice', 'impersonate-user': 'admin' });
    expect((await authenticator.authenticate(other))?.name).toBe('alice');
    expect(await authenticator.authenticate(request({}))).toBeUndefined();
  });
});
