import type { ObjectRead, ObjectReadListOptions } from '../api/object-read';
import type { RequestInfo } from './request-info';

/**
 * What an in-process read addresses, as the request info HTTP would parse from the path a client builds for it
 * (`/apis/<group>/<version>/<resource>[/<name>]`, `/api/…` for the core group): the same for authorisation, the
 * handlers, the metrics and the audit. Undefined for a read that is not plainly such a path — a value that is not a
 * string, a group, version or resource a client would not put into a path as it is (pkg/client does not encode
 * them), a name that is empty, a dot segment or holds a `/` — so that it is sent as an ordinary request and judged
 * exactly as HTTP judges that path (a `/` in a name, say, is a 400). No read can address anything but one object or
 * one collection of a resource.
 */
export function readInfo(read: ObjectRead): RequestInfo | undefined {
  if (typeof read !== 'object' || read === null || !isTarget(read)) return undefined;
  const name = nameOf(read);
  if (name === undefined) return undefined;
  const { group, version, resource } = read;
  const base = group === '' ? `/api/${version}/${resource}` : `/apis/${group}/${version}/${resource}`;
  return {
    isResourceRequest: true,
    path: name ? `${base}/${name}` : base,
    verb: read.verb,
    apiPrefix: group === '' ? 'api' : 'apis',
    apiGroup: group,
    apiVersion: version,
    resource,
    subresource: '',
    name,
    parts: name ? [resource, name] : [resource],
  };
}

/** Whether the group (`''` for the core one), version and resource are each one plain path segment. */
const isTarget = ({ group, version, resource }: ObjectRead): boolean =>
  (group === '' || isPathSegment(group)) && isPathSegment(version) && isPathSegment(resource);

/** A get's name, `''` for a list; undefined for another verb or a name that is not one path segment. */
function nameOf(read: ObjectRead): string | undefined {
  if (read.verb === 'list') return '';
  if (read.verb === 'get' && isName(read.name)) return read.name;
  return undefined;
}

/** A list's options as the query HTTP would carry (what `parseListParams` reads); undefined when one is malformed. */
export function readQuery(options: ObjectReadListOptions): URLSearchParams | undefined {
  if (!isWellFormed(options)) return undefined;
  const { labelSelector, fieldSelector, limit, sort } = options;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ labelSelector, fieldSelector, continue: options.continue }))
    if (value !== undefined) query.set(key, value);
  if (limit !== undefined) query.set('limit', String(limit));
  for (const key of sort ?? []) query.append('sort', key);
  return query;
}

/** Whether list options hold only values of their types (a message may carry anything). */
function isWellFormed(options: ObjectReadListOptions): boolean {
  if (typeof options !== 'object' || options === null) return false;
  const { labelSelector, fieldSelector, limit, sort } = options;
  const texts = [labelSelector, fieldSelector, options.continue];
  const sortKeys = sort === undefined || (Array.isArray(sort) && sort.every((key) => typeof key === 'string'));
  return texts.every(isAbsentOr('string')) && isAbsentOr('number')(limit) && sortKeys;
}

const isAbsentOr = (type: 'string' | 'number') => (value: unknown) => value === undefined || typeof value === type;

/** Characters a group, version or plural keeps unchanged in a URL path (RFC 3986's unreserved ones). */
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

const isPathSegment = (value: unknown): value is string =>
  typeof value === 'string' && SEGMENT.test(value) && value !== '.' && value !== '..';

/** A name a client's path encodes as one segment (`encodeURIComponent`), which HTTP decodes back unchanged. */
const isName = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && value !== '.' && value !== '..' && !value.includes('/');
