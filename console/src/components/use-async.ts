import { useCallback, useEffect, useState } from 'preact/hooks';
import { asApiError, type ApiError } from '../api/errors';

/** A value loaded from the API: the value, the error, whether it is loading, and what loads it again. */
export interface Loaded<T> {
  value?: T;
  error?: ApiError;
  loading: boolean;
  reload: () => void;
}

/** Loads `load()` now and whenever `deps` change; a result that arrives after a newer load began is dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ value?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (value) => current && setState({ value, loading: false }),
      (err: unknown) => current && setState({ error: asApiError(err), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return { ...state, reload };
}

/** Runs an action (a save, a delete): whether it is running, its error, and what runs it. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(undefined) };
}
