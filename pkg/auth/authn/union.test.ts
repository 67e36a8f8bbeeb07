import type { IncomingMessage } from 'node:http';
import { unauthorized } from '../../api/errors';
import type { Authenticator } from '../authenticator';
import { unionAuthenticator } from './union';

const req = { headers: {} } as IncomingMessage;
const names = (name: string | undefined): Authenticator => ({
  authenticate: async () => (name === undefined ? undefined : { name, groups: [] }),
});

describe('unionAuthenticator', () => {
  it('answers with the first authenticator that names a user, and undefined when none does', async () => {
    expect((await unionAuthenticator([names(undefined), names('a'), names('b')]).authenticate(req))?.name).toBe('a');
    expect(await unionAuthenticator([names(undefined)]).authenticate(req)).toBeUndefined();
    expect(await unionAuthenticator([]).authenticate(req)).toBeUndefined();
  });

  it('stops at an authenticator that refuses the credentials', async () => {
    const refuses: Authenticator = {
      authenticate: async () => {
        throw unauthorized('invalid bearer token');
      },
    };
    await expect(unionAuthenticator([refuses, names('a')]).authenticate(req)).rejects.toMatchObject({ code: 401 });
  });
});
