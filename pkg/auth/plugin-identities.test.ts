import type { Authorizer } from './authorizer';
import type { RequestAttributes } from './attributes';
import { PluginIdentities } from './plugin-identities';

const deny: Authorizer = { authorize: async () => ({ decision: 'Deny', reason: 'no rule' }) };
const on = (apiGroup: string, resource: string, subresource = ''): RequestAttributes => ({
  isResourceRequest: true,
  path: `/apis/${apiGroup}/v1/${resource}`,
  verb: 'delete',
  apiGroup,
  resource,
  subresource,
  name: 'x',
});

describe('PluginIdentities', () => {
  it('forgets a token when the plugin is revoked or issued a new one', () => {
    const identities = new PluginIdentities();
    const first = identities.issue('notes');
    const second = identities.issue('notes');
    expect(identities.pluginOfToken(first)).toBeUndefined();
    expect(identities.pluginOfToken(second)).toBe('notes');
    expect(identities.isRunning('notes')).toBe(true);
    identities.revoke('notes');
    expect(identities.pluginOfToken(second)).toBeUndefined();
    expect(identities.isRunning('notes')).toBe(false);
  });

  it("answers a token's user while it is valid, also when asked again and again (tokenUser), and none after", () => {
    const identities = new PluginIdentities();
    const token = identities.issue('notes');
    const user = identities.tokenUser(token);
    expect(identities.userOfToken(token)).toMatchObject({ name: 'system:plugin:notes' });
    expect(user()).toEqual(identities.userOfToken(token));
    expect(identities.tokenUser('forged')()).toBeUndefined();
    identities.issue('notes');
    expect(user()).toBeUndefined();
    expect(identities.userOfToken(token)).toBeUndefined();
  });

  it('allows a plugin everything on the models it serves, and asks the next authoriser about anything else', async () => {
    const identities = new PluginIdentities();
    identities.allowModel('notes', 'notes.example.com', 'notes');
    const authorizer = identities.authorizer(deny);
    const plugin = { name: 'system:plugin:notes', groups: [] };
    expect(
      (await authorizer.authorize({ user: plugin, info: on('notes.example.com', 'notes', 'status') })).decision,
    ).toBe('Allow');
    expect((await authorizer.authorize({ user: plugin, info: on('notes.example.com', 'others') })).decision).toBe(
      'Deny',
    );
    const other = { name: 'system:plugin:people', groups: [] };
    expect((await authorizer.authorize({ user: other, info: on('notes.example.com', 'notes') })).decision).toBe('Deny');
    identities.revoke('notes');
    expect((await authorizer.authorize({ user: plugin, info: on('notes.example.com', 'notes') })).decision).toBe(
      'Deny',
    );
  });
});
