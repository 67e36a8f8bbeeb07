import type { StatusDetails } from '../../api/errors';
import type { RequestAttributes } from '../../auth/attributes';
import type { AccessIndex } from '../../auth/insight/access-index';
import { nearestMiss } from '../../auth/insight/nearest-miss';
import { HIDDEN_LABEL, ROLE_TEMPLATE_LABEL, type EnforcedRole, type RbacSource } from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';

/** How many role templates a 403 names. */
const TEMPLATES_NAMED = 5;

/**
 * A 403's nearest miss (docs/security.md, "Why can't I?"): the roles considered and the closest rules with
 * the part of each that failed (the access review's denied `trace`), and the visible role templates that
 * would allow the request (from the who-can index: a few lookups, never a scan).
 */
export function denialDetails(
  source: RbacSource,
  index: AccessIndex,
): (user: UserInfo, attrs: RequestAttributes) => Pick<StatusDetails, 'trace' | 'templates'> {
  const templates = templatesCache(index);
  return (user, attrs) => ({ trace: nearestMiss(source, user, attrs), templates: templates(attrs) });
}

/** Only visible role templates are named: the others are not the user's to ask for. */
function isVisibleTemplate({ role }: EnforcedRole): boolean {
  const labels = role.metadata.labels ?? {};
  return labels[ROLE_TEMPLATE_LABEL] === 'true' && labels[HIDDEN_LABEL] !== 'true';
}

/** How many requests' templates are kept (until a role changes). */
const MAX_CACHED = 1024;

/** The visible templates that would allow a request, kept per request until a role changes. */
function templatesCache(index: AccessIndex): (attrs: RequestAttributes) => string[] {
  const cache = new Map<string, string[]>();
  let version = index.rolesVersion;
  return (attrs) => {
    if (version !== index.rolesVersion) {
      cache.clear();
      version = index.rolesVersion;
    }
    const key = JSON.stringify([
      attrs.isResourceRequest,
      attrs.verb,
      attrs.apiGroup,
      attrs.resource,
      attrs.subresource,
      attrs.name,
      attrs.isResourceRequest ? '' : attrs.path,
    ]);
    let templates = cache.get(key);
    if (templates === undefined) {
      templates = index.rolesAllowing(attrs, isVisibleTemplate).slice(0, TEMPLATES_NAMED);
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      cache.set(key, templates);
    }
    return templates;
  };
}
