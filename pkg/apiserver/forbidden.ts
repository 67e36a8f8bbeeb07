import { forbidden, type StatusDetails, type StatusError } from '../api/errors';
import type { UserInfo } from '../auth/user';
import type { RequestInfo } from './request-info';

/** The 403 of a request no rule allows, in Kubernetes' words; `details` may add the nearest miss. */
export function forbiddenRequest(
  user: UserInfo,
  info: RequestInfo,
  details?: Pick<StatusDetails, 'trace' | 'templates'>,
): StatusError {
  const subject = { group: info.apiGroup, resource: info.resource, name: info.name || undefined };
  return forbidden(forbiddenMessage(user, info), subject, details);
}

/** Kubernetes' wording: `User "alice" cannot get resource "persons" in API group "example.com" at the cluster scope`. */
function forbiddenMessage(user: UserInfo, info: RequestInfo): string {
  if (!info.isResourceRequest) return `User "${user.name}" cannot ${info.verb} path "${info.path}"`;
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  const what = info.name
    ? `${info.resource}${info.apiGroup ? `.${info.apiGroup}` : ''} "${info.name}" is forbidden: `
    : '';
  return `${what}User "${user.name}" cannot ${info.verb} resource "${resource}" in API group "${info.apiGroup}" at the cluster scope`;
}
