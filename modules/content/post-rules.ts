import { API_VERSION, type Post, type PostPhase, type PostSpec, type PostStatus } from './post-model';

/** The user centre's actions on a post: `PUT …/posts/{name}/<action>`. */
export type PostAction = 'submit' | 'publish' | 'unpublish';

/** What an action or edit leads to: the post's new `spec.publish` and status, or why it may not (409). */
export type Outcome = { publish: boolean; status: PostStatus } | Refusal;

/** Why an action or edit may not be done (409). */
export interface Refusal {
  refused: string;
}

export const isRefusal = (value: object): value is Refusal =>
  typeof (value as Partial<Refusal>).refused === 'string' && !('metadata' in value);

/** Bad input from a client: a 400 with this message. */
export class BadInput extends Error {}

/** A field of a client's body that is missing or malformed: a 422 `Invalid` naming it. */
export class InvalidField extends Error {
  constructor(
    readonly field: string,
    readonly reason: 'FieldValueRequired' | 'FieldValueInvalid',
    message: string,
    /** The post the body was for. */
    readonly post: string | undefined,
  ) {
    super(message);
  }
}

/** A post without a status yet is a draft. */
export const phaseOf = (post: Post): PostPhase => post.status?.phase ?? 'DRAFT';

/** Whether the public side shows the post: published and not being deleted. */
export const isPublic = (post: Post): boolean => phaseOf(post) === 'PUBLISHED' && !post.metadata.deletionTimestamp;

/**
 * The user centre's actions (docs/content.md): submit moves a draft to
 * review; publish makes a draft or a post under review public (keeping its
 * first publish time when it is already public); unpublish makes a public
 * post a draft again. Doing what is already done changes nothing.
 */
export function applyAction(post: Post, action: PostAction, now: Date): Outcome {
  const phase = phaseOf(post);
  const status = post.status ?? { phase };
  if (action === 'submit') {
    if (phase === 'PUBLISHED')
      return { refused: 'the post is published: unpublish it before submitting it for review' };
    return { publish: false, status: { phase: 'PENDING_REVIEW' } };
  }
  if (action === 'publish') {
    if (phase === 'PUBLISHED') return { publish: true, status };
    return { publish: true, status: { phase: 'PUBLISHED', publishTime: now.toISOString() } };
  }
  return { publish: false, status: phase === 'PUBLISHED' ? { phase: 'DRAFT' } : status };
}

/**
 * The status a post's `spec.publish` asks for, or undefined when its status
 * already agrees: how a post published or unpublished through the console
 * API (by setting `spec.publish`) gets its phase.
 */
export function statusFor(post: Post, now: Date): PostStatus | undefined {
  const phase = post.status?.phase;
  if (post.spec?.publish === true && phase !== 'PUBLISHED') {
    return { phase: 'PUBLISHED', publishTime: now.toISOString() };
  }
  if (post.spec?.publish !== true && phase === 'PUBLISHED') return { phase: 'DRAFT' };
  if (phase === undefined) return { phase: 'DRAFT' };
  return undefined;
}

/**
 * A new draft from a user centre `POST` body (`{metadata: {name | generateName}, spec: {title, slug, content}}`):
 * owned by `owner`, not published. What the body says of the owner, `publish` or the status is ignored; the
 * model's schema checks the rest. Throws BadInput when the body is not such an object.
 */
export function newDraft(body: unknown, owner: string): Post {
  const { metadata, spec } = postInput(body);
  const name = typeof metadata.name === 'string' && metadata.name ? { name: metadata.name } : undefined;
  const generateName = typeof metadata.generateName === 'string' ? metadata.generateName : 'post-';
  return {
    apiVersion: API_VERSION,
    kind: 'Post',
    metadata: name ?? { generateName },
    spec: { ...editableSpec(spec), owner, publish: false } as PostSpec,
  };
}

/**
 * The post after a user centre `PUT` of `body`: its title, slug and content
 * taken from the body, its owner and `publish` kept, conditional on the
 * version that was read. As every PUT (docs/api.md), the body must carry
 * `metadata.version` or `resourceVersion` (InvalidField without), and one
 * older than the post is refused.
 * A published post is refused: unpublish it first, so that what is public
 * changes only through someone allowed to publish.
 */
export function editedPost(current: Post, body: unknown): Post | Refusal {
  if (phaseOf(current) === 'PUBLISHED') return { refused: 'the post is published: unpublish it before editing it' };
  const { metadata, spec } = postInput(body);
  checkLockToken(metadata, current.metadata.name);
  if (isStale(current, metadata)) return { refused: 'the post has been changed meanwhile: read it again' };
  return {
    apiVersion: API_VERSION,
    kind: 'Post',
    // Always the version whose owner and phase were checked: a post changed or re-created since is never overwritten.
    metadata: { name: current.metadata.name, resourceVersion: current.metadata.resourceVersion },
    spec: { ...editableSpec(spec), owner: current.spec.owner, publish: current.spec.publish === true } as PostSpec,
  };
}

/** Throws InvalidField unless the body carries a well-formed lock token (`version`, `resourceVersion`), as the generated PUT does. */
function checkLockToken(metadata: Record<string, unknown>, post: string | undefined): void {
  const { version, resourceVersion } = metadata;
  if (version !== undefined && !(typeof version === 'number' && Number.isInteger(version) && version >= 1))
    throw new InvalidField('metadata.version', 'FieldValueInvalid', 'must be a positive integer', post);
  if (resourceVersion !== undefined && (typeof resourceVersion !== 'string' || resourceVersion === ''))
    throw new InvalidField('metadata.resourceVersion', 'FieldValueInvalid', 'must be a non-empty string', post);
  if (version === undefined && resourceVersion === undefined) {
    const message = 'an update must carry metadata.version or metadata.resourceVersion';
    throw new InvalidField('metadata.version', 'FieldValueRequired', message, post);
  }
}

/** Whether the body carries a lock token (`version`, `resourceVersion`) that the current post no longer has. */
function isStale(current: Post, metadata: Record<string, unknown>): boolean {
  const { version, resourceVersion } = metadata;
  if (version !== undefined && version !== current.metadata.version) return true;
  return resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion;
}

function postInput(body: unknown): { metadata: Record<string, unknown>; spec: Record<string, unknown> } {
  if (!isRecord(body)) throw new BadInput('the body must be a JSON object: {"spec": {"title", "slug", "content"}}');
  if (body.metadata !== undefined && !isRecord(body.metadata)) throw new BadInput('metadata must be an object');
  if (!isRecord(body.spec)) throw new BadInput('spec must be an object with title, slug and content');
  return { metadata: (body.metadata as Record<string, unknown> | undefined) ?? {}, spec: body.spec };
}

/** The fields an author writes; absent ones stay absent, so the schema names what is missing. */
function editableSpec(spec: Record<string, unknown>): Partial<PostSpec> {
  const out: Record<string, unknown> = {};
  for (const key of ['title', 'slug', 'content'] as const) if (spec[key] !== undefined) out[key] = spec[key];
  return out as Partial<PostSpec>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
