import { useState } from 'preact/hooks';
import { loginWithPassword, loginWithToken } from '../api/auth';
import type { Session } from '../api/session';
import { ErrorBox } from '../components/error-box';
import { TextField } from '../components/field';
import { useAction } from '../components/use-async';

/**
 * Log in with a username and password (a personal access token is made for
 * the session) or with a token; `ended` says why the last session ended.
 */
export function LoginPage(props: { onLogin: (session: Session) => void; ended?: string }) {
  const [mode, setMode] = useState<'password' | 'token'>('password');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () =>
      props.onLogin(mode === 'password' ? await loginWithPassword(username, password) : await loginWithToken(token)),
    );
  };
  return (
    <main id="main" class="login">
      <h1>svc console</h1>
      {props.ended && (
        <p role="alert" class="notice">
          {props.ended}
        </p>
      )}
      <form onSubmit={submit} aria-labelledby="login-title">
        <h2 id="login-title">Log in</h2>
        <fieldset>
          <legend>With</legend>
          <label>
            <input type="radio" name="mode" checked={mode === 'password'} onChange={() => setMode('password')} />{' '}
            username and password
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === 'token'} onChange={() => setMode('token')} /> a personal
            access token
          </label>
        </fieldset>
        {mode === 'password' ? (
          <>
            <TextField
              label="Username"
              name="username"
              value={username}
              onInput={setUsername}
              required
              autocomplete="username"
            />
            <TextField
              label="Password"
              name="password"
              type="password"
              value={password}
              onInput={setPassword}
              required
              autocomplete="current-password"
            />
          </>
        ) : (
          <TextField
            label="Token"
            name="token"
            type="password"
            value={token}
            onInput={setToken}
            required
            autocomplete="off"
          />
        )}
        <ErrorBox error={action.error} />
        <button type="submit" disabled={action.busy}>
          Log in
        </button>
      </form>
    </main>
  );
}
