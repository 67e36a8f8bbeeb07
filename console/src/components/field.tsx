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
      {cause && (
        <small id={`${id}-error`} class="field-error">
          {cause.message ?? cause.reason}
        </small>
      )}
    </div>
  );
}
