import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { ApiError } from '../api/errors';
import { ACCESS_REVIEWS, USERS } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { SelectField, TextField } from '../components/field';
import { useAction } from '../components/use-async';
import { HasPermission } from '../permissions/permissions';
import { Link } from '../router/link';

/** The UI permission that offers reviewing other users (the API also wants `create` on accessreviews). */
export const REVIEW_OTHERS = 'system:access:review';

interface Review {
  status: { allowed: boolean; reason: string; trace?: { kind: string; name: string; message: string }[] };
}

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const EMPTY = { user: '', verb: 'get', group: '', resource: '', subresource: '', name: '', path: '' };
/** The fields that say what is asked about: a resource (group, resource, subresource, name), or a path. */
const REQUEST_FIELDS: { key: keyof typeof EMPTY; label: string; hint?: string }[] = [
  { key: 'group', label: 'API group', hint: 'empty: the core group' },
  { key: 'resource', label: 'Resource' },
  { key: 'subresource', label: 'Subresource' },
  { key: 'name', label: 'Name' },
  { key: 'path', label: 'Or a path', hint: 'e.g. /metrics (instead of a resource)' },
];

/**
 * "May this user do this?": an access review, with the trace that explains the
 * answer. Only those who may review others are offered the User field.
 */
export function AccessPage() {
  const [form, setForm] = useState(EMPTY);
  const [review, setReview] = useState<Review | undefined>();
  const action = useAction();
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const submit = (event: Event) => {
    event.preventDefault();
    const { path, ...resource } = form;
    const spec = path
      ? { user: form.user || undefined, verb: form.verb, path }
      : { ...resource, user: form.user || undefined };
    void action.run(async () => {
      setReview(undefined);
      if (form.user) await mustExist(form.user);
      setReview(await api<Review>('POST', ACCESS_REVIEWS, { body: { spec } }));
    });
  };
  return (
    <>
      <h1>Access</h1>
      <p class="muted">
        Everything you yourself can do, rule by rule, is on <Link to="/me">your own page</Link>.
      </p>
      <form onSubmit={submit} aria-labelledby="review-title">
        <h2 id="review-title">Can this user do this?</h2>
        <HasPermission permissions={[REVIEW_OTHERS]}>
          <TextField
            label="User"
            name="user"
            value={form.user}
            onInput={set('user')}
            hint="empty: yourself"
            causes={action.error?.causes}
          />
        </HasPermission>
        <SelectField label="Verb" name="verb" value={form.verb} options={VERBS} onChange={set('verb')} />
        {REQUEST_FIELDS.map(({ key, label, hint }) => (
          <TextField key={key} label={label} name={key} value={form[key]} onInput={set(key)} hint={hint} />
        ))}
        <ErrorBox error={action.error} />
        <button type="submit" disabled={action.busy}>
          Review
        </button>
      </form>
      {review && <ReviewResult review={review} />}
    </>
  );
}

/** A review of a user who does not exist would read as a denial: say there is no such user instead. */
async function mustExist(user: string): Promise<void> {
  try {
    await api('GET', `${USERS}/${encodeURIComponent(user)}`);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 404) throw err;
    throw new ApiError(404, 'NotFound', `there is no user "${user}"`, [{ field: 'user', message: 'no such user' }]);
  }
}

function ReviewResult(props: { review: Review }) {
  const { allowed, reason, trace = [] } = props.review.status;
  return (
    <section aria-labelledby="review-result" role="status">
      <h2 id="review-result">{allowed ? 'Allowed' : 'Denied'}</h2>
      <p>{reason}</p>
      <ol class="trace">
        {trace.map((step, i) => (
          <li key={i}>
            <strong>{step.kind}</strong> <code>{step.name}</code>: {step.message}
          </li>
        ))}
      </ol>
    </section>
  );
}
