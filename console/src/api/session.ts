/** The console's session: the bearer token it calls the API with, kept for the browser tab only. */
export interface Session {
  token: string;
  /** The user's name, read from `users/-` once the token works. */
  username: string;
  /** The personal access token made at login (revoked at logout); absent for a pasted token. */
  tokenName?: string;
  /** When the token made at login expires (ISO time); absent for a pasted token. */
  expiresAt?: string;
}

/**
 * Why the server stopped accepting the session's token, in the user's words.
 * Its 401 does not say which (it tells a token holder nothing about the
 * token), so past the login token's expiry it is "expired", else the causes it can be.
 */
export function sessionEndReason(session: Session, now = Date.now()): string {
  if (session.expiresAt && Date.parse(session.expiresAt) <= now)
    return `Your session expired at ${new Date(session.expiresAt).toLocaleString()}. Log in again.`;
  return (
    'Your session ended: the server no longer accepts its token. It was revoked (a logout in another tab, or by ' +
    'an administrator), your user was disabled, or the server restarted without keeping sessions. Log in again.'
  );
}

const KEY = 'svc.console.session';

export function loadSession(): Session | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return value?.token && value.username ? value : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}
