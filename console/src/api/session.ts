/** The console's session: the bearer token it calls the API with, kept for the browser tab only. */
export interface Session {
  token: string;
  /** The user's name, read from `users/-` once the token works. */
  username: string;
  /** The personal access token made at login (revoked at logout); absent for a pasted token. */
  tokenName?: string;
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
