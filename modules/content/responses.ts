import { badRequest, conflict, invalid, notFound, type StatusError } from '../../pkg/api/errors';
import { ApiError } from '../../pkg/client/errors';
import { BadInput, InvalidField } from './post-rules';

/** A JSON answer, with extra headers (e.g. `Location`). */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { ...headers, 'content-type': 'application/json' } });

/** The platform's error as the `Status` answer every svc API gives. */
const statusAnswer = (err: StatusError): Response => json(err.toStatus(), err.code);

const subject = (name: string) => ({ group: 'content.svc.run', resource: 'posts', name });

/** 404 for a post that does not exist or that the caller may not see: the two look the same. */
export const postNotFound = (name: string): Response => statusAnswer(notFound(subject(name)));

/** 409 for an action the post's phase does not allow. */
export const refused = (name: string, message: string): Response =>
  statusAnswer(conflict(subject(name), `post "${name}": ${message}`));

/**
 * Runs a handler, answering the apiserver's refusals of the module's own
 * calls (a taken slug, a failed validation, a stale version) with the
 * apiserver's `Status`, bad input with a 400 and an invalid field with a 422.
 * Anything else is a 500.
 */
export async function answering(handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle();
  } catch (err) {
    if (err instanceof ApiError) return json(err.status, err.code);
    if (err instanceof BadInput) return statusAnswer(badRequest(err.message));
    if (err instanceof InvalidField) {
      const cause = { field: err.field, reason: err.reason, message: err.message };
      return statusAnswer(invalid({ kind: 'Post', name: err.post }, [cause]));
    }
    throw err;
  }
}

/** The request's JSON body; BadInput when it is not JSON. */
export async function jsonBody(req: Request): Promise<unknown> {
  const text = await req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadInput('the body must be JSON');
  }
}
