import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { TextField } from './field';
import { ErrorBox } from './error-box';
import { useAction } from './use-async';

/** The current password (asked for one's own) and the new one; the names are the request body's. */
const FIELDS = [
  { name: 'oldPassword', label: 'Current password', autocomplete: 'current-password' },
  { name: 'password', label: 'New password', autocomplete: 'new-password' },
] as const;

/**
 * A form that sets a password with `PUT path` (`{password}`, and `{oldPassword}` when the current password is
 * asked for, as one's own password wants); the server's refusal is shown on its field, and the fields are emptied
 * once it is set.
 */
export function PasswordForm(props: {
  path: string;
  /** The form's heading, and the id it is labelled by. */
  title: string;
  id: string;
  askCurrent?: boolean;
  submitLabel: string;
  doneMessage: string;
}) {
  const [form, setForm] = useState({ oldPassword: '', password: '' });
  const [done, setDone] = useState(false);
  const action = useAction();
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const submit = (event: Event) => {
    event.preventDefault();
    setDone(false);
    const body = props.askCurrent ? form : { password: form.password };
    void action.run(async () => {
      await api('PUT', props.path, { body });
      setForm({ oldPassword: '', password: '' });
      setDone(true);
    });
  };
  const causes = action.error?.causes;
  return (
    <form onSubmit={submit} aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {FIELDS.filter((f) => props.askCurrent || f.name === 'password').map((f) => (
        <TextField
          key={f.name}
          label={f.label}
          name={f.name}
          type="password"
          value={form[f.name]}
          onInput={set(f.name)}
          required
          autocomplete={f.autocomplete}
          causes={causes}
        />
      ))}
      <ErrorBox error={action.error} />
      {done && <p role="status">{props.doneMessage}</p>}
      <button type="submit" disabled={action.busy}>
        {props.submitLabel}
      </button>
    </form>
  );
}
