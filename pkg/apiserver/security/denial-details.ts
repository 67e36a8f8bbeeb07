import type { StatusDetails } from '../../api/errors';
import type { RequestAttributes } from '../../auth/attributes';
import type { AccessIndex } from '../../auth/insight/access-index';
import { HIDDEN_LABEL, ROLE_TEMPLATE_LABEL, type RbacAuthorizer } from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';

/** How many role templates a 403 names. */
const TEMPLATES_NAMED = 5;

/**
 * A 403's nearest miss (docs/security.md, "Why can't I?"): the roles considered and the closest rules with
 * the part of each that failed (the access review's denied `trace`), and the visible role templates that
 * would allow the request (from the who-can index: a few lookups, never a scan).
 */
export function denialDetails(
  rbac: RbacAuthorizer,
  index: AccessIndex,
): (user: UserInfo, attrs: RequestAttributes) => Pick<StatusDetails, 'trace' | 'templates'> {
  return (user, attrs) => {
    const { allowed, trace } = rbac.explain(user, attrs);
    if (allowed) return {};
    const templates = index
      .rolesAllowing(attrs)
      .filter((name) => {
        const labels = index.role(name)?.role.metadata.labels ?? {};
        return labels[ROLE_TEMPLATE_LABEL] === 'true' && labels[HIDDEN_LABEL] !== 'true';
      })
      .slice(0, TEMPLATES_NAMED);
    return { trace, templates };
  };
}
