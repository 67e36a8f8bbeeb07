import type { ApiError } from '../api/errors';

/** A failed call as the user reads it: the server's message, each field cause, and what to do about a conflict. */
export function ErrorBox(props: { error: ApiError | undefined; onReload?: () => void }) {
  const { error } = props;
  if (!error) return null;
  return (
    <div role="alert" class="error">
      <p>
        {error.isConflict ? 'Changed meanwhile — reload to see the current version, then edit again. ' : ''}
        <strong>{error.message}</strong>{' '}
        {error.code ? (
          <span class="muted">
            ({error.code} {error.reason})
          </span>
        ) : null}
      </p>
      {error.causes.length > 0 && (
        <ul>
          {error.causes.map((cause, i) => (
            <li key={i}>
              {cause.field ? <code>{cause.field}</code> : null} {cause.message ?? cause.reason}
            </li>
          ))}
        </ul>
      )}
      {error.isConflict && props.onReload && (
        <button type="button" onClick={props.onReload}>
          Reload
        </button>
      )}
    </div>
  );
}
