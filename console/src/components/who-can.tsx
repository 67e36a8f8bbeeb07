import { useState } from 'preact/hooks';
import { whoCan, type ResourceRequest, type WhoCanAnswer } from '../api/insight';
import { conditionsInWords } from '../insight/words';
import { Link } from '../router/link';
import { ErrorBox } from './error-box';
import { SelectField } from './field';
import { useAction, useAsync } from './use-async';

/** The UI permission that shows "who can" panels (the API also wants `create` on resourceaccessreviews). */
export const VIEW_ACCESS = 'system:access:view';

/** How many users one page of the panel lists. */
export const WHO_CAN_PAGE = 20;

const VERBS = ['get', 'update', 'delete', 'list', 'watch', 'create', 'patch'];

/**
 * Who can act on an object (or a collection): the users, one page at a time,
 * each with the binding → role → … path that grants it, and a conditional
 * holder with the condition bound to them. Grants to everyone are one line.
 */
export function WhoCanPanel(props: { request: Omit<ResourceRequest, 'verb'>; verbs?: string[] }) {
  const verbs = props.verbs ?? VERBS;
  const [verb, setVerb] = useState(verbs[0]);
  const request = { ...props.request, verb };
  const key = JSON.stringify(request);
  const first = useAsync(() => whoCan(request, WHO_CAN_PAGE), [key]);
  const [more, setMore] = useState<{ key: string; pages: WhoCanAnswer[] }>({ key, pages: [] });
  const loading = useAction();
  const pages = first.value ? [first.value, ...(more.key === key ? more.pages : [])] : [];
  const last = pages[pages.length - 1];
  const users = pages.flatMap((p) => p.users);
  const loadMore = () =>
    void loading.run(async () => {
      const next = await whoCan(request, WHO_CAN_PAGE, last?.continue);
      setMore({ key, pages: [...(more.key === key ? more.pages : []), next] });
    });
  return (
    <section aria-labelledby="who-can" class="who-can">
      <h2 id="who-can">Who can</h2>
      <SelectField label="Verb" name="who-can-verb" value={verb} options={verbs} onChange={setVerb} />
      <ErrorBox error={first.error ?? loading.error} />
      {first.value && (
        <>
          {first.value.anonymous && <p class="warning">Everyone, even without logging in, can {verb} it.</p>}
          {!first.value.anonymous && first.value.authenticated && <p>Every logged-in user can {verb} it.</p>}
          <p role="status">
            {first.value.total === 0
              ? `Nobody is named as able to ${verb} it.`
              : `${first.value.total} user${first.value.total === 1 ? '' : 's'} can ${verb} it.`}
          </p>
          <ul class="who-can-users">
            {users.map((user) => (
              <li key={user.name}>
                <Link to={`/users/${encodeURIComponent(user.name)}`}>{user.name}</Link>
                {user.conditions?.length ? (
                  <span class="conditional"> only {conditionsInWords(user.conditions, { user: user.name })}</span>
                ) : null}
                <ul class="via">
                  {user.via.map((v, i) => (
                    <li key={i} class="muted">
                      {v.binding ? `binding ${v.binding} → ` : 'every request → '}
                      {v.path.join(' → ')}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          {last?.continue && (
            <button type="button" onClick={loadMore} disabled={loading.busy}>
              More users
            </button>
          )}
        </>
      )}
    </section>
  );
}
