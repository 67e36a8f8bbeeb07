import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { MY_POSTS } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { TextField } from '../components/field';
import { useAction } from '../components/use-async';
import type { Post } from './posts';

type Fields = { title: string; slug: string; content: string };

const fieldsOf = (post: Post | undefined): Fields => ({
  title: post?.spec.title ?? '',
  slug: post?.spec.slug ?? '',
  content: post?.spec.content ?? '',
});

/** Creates a draft (named by its slug), or updates one's own post as a whole (a stale version is a 409). */
async function savePost(post: Post | undefined, fields: Fields): Promise<void> {
  if (post) {
    const path = `${MY_POSTS}/${encodeURIComponent(post.metadata.name)}`;
    await api('PUT', path, { body: { ...post, spec: { ...post.spec, ...fields } } });
    return;
  }
  const body = { apiVersion: 'content.svc.run/v1alpha1', kind: 'Post', metadata: { name: fields.slug }, spec: fields };
  await api('POST', MY_POSTS, { body });
}

/** A new draft, or an edit of one's own post (the user-centre API); the server's causes land on their fields. */
export function PostForm(props: { post?: Post; onSaved: () => void; onCancel: () => void }) {
  const { post } = props;
  const [form, setForm] = useState(() => fieldsOf(post));
  const action = useAction();
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await savePost(post, form);
      setForm(fieldsOf(undefined));
      props.onSaved();
    });
  };
  const causes = action.error?.causes;
  return (
    <form onSubmit={submit} aria-labelledby="post-form">
      <h2 id="post-form">{post ? `Edit ${post.spec.title ?? post.metadata.name}` : 'New post'}</h2>
      <TextField label="Title" name="title" value={form.title} onInput={set('title')} required causes={causes} />
      <TextField
        label="Slug"
        name="slug"
        value={form.slug}
        onInput={set('slug')}
        required
        causes={causes}
        hint="lowercase letters, digits and -"
      />
      <div class="field">
        <label for="field-content">Content</label>
        <textarea
          id="field-content"
          rows={6}
          value={form.content}
          onInput={(e) => set('content')((e.target as HTMLTextAreaElement).value)}
        />
      </div>
      <ErrorBox error={action.error} onReload={props.onCancel} />
      <div class="actions">
        <button type="submit" disabled={action.busy}>
          {post ? 'Save post' : 'Save draft'}
        </button>
        {post && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
