import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import { grants } from './grants';

/** The caller's roles and UI permissions (`GET …/users/-/permissions`). */
export interface Permissions {
  roles: string[];
  uiPermissions: string[];
}

export const NO_PERMISSIONS: Permissions = { roles: [], uiPermissions: [] };

export const PermissionsContext = createContext<Permissions>(NO_PERMISSIONS);

/** Whether the caller holds at least one of these UI permissions. */
export function useHasPermission(permissions: readonly string[]): boolean {
  return grants(useContext(PermissionsContext).uiPermissions, permissions);
}

/** Renders its children only when the caller holds at least one of `permissions` (else `fallback`, default nothing). */
export function HasPermission(props: {
  permissions: readonly string[];
  children: ComponentChildren;
  fallback?: ComponentChildren;
}) {
  return <>{useHasPermission(props.permissions) ? props.children : (props.fallback ?? null)}</>;
}
