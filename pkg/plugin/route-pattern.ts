import { isPlatformGroup } from '../registry/model-validation';

/** A plugin route's path, parsed: `/apis/<group>/<version>/<resource>/…` with `{param}` segments after the resource. */
export interface RoutePattern {
  path: string;
  group: string;
  version: string;
  /** The first segment after the version: the resource the route authorises as (docs/security.md). */
  resource: string;
  /** Every segment after the version, the resource first; `{name}` segments are parameters. */
  segments: string[];
}

const PARAM = /^\{([A-Za-z_][\w]*)\}$/;
const LITERAL = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;

/**
 * Parses a plugin route's path, refusing one under `/api/`, one outside
 * `/apis/<group>/<version>/<resource>`, one in a platform group (empty or
 * `*.svc.run`; allowed to built-in plugins) and one whose group, version or resource is a parameter.
 * Throws an Error whose message says why.
 */
export function parseRoutePath(path: string, allowPlatformGroup = false): RoutePattern {
  const [group, version, ...segments] = pathParts(path);
  if ([group, version, segments[0]].some((p) => !LITERAL.test(p) || PARAM.test(p))) {
    throw new Error(`route ${path}: the group, version and first resource segment must be literal`);
  }
  if (isPlatformGroup(group) && !allowPlatformGroup)
    throw new Error(`route ${path}: group "${group}" belongs to the platform`);
  checkSegments(path, segments);
  return { path, group, version, resource: segments[0], segments };
}

/** The parts after `/apis/` of a path of the form `/apis/<group>/<version>/<resource>[/…]`; throws otherwise. */
function pathParts(path: string): string[] {
  if (path.startsWith('/api/') || path === '/api')
    throw new Error(`route ${path}: paths under /api/ belong to the platform`);
  const parts = path.split('/');
  if (parts[0] !== '' || parts[1] !== 'apis' || parts.length < 5 || parts.slice(2).some((p) => p === '')) {
    throw new Error(`route ${path}: must be /apis/<group>/<version>/<resource>[/…]`);
  }
  return parts.slice(2);
}

/** Each segment is a literal or a `{param}`, and no parameter appears twice. */
function checkSegments(path: string, segments: string[]): void {
  const names = new Set<string>();
  for (const segment of segments) {
    const param = PARAM.exec(segment)?.[1];
    if (param && names.has(param)) throw new Error(`route ${path}: parameter {${param}} appears twice`);
    if (param) names.add(param);
    else if (!LITERAL.test(segment))
      throw new Error(`route ${path}: segment "${segment}" is neither a literal nor a {param}`);
  }
}

/** The path parameters when `parts` (the decoded segments after the version) match the pattern; else undefined. */
export function matchRoute(pattern: RoutePattern, parts: string[]): Record<string, string> | undefined {
  if (parts.length !== pattern.segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of pattern.segments.entries()) {
    const param = PARAM.exec(segment)?.[1];
    if (param) {
      if (parts[i] === '') return undefined;
      params[param] = parts[i];
    } else if (parts[i] !== segment) {
      return undefined;
    }
  }
  return params;
}
