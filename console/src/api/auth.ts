import { api } from './client';
import { MY_TOKENS, MY_USER, TOKEN_ANNOTATION } from './paths';
import type { Session } from './session';

/** How long a token made at login lives, should the tab close without logging out. */
const LOGIN_TOKEN_HOURS = 12;

interface TokenObject {
  metadata: { name: string; annotations?: Record<string, string> };
}

/** Logs in with a password: makes a personal access token for this session (the password is not kept). */
export async function loginWithPassword(username: string, password: string): Promise<Session> {
  const authorization = `Basic ${btoa(unescape(encodeURIComponent(`${username}:${password}`)))}`;
  const expiresAt = new Date(Date.now() + LOGIN_TOKEN_HOURS * 3600_000).toISOString();
  const created = await api<TokenObject>('POST', MY_TOKENS, {
    authorization,
    body: { spec: { displayName: `console login ${new Date().toISOString()}`, expiresAt } },
  });
  const token = created.metadata.annotations?.[TOKEN_ANNOTATION];
  if (!token) throw new Error('the server made a token but did not return its secret');
  return { token, username, tokenName: created.metadata.name, expiresAt };
}

/** Logs in with an existing token: checks it and learns whose it is. */
export async function loginWithToken(token: string): Promise<Session> {
  const me = await api<{ metadata: { name: string } }>('GET', MY_USER, { authorization: `Bearer ${token}` });
  return { token, username: me.metadata.name };
}

/** Revokes the token made at login (a pasted token stays valid: it is the user's own). */
export async function logout(session: Session): Promise<void> {
  if (!session.tokenName) return;
  await api('DELETE', `${MY_TOKENS}/${encodeURIComponent(session.tokenName)}`, {
    authorization: `Bearer ${session.token}`,
  });
}
