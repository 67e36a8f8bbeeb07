/**
 * The labels and annotations that tie roles together (docs/security.md): read by the authoriser, the registry, the
 * plugins controller and the CLI alike.
 */

/** Label: the role is a permission template (shown as a permission, not as an assignable role). */
export const ROLE_TEMPLATE_LABEL = 'svc.run/role-template';
/** Label: the role is hidden from role lists and `users/-/permissions`. */
export const HIDDEN_LABEL = 'svc.run/hidden';
/** Label prefix: `<prefix><target>: "true"` aggregates the role into `<target>`. */
export const AGGREGATE_TO_PREFIX = 'rbac.authorization.svc.run/aggregate-to-';
/** Annotation: a JSON array of role names whose rules the role includes. */
export const DEPENDENCIES_ANNOTATION = 'rbac.authorization.svc.run/dependencies';
/** Annotation: a JSON array of UI permission strings, e.g. `["system:posts:view"]`. */
export const UI_PERMISSIONS_ANNOTATION = 'rbac.authorization.svc.run/ui-permissions';
/**
 * Annotation, written by the apiserver only: the role's definition as the role-write check admitted it; a value a
 * client sends is replaced.
 */
export const ADMITTED_ANNOTATION = 'rbac.authorization.svc.run/admitted';
/** Annotation: the module a role template belongs to (display only). */
export const MODULE_ANNOTATION = 'rbac.authorization.svc.run/module';
/** Annotation: a role's human name (display only). */
export const DISPLAY_NAME_ANNOTATION = 'rbac.authorization.svc.run/display-name';
/** Annotation: `"false"` on a built-in role keeps the apiserver from adding to it at start. */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.svc.run/autoupdate';
