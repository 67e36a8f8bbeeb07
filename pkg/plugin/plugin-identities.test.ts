import type { IncomingMessage } from 'node:http';
import type { Authorizer } from '../auth/authorizer';
import type { RequestAttributes } from '../auth/attributes';
import { PluginIdentities } from './plugin-identities';

const request = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as IncomingMessage;
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
  it("authenticates a plugin's token as system:plugin:<name>, and leaves other tokens to the next authenticator", async () => {
    const identities = new PluginIdentities();
    const token = identities.issue('notes');
    expect(await identities.authenticate(request(token))).toEqual({
      name: 'system:plugin:notes',
      groups: ['authenticated', 'anonymous'],
    });
    expect(await identities.authenticate(request('svc_someone-elses'))).toBeUndefined();
    expect(await identities.authenticate({ headers: {} } as IncomingMessage)).toBeUndefined();
  });

  it('forgets a token when the plugin is revoked or issued a new one', async () => {
    const identities = new PluginIdentities();
    const first = identities.issue('notes');
    const second = identities.issue('notes');
    expect(await identities.authenticate(request(first))).toBeUndefined();
    expect((await identities.authenticate(request(second)))?.name).toBe('system:plugin:notes');
    identities.revoke('notes');
    expect(await identities.authenticate(request(second))).toBeUndefined();
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
