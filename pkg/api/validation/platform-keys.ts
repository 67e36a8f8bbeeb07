import { qualifiedNamePrefix } from './qualified-name';

/**
 * The platform's label domain: `svc.run` and every
 * `*.svc.run` prefix belong to the platform, as `kubernetes.io` keys belong
 * to Kubernetes.
 */
export const PLATFORM_DOMAIN = 'svc.run';

/** Whether a key's prefix is `svc.run` or ends in `.svc.run`, e.g. `rbac.authorization.svc.run/aggregate-to-editor`. */
export function isPlatformKey(key: string): boolean {
  const prefix = qualifiedNamePrefix(key);
  return prefix !== undefined && (prefix === PLATFORM_DOMAIN || prefix.endsWith(`.${PLATFORM_DOMAIN}`));
}

/**
 * Whether an allow-list admits a key: an entry is the exact key, or, ending in
 * `*`, a prefix of it (`rbac.authorization.svc.run/aggregate-to-*`).
 */
export function isAllowedKey(key: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => (entry.endsWith('*') ? key.startsWith(entry.slice(0, -1)) : key === entry));
}

/**
 * Why a label key may not be used on an object a plugin declares (docs/api.md),
 * or undefined when it may: unprefixed keys and platform keys are refused
 * unless `allowed` admits them.
 * @example platformKeyError('app', []) // → 'label key "app" has no prefix: …'
 * @example platformKeyError('svc.run/role-template', ['svc.run/role-template']) // → undefined
 */
export function platformKeyError(key: string, allowed: readonly string[]): string | undefined {
  if (isAllowedKey(key, allowed)) return undefined;
  if (qualifiedNamePrefix(key) === undefined) {
    return `label key "${key}" has no prefix: objects a plugin declares must use a prefixed key (e.g. "example.com/${key}")`;
  }
  if (isPlatformKey(key)) {
    const exceptions = allowed.length ? allowed.join(', ') : 'none';
    return (
      `label key "${key}" is in the platform's domain ${PLATFORM_DOMAIN}, ` +
      `which objects a plugin declares may use only for the platform labels (${exceptions})`
    );
  }
  return undefined;
}
