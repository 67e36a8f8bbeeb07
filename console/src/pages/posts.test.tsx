import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { fakeServer, invalid, renderSignedIn, type Answer } from '../testing';
import { PostsPage, type Post } from './posts';

// The Posts page against the content module's contract: the user-centre API for one's own posts, the console API
// for every post; buttons by UI permissions.

const draft: Post = {
  metadata: { name: 'hello', version: 1 },
  spec: { title: 'Hello', slug: 'hello', content: 'hi', owner: 'carol' },
  status: { phase: 'DRAFT' },
};

/** Answers the list with `posts` and every write with `write` (default 200 `{}`); records the calls. */
const postsServer = (posts: Post[], write: () => Answer = () => ({})) =>
  fakeServer(({ method }) => (method === 'GET' ? { items: posts } : write()));

const renderAs = (uiPermissions: string[]) => renderSignedIn(<PostsPage />, { uiPermissions });

describe('the Posts page', () => {
  it('shows a contributor their own posts with edit and submit, not publish or delete', async () => {
    const calls = postsServer([draft]);
    renderAs(['uc:posts:contribute']);
    await screen.findByRole('button', { name: 'Submit Hello for review' });
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/apis/uc.api.content.svc.run/v1alpha1/posts' });
    expect(screen.getByRole('button', { name: 'Edit Hello' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Publish Hello' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Hello' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'New post' })).toBeTruthy();
  });

  it('lets an author publish their own post through the user-centre API', async () => {
    const calls = postsServer([draft]);
    renderAs(['uc:posts:contribute', 'uc:posts:publish']);
    fireEvent.click(await screen.findByRole('button', { name: 'Publish Hello' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.url).toBe(
      '/apis/uc.api.content.svc.run/v1alpha1/posts/hello/publish',
    );
    expect(screen.getByRole('button', { name: 'Delete Hello' })).toBeTruthy();
  });

  it('shows a post administrator every post with its owner, publishing through the console API', async () => {
    const calls = postsServer([draft]);
    renderAs(['system:posts:view', 'system:posts:manage']);
    fireEvent.click(await screen.findByRole('button', { name: 'Publish Hello' }));
    expect(calls[0].url).toBe('/apis/content.svc.run/v1alpha1/posts');
    expect(screen.getByRole('columnheader', { name: 'Owner' })).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe('/apis/content.svc.run/v1alpha1/posts/hello');
    expect(JSON.parse(patch?.body ?? '{}')).toEqual({ spec: { publish: true } });
    expect(screen.queryByRole('heading', { name: 'New post' })).toBeNull();
  });

  it('shows a viewer every post and no buttons', async () => {
    postsServer([draft]);
    renderAs(['system:posts:view']);
    await screen.findByText('Hello');
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it("puts the server's validation cause on its field", async () => {
    const refusal = () =>
      invalid('Post.content.svc.run "Bad" is invalid', [{ field: 'spec.slug', message: 'must be a DNS label' }]);
    postsServer([], refusal);
    renderAs(['uc:posts:contribute']);
    fireEvent.input(await screen.findByLabelText('Title'), { target: { value: 'Bad' } });
    fireEvent.input(screen.getByLabelText('Slug'), { target: { value: 'Bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('must be a DNS label', { selector: 'small' });
    expect(screen.getByLabelText('Slug').getAttribute('aria-invalid')).toBe('true');
  });
});
