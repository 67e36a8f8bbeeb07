import { ADMIN_USER } from '../../registry/security/bootstrap';
import type { Logger } from '../../util/log';

/** How to change the password of an `admin` that exists, as the warning below says it. */
export const SET_ADMIN_PASSWORD_HOWTO =
  `as an administrator: PUT /api/v1alpha1/users/${ADMIN_USER}/password {"password":"…"} ` +
  `(e.g. curl -u ${ADMIN_USER}:OLD-PASSWORD -H 'Content-Type: application/json' -X PUT ` +
  `$SVC/api/v1alpha1/users/${ADMIN_USER}/password -d '{"password":"…"}'), ` +
  `or as ${ADMIN_USER}: PUT /apis/uc.api.security.svc.run/v1alpha1/users/-/password {"oldPassword","password"}`;

/**
 * Warns that the admin password given at start (`--admin-password-file` or
 * `SVC_ADMIN_PASSWORD`) was not used: it only sets the password of an `admin`
 * that a start creates or restores, and this start found one already there.
 */
export function warnAdminPasswordIgnored(log: Logger): void {
  log.warn(
    { user: ADMIN_USER, howto: SET_ADMIN_PASSWORD_HOWTO },
    `the admin password given at start (--admin-password-file or SVC_ADMIN_PASSWORD) was ignored: "${ADMIN_USER}" ` +
      `already exists with a password, and a start only sets the password of an "${ADMIN_USER}" it creates or ` +
      `restores. To change it, ${SET_ADMIN_PASSWORD_HOWTO}`,
  );
}
