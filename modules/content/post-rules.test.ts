import type { Post, PostPhase } from './post-model';
import {
  applyAction,
  BadInput,
  editedPost,
  InvalidField,
  isPublic,
  isRefusal,
  newDraft,
  statusFor,
} from './post-rules';

const NOW = new Date('2026-01-02T03:04:05.000Z');
const EARLIER = '2025-12-01T00:00:00.000Z';

const post = (phase?: PostPhase, publish = phase === 'PUBLISHED', extra: Partial<Post['metadata']> = {}): Post => ({
  apiVersion: 'content.svc.run/v1alpha1',
  kind: 'Post',
  metadata: { name: 'hello', version: 3, ...extra },
  spec: { title: 'Hello', slug: 'hello', content: 'Hi.', owner: 'ada', publish },
  status: phase ? { phase, ...(phase === 'PUBLISHED' ? { publishTime: EARLIER } : {}) } : undefined,
});

describe('applyAction', () => {
  it('submits a draft for review, again without change, and refuses to submit a published post', () => {
    expect(applyAction(post('DRAFT'), 'submit', NOW)).toEqual({ publish: false, status: { phase: 'PENDING_REVIEW' } });
    expect(applyAction(post(), 'submit', NOW)).toEqual({ publish: false, status: { phase: 'PENDING_REVIEW' } });
    expect(applyAction(post('PENDING_REVIEW'), 'submit', NOW)).toEqual({
      publish: false,
      status: { phase: 'PENDING_REVIEW' },
    });
    expect(isRefusal(applyAction(post('PUBLISHED'), 'submit', NOW))).toBe(true);
  });

  it('publishes a draft or a post under review now, and keeps the publish time of a published one', () => {
    const published = { publish: true, status: { phase: 'PUBLISHED', publishTime: NOW.toISOString() } };
    expect(applyAction(post('DRAFT'), 'publish', NOW)).toEqual(published);
    expect(applyAction(post('PENDING_REVIEW'), 'publish', NOW)).toEqual(published);
    expect(applyAction(post('PUBLISHED'), 'publish', NOW)).toEqual({
      publish: true,
      status: { phase: 'PUBLISHED', publishTime: EARLIER },
    });
  });

  it('unpublishes a published post to a draft, and leaves others as they are', () => {
    expect(applyAction(post('PUBLISHED'), 'unpublish', NOW)).toEqual({ publish: false, status: { phase: 'DRAFT' } });
    expect(applyAction(post('PENDING_REVIEW'), 'unpublish', NOW)).toEqual({
      publish: false,
      status: { phase: 'PENDING_REVIEW' },
    });
  });
});

describe('statusFor', () => {
  it('follows spec.publish: published when asked, a draft when no longer, a draft when there is no status', () => {
    expect(statusFor(post('DRAFT', true), NOW)).toEqual({ phase: 'PUBLISHED', publishTime: NOW.toISOString() });
    expect(statusFor(post('PUBLISHED', false), NOW)).toEqual({ phase: 'DRAFT' });
    expect(statusFor(post(undefined, false), NOW)).toEqual({ phase: 'DRAFT' });
  });

  it('leaves a status that agrees alone', () => {
    expect(statusFor(post('PUBLISHED'), NOW)).toBeUndefined();
    expect(statusFor(post('DRAFT'), NOW)).toBeUndefined();
    expect(statusFor(post('PENDING_REVIEW'), NOW)).toBeUndefined();
  });
});

describe('visibility', () => {
  it('shows published posts that are not being deleted', () => {
    expect(isPublic(post('PUBLISHED'))).toBe(true);
    expect(isPublic(post('PENDING_REVIEW'))).toBe(false);
    expect(isPublic(post('PUBLISHED', true, { deletionTimestamp: NOW.toISOString() }))).toBe(false);
  });
});

describe('newDraft', () => {
  it("makes an unpublished post owned by the caller, ignoring the body's owner, publish and status", () => {
    const draft = newDraft(
      { metadata: { name: 'hi' }, spec: { title: 'Hi', slug: 'hi', owner: 'eve', publish: true }, status: {} },
      'ada',
    );
    expect(draft).toEqual({
      apiVersion: 'content.svc.run/v1alpha1',
      kind: 'Post',
      metadata: { name: 'hi' },
      spec: { title: 'Hi', slug: 'hi', owner: 'ada', publish: false },
    });
  });

  it('generates a name when none is given', () => {
    expect(newDraft({ spec: { title: 'Hi', slug: 'hi' } }, 'ada').metadata).toEqual({ generateName: 'post-' });
  });

  it('refuses a body that is not a post', () => {
    for (const body of [null, 'post', [], { spec: 'x' }, { metadata: 'x', spec: {} }]) {
      expect(() => newDraft(body, 'ada')).toThrow(BadInput);
    }
  });
});

describe('editedPost', () => {
  it('takes title, slug and content from the body, keeps the owner and publish, conditional on the version read', () => {
    const edited = editedPost(post('PENDING_REVIEW', false, { resourceVersion: '17' }), {
      metadata: { version: 3 },
      spec: { title: 'New', slug: 'new', content: 'New.', owner: 'eve', publish: true },
    });
    expect(edited).toEqual({
      apiVersion: 'content.svc.run/v1alpha1',
      kind: 'Post',
      metadata: { name: 'hello', resourceVersion: '17' },
      spec: { title: 'New', slug: 'new', content: 'New.', owner: 'ada', publish: false },
    });
  });

  it('refuses a body whose version or resourceVersion is older than the post', () => {
    const current = post('DRAFT', false, { resourceVersion: '17' });
    expect(isRefusal(editedPost(current, { metadata: { version: 2 }, spec: { title: 'x', slug: 'x' } }))).toBe(true);
    expect(
      isRefusal(editedPost(current, { metadata: { resourceVersion: '16' }, spec: { title: 'x', slug: 'x' } })),
    ).toBe(true);
  });

  it('needs a well-formed metadata.version or resourceVersion, as every PUT (InvalidField naming it)', () => {
    const current = post('DRAFT', false, { resourceVersion: '17' });
    const thrownBy = (metadata?: Record<string, unknown>): unknown => {
      try {
        editedPost(current, { metadata, spec: { title: 'x', slug: 'x' } });
      } catch (err) {
        return err;
      }
      return undefined;
    };
    const missing = thrownBy();
    expect(missing).toBeInstanceOf(InvalidField);
    expect(missing).toMatchObject({ field: 'metadata.version', reason: 'FieldValueRequired', post: 'hello' });
    expect(thrownBy({})).toMatchObject({ field: 'metadata.version', reason: 'FieldValueRequired' });
    expect(thrownBy({ version: '3' })).toMatchObject({ field: 'metadata.version', reason: 'FieldValueInvalid' });
    expect(thrownBy({ resourceVersion: 17 })).toMatchObject({
      field: 'metadata.resourceVersion',
      reason: 'FieldValueInvalid',
    });
    expect(thrownBy({ resourceVersion: '17' })).toBeUndefined();
    expect(thrownBy({ version: 3 })).toBeUndefined();
  });

  it('refuses to edit a published post', () => {
    expect(isRefusal(editedPost(post('PUBLISHED'), { spec: { title: 'x', slug: 'x' } }))).toBe(true);
  });
});
