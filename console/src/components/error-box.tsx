import { useLayoutEffect, useState } from 'preact/hooks';
import type { ApiError, StatusCause } from '../api/errors';
import { explain, explanationLines } from '../insight/why';

/** The id of the message a form shows under the field a cause names, if the page shows one (see TextField). */
function placedMessageId(cause: StatusCause): string | undefined {
  if (!cause.field) return undefined;
  const last = cause.field.split('.').pop() as string;
  return [`field-${cause.field}-error`, `field-${last}-error`].find((id) => document.getElementById(id));
}

/**
 * A failed call as the user reads it: the server's message, what to do about
 * a conflict or a 429, and each cause. A cause a form already shows under its
 * field is listed by its field only (a link to it), so each message is read once.
 */
export function ErrorBox(props: { error: ApiError | undefined; onReload?: () => void }) {
  const { error } = props;
  const [placed, setPlaced] = useState<(string | undefined)[]>([]);
  // After the page has drawn its fields: which causes landed under one.
  useLayoutEffect(() => setPlaced(error?.causes.map(placedMessageId) ?? []), [error]);
  if (!error) return null;
  return (
    <div role="alert" class="error">
      <p>
        {error.isConflict ? 'Changed meanwhile — reload to see the current version, then edit again. ' : ''}
        <strong>{headline(error)}</strong>{' '}
        {error.code ? (
          <span class="muted">
            ({error.code} {error.reason})
          </span>
        ) : null}
        {error.retryAfterSeconds !== undefined && ` Try again in ${waitFor(error.retryAfterSeconds)}.`}
      </p>
      {error.causes.length > 0 && (
        <ul>
          {error.causes.map((cause, i) =>
            placed[i] ? (
              <li key={i}>
                <a href={`#${(placed[i] as string).replace(/-error$/, '')}`}>{cause.field}</a>
              </li>
            ) : (
              <li key={i}>
                {cause.field ? <code>{cause.field}</code> : null} {cause.message ?? cause.reason}
              </li>
            ),
          )}
        </ul>
      )}
      {error.denial && (
        <details class="why">
          <summary>Why?</summary>
          <ul>
            {explanationLines(explain({ trace: error.denial.trace, templates: error.denial.templates })).map(
              (line, i) => (
                <li key={i}>{line}</li>
              ),
            )}
          </ul>
        </details>
      )}
      {error.isConflict && props.onReload && (
        <button type="button" onClick={props.onReload}>
          Reload
        </button>
      )}
    </div>
  );
}

/** The message without the causes the server summarised into it ("X is invalid: a: …; b: …"): they are listed. */
function headline(error: ApiError): string {
  const at = error.message.indexOf(' is invalid: ');
  return error.causes.length > 0 && at >= 0 ? `${error.message.slice(0, at)} is invalid` : error.message;
}

function waitFor(seconds: number): string {
  return seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`;
}
