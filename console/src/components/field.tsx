import type { StatusCause } from '../api/errors';

/** A labelled text input; a server cause on its field is shown under it and announced. */
export function TextField(props: {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'password' | 'email' | 'number';
  required?: boolean;
  autocomplete?: string;
  causes?: StatusCause[];
  hint?: string;
}) {
  const id = `field-${props.name}`;
  // A field's path (`spec.age`) matches exactly, a plain name (`oldPassword`) also as the last part of a path.
  const cause = props.causes?.find(
    (c) => c.field === props.name || (!props.name.includes('.') && c.field?.endsWith(`.${props.name}`)),
  );
  return (
    <div class="field">
      <span class="field-label">
        <label for={id}>{props.label}</label>
        {/* Seen beside the label; assistive technology hears the input's own "required". */}
        {props.required && (
          <span class="required-mark" aria-hidden="true">
            required
          </span>
        )}
      </span>
      <input
        id={id}
        name={props.name}
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        required={props.required}
        autoComplete={props.autocomplete}
        aria-invalid={cause ? 'true' : undefined}
        aria-describedby={cause ? `${id}-error` : props.hint ? `${id}-hint` : undefined}
        onInput={(e) => props.onInput((e.target as HTMLInputElement).value)}
      />
      {props.hint && !cause && (
        <small id={`${id}-hint`} class="muted">
          {props.hint}
        </small>
      )}
      <FieldError id={id} cause={cause} />
    </div>
  );
}

/**
 * The server's cause on a field, under it: `<id>-error`, the id the input's `aria-describedby` names and the
 * error box looks for (it then lists the cause by its field only).
 */
export function FieldError(props: { id: string; cause: StatusCause | undefined }) {
  if (!props.cause) return null;
  return (
    <small id={`${props.id}-error`} class="field-error">
      {props.cause.message ?? props.cause.reason}
    </small>
  );
}

/** One choice of a select: a plain string is its own value and label. */
export type SelectOption = string | { value: string; label: string };

/** A labelled select of `options`. */
export function SelectField(props: {
  label: string;
  name: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
}) {
  const id = `field-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
        {props.options.map((option) => {
          const { value, label } = typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    </div>
  );
}
