import { useState } from 'preact/hooks';
import type { StatusCause } from '../api/errors';
import { getAt, pathText, setAt, type JsonPath } from '../api/json-path';
import { emptyValue, fieldKind, typedValue, type ModelSchema, type Schema } from '../api/openapi';
import { FieldError, TextField } from '../components/field';

/** What every field of one form shares: the object being edited, how to change it, and the server's causes. */
interface FormState {
  value: unknown;
  set: (path: JsonPath, next: unknown) => void;
  /** What the user typed in each input, by path text (a number being typed is not a number yet). */
  texts: Record<string, string>;
  setText: (key: string, text: string) => void;
  /** Forgets what was typed in the inputs whose path text starts with `prefix`. */
  forgetTexts: (prefix: string) => void;
  causes?: StatusCause[];
  resolve: ModelSchema['resolve'];
}

/**
 * A form generated from a model's schema, over a whole object: its name (for
 * a new object) and its `spec` — plain fields as inputs, nested objects as
 * groups (added and removed as a whole), lists with add and remove. Fields of
 * no known shape are left to YAML. The server validates: each cause is shown
 * on the field it names.
 */
export function SchemaForm(props: {
  schema: ModelSchema;
  initial: Record<string, unknown>;
  /** A new object: its name is asked for. */
  creating: boolean;
  causes?: StatusCause[];
  busy: boolean;
  submitLabel: string;
  onSubmit: (object: Record<string, unknown>) => void;
  onCancel?: () => void;
}) {
  const [value, setValue] = useState(props.initial);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const state: FormState = {
    value,
    set: (path, next) => setValue((v) => setAt(v, path, next) as Record<string, unknown>),
    texts,
    setText: (key, text) => setTexts((t) => ({ ...t, [key]: text })),
    forgetTexts: (prefix) =>
      setTexts((t) => Object.fromEntries(Object.entries(t).filter(([k]) => !k.startsWith(prefix)))),
    causes: props.causes,
    resolve: props.schema.resolve,
  };
  const spec = props.schema.object?.properties?.spec;
  return (
    <form
      aria-label="Object"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit(value);
      }}
    >
      {props.creating && (
        <TextField
          label="Name"
          name="metadata.name"
          value={String(getAt(value, ['metadata', 'name']) ?? '')}
          onInput={(name) => state.set(['metadata', 'name'], name)}
          required
          causes={props.causes}
        />
      )}
      {spec && <Properties schema={props.schema.resolve(spec)} path={['spec']} state={state} />}
      <div class="actions">
        <button type="submit" disabled={props.busy}>
          {props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function Properties(props: { schema: Schema; path: JsonPath; state: FormState }) {
  const required = new Set(props.schema.required ?? []);
  return (
    <>
      {Object.entries(props.schema.properties ?? {}).map(([name, schema]) => (
        <SchemaField
          key={name}
          schema={schema}
          path={[...props.path, name]}
          required={required.has(name)}
          state={props.state}
        />
      ))}
    </>
  );
}

/** One field, drawn as its (resolved) schema says. */
function SchemaField(props: { schema: Schema; path: JsonPath; required?: boolean; state: FormState }) {
  const schema = props.state.resolve(props.schema);
  const field = { ...props, schema };
  switch (fieldKind(schema)) {
    case 'text':
    case 'number':
      return <PlainField {...field} />;
    case 'choice':
      return <Choice {...field} />;
    case 'object':
      return <ObjectField {...field} />;
    case 'array':
      return <ArrayField {...field} />;
    default:
      return <p class="muted">{pathText(props.path)}: edit it as YAML.</p>;
  }
}

function PlainField(props: { schema: Schema; path: JsonPath; required?: boolean; state: FormState }) {
  const { state, schema, path } = props;
  const key = pathText(path);
  const current = getAt(state.value, path);
  return (
    <TextField
      label={key}
      name={key}
      type={schema.type === 'string' ? 'text' : 'number'}
      value={state.texts[key] ?? (current === undefined || current === null ? '' : String(current))}
      onInput={(text) => {
        state.setText(key, text);
        // An emptied list item stays in its list (as an empty string) until it is removed.
        const typed = typedValue(schema, text);
        state.set(path, typed === undefined && typeof path[path.length - 1] === 'number' ? '' : typed);
      }}
      required={props.required}
      hint={schema.description}
      causes={state.causes}
    />
  );
}

function Choice(props: { schema: Schema; path: JsonPath; state: FormState }) {
  const key = pathText(props.path);
  const id = `field-${key}`;
  const options = props.schema.enum?.map(String) ?? ['true', 'false'];
  const current = getAt(props.state.value, props.path);
  const cause = props.state.causes?.find((c) => c.field === key);
  return (
    <div class="field">
      <label for={id}>{key}</label>
      <select
        id={id}
        value={current === undefined ? '' : String(current)}
        aria-invalid={cause ? 'true' : undefined}
        aria-describedby={cause ? `${id}-error` : undefined}
        onChange={(e) => props.state.set(props.path, typedValue(props.schema, (e.target as HTMLSelectElement).value))}
      >
        <option value="">(not set)</option>
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
      <FieldError id={id} cause={cause} />
    </div>
  );
}

/** A nested object: a group of its fields, or (absent) a button that adds it; its schema may hold itself. */
function ObjectField(props: { schema: Schema; path: JsonPath; state: FormState }) {
  const key = pathText(props.path);
  if (getAt(props.state.value, props.path) === undefined) {
    return (
      <div class="field">
        <button type="button" onClick={() => props.state.set(props.path, {})}>
          Add {key}
        </button>
      </div>
    );
  }
  return (
    <fieldset>
      <legend>{key}</legend>
      <Properties schema={props.schema} path={props.path} state={props.state} />
      <button type="button" onClick={() => props.state.set(props.path, undefined)}>
        Remove {key}
      </button>
    </fieldset>
  );
}

/** A list: each item as its schema says, with a remove button each, and an add button. */
function ArrayField(props: { schema: Schema; path: JsonPath; state: FormState }) {
  const { state, path } = props;
  const key = pathText(path);
  const items = getAt(state.value, path);
  const list = Array.isArray(items) ? items : [];
  const itemSchema = props.schema.items ?? {};
  const remove = (i: number) => {
    // What was typed into the items after it now belongs to other indexes: forget it.
    state.forgetTexts(`${key}[`);
    state.set([...path, i], undefined);
  };
  return (
    <fieldset>
      <legend>{key}</legend>
      {list.map((_, i) => (
        <div key={i} class="list-item">
          <SchemaField schema={itemSchema} path={[...path, i]} state={state} />
          <button type="button" onClick={() => remove(i)}>
            Remove {pathText([...path, i])}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => state.set([...path, list.length], emptyValue(state.resolve(itemSchema)))}>
        Add to {key}
      </button>
    </fieldset>
  );
}
