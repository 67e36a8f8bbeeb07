import { useState } from 'preact/hooks';
import type { StatusCause } from '../api/errors';
import { typedValue, type FormField } from '../api/openapi';
import { TextField } from '../components/field';

/** The object a schema form describes: its name, and its spec from the fields filled in. */
export function objectFromForm(apiVersion: string, kind: string, values: Record<string, string>, fields: FormField[]) {
  const spec: Record<string, unknown> = {};
  for (const field of fields) {
    const value = typedValue(field, values[field.path] ?? '');
    if (value !== undefined) spec[field.path.slice('spec.'.length)] = value;
  }
  return { apiVersion, kind, metadata: { name: values['metadata.name'] ?? '' }, spec };
}

/**
 * A form generated from a model's schema: the name and the spec's plain fields.
 * The server validates; each cause is shown on the field it names.
 */
export function SchemaForm(props: {
  fields: FormField[];
  causes?: StatusCause[];
  busy: boolean;
  onSubmit: (values: Record<string, string>) => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const set = (path: string) => (value: string) => setValues({ ...values, [path]: value });
  return (
    <form
      aria-label="Object"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit(values);
      }}
    >
      <TextField
        label="Name"
        name="metadata.name"
        value={values['metadata.name'] ?? ''}
        onInput={set('metadata.name')}
        required
        causes={props.causes}
      />
      {props.fields.map((field) =>
        field.enum || field.type === 'boolean' ? (
          <Choice key={field.path} field={field} value={values[field.path] ?? ''} onChange={set(field.path)} />
        ) : (
          <TextField
            key={field.path}
            label={field.path}
            name={field.path}
            type={field.type === 'string' ? 'text' : 'number'}
            value={values[field.path] ?? ''}
            onInput={set(field.path)}
            required={field.required}
            hint={field.description}
            causes={props.causes}
          />
        ),
      )}
      <button type="submit" disabled={props.busy}>
        Create
      </button>
    </form>
  );
}

function Choice(props: { field: FormField; value: string; onChange: (value: string) => void }) {
  const id = `field-${props.field.path}`;
  const options = props.field.enum ?? ['true', 'false'];
  return (
    <div class="field">
      <label for={id}>{props.field.path}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
        <option value="">(not set)</option>
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </div>
  );
}
