import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../authenticator';
import type { UserInfo } from '../user';

/**
 * Who an in-process request acts for, set by the apiserver itself when a plugin's handler calls the API on behalf
 * of the user who called its route (`req.client`, docs/plugins.md). A symbol on the request object: nothing that
 * arrives over a connection, no header or token, can carry it.
 */
const CALLER = Symbol('svc.in-process-caller');

type WithCaller = IncomingMessage & { [CALLER]?: UserInfo };

/** Marks an in-process request as acting for `user`, exactly as that user was authenticated (role limits kept). */
export function actFor(req: IncomingMessage, user: UserInfo): void {
  (req as WithCaller)[CALLER] = user;
}

/** The user an in-process request acts for; any other request is left to the next authenticator. */
export const inProcessCallerAuthenticator: Authenticator = {
  authenticate: (req) => Promise.resolve((req as WithCaller)[CALLER]),
};
