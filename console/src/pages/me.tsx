import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { MY_TOKENS, MY_USER, TOKEN_ANNOTATION } from '../api/paths';
import { DataTable } from '../components/data-table';
import { ErrorBox } from '../components/error-box';
import { SelectField, TextField } from '../components/field';
import { PasswordForm } from '../components/password-form';
import { useAction, useAsync } from '../components/use-async';
import { UserGrants } from '../components/user-grants';
import type { User } from './users';

const MY_PASSWORD = '/apis/uc.api.security.svc.run/v1alpha1/users/-/password';

interface Token {
  metadata: {
    name: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    annotations?: Record<string, string>;
  };
  spec: { displayName?: string; expiresAt?: string; roles?: string[] };
}

/** The caller's own page: profile, what they can do, password, personal access tokens. */
export function MePage() {
  const me = useAsync(() => api<User>('GET', MY_USER), []);
  return (
    <>
      <h1>{me.value?.spec?.displayName || me.value?.metadata.name || 'Me'}</h1>
      <ErrorBox error={me.error} />
      {me.value && (
        <p>
          User <code>{me.value.metadata.name}</code>
          {me.value.spec?.email ? `, ${me.value.spec.email}` : ''}
        </p>
      )}
      <UserGrants />
      <PasswordForm
        path={MY_PASSWORD}
        id="change-password"
        title="Change your password"
        askCurrent
        submitLabel="Change password"
        doneMessage="Password changed."
      />
      <Tokens />
    </>
  );
}

function Tokens() {
  const tokens = useAsync(() => api<{ items: Token[] }>('GET', MY_TOKENS), []);
  const action = useAction();
  const revoke = (name: string) =>
    void action.run(async () => {
      await api('DELETE', `${MY_TOKENS}/${encodeURIComponent(name)}`);
      tokens.reload();
    });
  return (
    <section aria-labelledby="tokens">
      <h2 id="tokens">Personal access tokens</h2>
      <ErrorBox error={tokens.error ?? action.error} />
      {tokens.value && (
        <DataTable columns={['Name', 'Created', 'Expires', 'Actions']}>
          {/* A revoked token stays listed, marked, until the gc controller removes it: it no longer works. */}
          {tokens.value.items
            .filter((t) => !t.metadata.deletionTimestamp)
            .map((t) => (
              <tr key={t.metadata.name}>
                <td>{t.spec.displayName ?? t.metadata.name}</td>
                <td>{t.metadata.creationTimestamp}</td>
                <td>{t.spec.expiresAt ?? 'never'}</td>
                <td>
                  <button type="button" class="danger" onClick={() => revoke(t.metadata.name)}>
                    Revoke <span class="sr-only">{t.spec.displayName ?? t.metadata.name}</span>
                  </button>
                </td>
              </tr>
            ))}
        </DataTable>
      )}
      <NewToken onCreated={tokens.reload} />
    </section>
  );
}

/** How long a new token may live: the choices offered, in days (0: never expires, chosen deliberately). */
const TOKEN_LIFETIMES = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
  { days: 0, label: 'never' },
];
const DEFAULT_LIFETIME_DAYS = 30;

function NewToken(props: { onCreated: () => void }) {
  const [displayName, setDisplayName] = useState('');
  const [days, setDays] = useState(DEFAULT_LIFETIME_DAYS);
  const [secret, setSecret] = useState<string | undefined>();
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const expiresAt = days ? new Date(Date.now() + days * 86_400_000).toISOString() : undefined;
      const created = await api<Token>('POST', MY_TOKENS, { body: { spec: { displayName, expiresAt } } });
      setSecret(created.metadata.annotations?.[TOKEN_ANNOTATION]);
      setDisplayName('');
      props.onCreated();
    });
  };
  return (
    <form onSubmit={submit} aria-labelledby="new-token">
      <h3 id="new-token">New token</h3>
      <TextField label="Token name" name="displayName" value={displayName} onInput={setDisplayName} required />
      <SelectField
        label="Expires after"
        name="expiresAt"
        value={String(days)}
        options={TOKEN_LIFETIMES.map((l) => ({ value: String(l.days), label: l.label }))}
        onChange={(value) => setDays(Number(value))}
      />
      <ErrorBox error={action.error} />
      {secret && (
        <p role="status">
          Copy it now, it is shown this once: <code>{secret}</code>
        </p>
      )}
      <button type="submit" disabled={action.busy}>
        Create token
      </button>
    </form>
  );
}
