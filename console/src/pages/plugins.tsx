import { useEffect } from 'preact/hooks';
import { api } from '../api/client';
import { PLUGINS } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { useAction, useAsync } from '../components/use-async';
import { useLiveReload } from '../components/use-live-reload';
import { HasPermission } from '../permissions/permissions';
import { PLUGINS_CHANGED } from '../permissions/refresh';

interface Plugin {
  metadata: { name: string };
  spec: { version?: string; displayName?: string; description?: string; enabled?: boolean };
  status?: {
    phase?: string;
    message?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    extensions?: { apiVersion: string; kind: string; name: string }[];
  };
}

/** Every plugin: its phase, message, conditions and extension objects; enable and disable. */
export function PluginsPage() {
  const plugins = useAsync(
    () => api<{ items: Plugin[]; metadata: { resourceVersion?: string } }>('GET', `${PLUGINS}?sort=metadata.name,asc`),
    [],
  );
  // Phases move on their own (STARTING, STARTED, STOPPED): the page follows them.
  const { live, resume } = useLiveReload(PLUGINS, plugins.value?.metadata, plugins.reload);
  // A phase seen changing here: the menu reads plugins' pages again (a stopped plugin's pages leave it).
  useEffect(() => {
    if (plugins.value) window.dispatchEvent(new Event(PLUGINS_CHANGED));
  }, [plugins.value]);
  return (
    <>
      <h1>Plugins</h1>
      <ErrorBox error={plugins.error} />
      {!live && (
        <p role="status">
          <strong>Paused:</strong> phases shown may be out of date.{' '}
          <button type="button" onClick={resume}>
            Resume
          </button>
        </p>
      )}
      {plugins.value?.items.length === 0 && <p>No plugins are installed (the apiserver's --plugins-dir).</p>}
      {plugins.value?.items.map((p) => (
        <PluginCard key={p.metadata.name} plugin={p} onChange={plugins.reload} />
      ))}
    </>
  );
}

function PluginCard(props: { plugin: Plugin; onChange: () => void }) {
  const { metadata, spec, status = {} } = props.plugin;
  const action = useAction();
  const enabled = spec.enabled !== false;
  const toggle = () =>
    void action.run(async () => {
      await api('PATCH', `${PLUGINS}/${encodeURIComponent(metadata.name)}`, {
        body: { spec: { enabled: !enabled } },
        contentType: 'application/merge-patch+json',
      });
      props.onChange();
    });
  return (
    <section class="card" aria-labelledby={`plugin-${metadata.name}`}>
      <h2 id={`plugin-${metadata.name}`}>
        {spec.displayName ?? metadata.name} <span class="muted">{spec.version}</span>
      </h2>
      <p>
        Phase: <strong>{status.phase ?? 'PENDING'}</strong> {status.message}
      </p>
      {spec.description && <p>{spec.description}</p>}
      <ul>
        {(status.conditions ?? []).map((c) => (
          <li key={c.type}>
            {c.type}: {c.status} {c.reason} {c.message}
          </li>
        ))}
      </ul>
      {(status.extensions ?? []).length > 0 && (
        <p>Extensions: {(status.extensions ?? []).map((e) => `${e.kind} ${e.name}`).join(', ')}</p>
      )}
      <ErrorBox error={action.error} />
      <HasPermission permissions={['system:plugins:manage']}>
        <button type="button" onClick={toggle} disabled={action.busy}>
          {enabled ? 'Disable' : 'Enable'} {metadata.name}
        </button>
      </HasPermission>
    </section>
  );
}
