import type { IncomingMessage } from 'node:http';
import { PluginIdentities } from '../plugin-identities';
import { PluginTokenAuthenticator } from './plugin-token';

const request = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as IncomingMessage;

describe('PluginTokenAuthenticator', () => {
  it("authenticates a plugin's token as system:plugin:<name>, and leaves other requests to the next authenticator", async () => {
    const identities = new PluginIdentities();
    const authenticator = new PluginTokenAuthenticator(identities);
    const token = identities.issue('notes');
    expect(await authenticator.authenticate(request(token))).toEqual({
      name: 'system:plugin:notes',
      groups: ['authenticated', 'anonymous'],
    });
    expect(await authenticator.authenticate(request('svc_someone-elses'))).toBeUndefined();
    expect(await authenticator.authenticate({ headers: {} } as IncomingMessage)).toBeUndefined();
    identities.revoke('notes');
    expect(await authenticator.authenticate(request(token))).toBeUndefined();
  });
});
