import { dump } from 'js-yaml';
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { ErrorBox } from '../components/error-box';
import { useAction, useAsync } from '../components/use-async';
import { HasPermission } from '../permissions/permissions';
import { Link } from '../router/link';
import { navigate } from '../router/router';
import { modelCollection, modelOf, modelRoute } from './model-params';

interface ApiObject {
  metadata: { name: string; deletionTimestamp?: string; finalizers?: string[] };
}

const YAML = 'application/yaml';

/** One object: its YAML, edited and saved as a whole (a stale version is refused: reload), and deleted. */
export function ObjectPage(props: { params: Record<string, string> }) {
  const model = modelOf(props.params);
  const path = `${modelCollection(model)}/${encodeURIComponent(props.params.name)}`;
  const object = useAsync(() => api<ApiObject>('GET', path), [path]);
  const [draft, setDraft] = useState<string | undefined>();
  const save = useAction();
  const reload = () => {
    setDraft(undefined);
    save.clear();
    object.reload();
  };
  const text = object.value ? dump(object.value, { noRefs: true, lineWidth: 120 }) : '';
  const onSave = () =>
    void save.run(async () => {
      await api('PUT', path, { body: draft, contentType: YAML });
      reload();
    });
  const onDelete = () =>
    void save.run(async () => {
      if (!confirm(`Delete ${props.params.name}?`)) return;
      await api('DELETE', path);
      // The list shows it as deleting until its finalizers are done, then it is gone from there too.
      navigate(modelRoute(model));
    });
  return (
    <>
      <h1>{props.params.name}</h1>
      <p class="muted">
        <Link to={modelRoute(model)}>{model.plural}</Link>
      </p>
      <ErrorBox error={object.error} />
      {object.value?.metadata.deletionTimestamp && (
        <p role="status">
          Marked for deletion at {object.value.metadata.deletionTimestamp}; it goes once its finalizers are done (
          {(object.value.metadata.finalizers ?? []).join(', ') || 'none'}).
        </p>
      )}
      <ErrorBox error={save.error} onReload={reload} />
      {object.value && draft === undefined && (
        <>
          <HasPermission permissions={['system:models:manage']}>
            <div class="actions">
              <button type="button" onClick={() => setDraft(text)}>
                Edit
              </button>
              <button type="button" class="danger" onClick={onDelete} disabled={save.busy}>
                Delete
              </button>
            </div>
          </HasPermission>
          <pre aria-label="YAML" tabIndex={0}>
            <code>{text}</code>
          </pre>
        </>
      )}
      {draft !== undefined && (
        <YamlEditor value={draft} onInput={setDraft} busy={save.busy} onSave={onSave} onCancel={reload} />
      )}
    </>
  );
}

/** A YAML text area with Save and Cancel. */
export function YamlEditor(props: {
  value: string;
  onInput: (v: string) => void;
  busy: boolean;
  onSave: () => void;
  onCancel: () => void;
}) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onSave();
      }}
    >
      <div class="field">
        <label for="yaml">YAML</label>
        <textarea
          id="yaml"
          rows={24}
          spellcheck={false}
          value={props.value}
          onInput={(e) => props.onInput((e.target as HTMLTextAreaElement).value)}
        />
      </div>
      <div class="actions">
        <button type="submit" disabled={props.busy}>
          Save
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
