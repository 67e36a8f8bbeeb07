import type { ApiObject } from '../../pkg/api/object';

export const GROUP = 'content.svc.run';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
/** The generated (console) API of posts, as ctx.client addresses it. */
export const POSTS = { group: GROUP, version: VERSION, plural: 'posts' };

export const PHASES = ['DRAFT', 'PENDING_REVIEW', 'PUBLISHED'] as const;
export type PostPhase = (typeof PHASES)[number];

export interface PostSpec {
  title: string;
  slug: string;
  content?: string;
  /** The user the post belongs to; set by the user centre to its caller. */
  owner: string;
  /** Whether the post should be public: the module moves `status.phase` to PUBLISHED (or away from it) to match. */
  publish: boolean;
}

export interface PostStatus {
  phase: PostPhase;
  /** When it was last published (RFC 3339). */
  publishTime?: string;
}

export interface Post extends ApiObject {
  spec: PostSpec;
  status?: PostStatus;
}

/** A URL-friendly unique name within the site: lowercase words joined by "-". */
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';

/** The `Post` model (docs/content.md), in `ctx.schemes.register`'s terms. */
export const POST_MODEL = {
  group: GROUP,
  version: VERSION,
  names: { kind: 'Post', singular: 'post', plural: 'posts' },
  schema: {
    type: 'object',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        required: ['title', 'slug', 'owner'],
        properties: {
          title: { type: 'string', minLength: 1, maxLength: 200 },
          slug: { type: 'string', minLength: 1, maxLength: 100, pattern: SLUG_PATTERN },
          content: { type: 'string' },
          owner: { type: 'string', minLength: 1 },
          publish: { type: 'boolean' },
        },
      },
      status: {
        type: 'object',
        // A new post is a draft from its create on (the apiserver starts an object with its status default).
        default: { phase: 'DRAFT' },
        properties: {
          phase: { type: 'string', enum: [...PHASES] },
          publishTime: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
  printerColumns: [
    { name: 'Title', type: 'string', jsonPath: '.spec.title' },
    { name: 'Owner', type: 'string', jsonPath: '.spec.owner' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Published', type: 'date', jsonPath: '.status.publishTime' },
  ],
};

/**
 * `spec.slug` unique; `spec.owner` for the user centre and the built-in roles' conditions; `spec.publish` and
 * `status.phase` for the contributor's conditions (never publishing) and the public side.
 */
export const POST_INDEXES = [
  { name: 'spec.slug', path: 'spec.slug', unique: true },
  // One owner's posts are one range of the index: "own posts" pages cost the same at any number of posts.
  { name: 'spec.owner', path: 'spec.owner', valueSets: true },
  { name: 'spec.publish', path: 'spec.publish' },
  { name: 'status.phase', path: 'status.phase' },
];
