import { dump } from 'js-yaml';
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { StatusCause } from '../api/errors';
import { DiffView } from '../components/diff-view';
import { ErrorBox } from '../components/error-box';
import { useAction, useAsync } from '../components/use-async';
import { YamlTextEditor } from '../components/yaml-editor';
import { HasPermission } from '../permissions/permissions';
import { GuardedButton, useMayI } from '../components/why-not';
import { VIEW_ACCESS, WhoCanPanel } from '../components/who-can';
import { Link } from '../router/link';
import { navigate } from '../router/router';
import { modelCollection, modelOf, modelRoute, type ModelParams } from './model-params';
import { modelSchema } from '../api/openapi';
import { SchemaForm } from './schema-form';

interface ApiObject {
  kind?: string;
  metadata: { name: string; deletionTimestamp?: string; finalizers?: string[] };
}

const YAML = 'application/yaml';
/** The UI permission that offers editing and deleting objects. */
const MANAGE = 'system:models:manage';

/**
 * One object: its YAML, edited as YAML or with a form generated from the
 * model's schema and saved as a whole (a stale version is refused: reload),
 * and deleted.
 */
export function ObjectPage(props: { params: Record<string, string> }) {
  const model = modelOf(props.params);
  const path = `${modelCollection(model)}/${encodeURIComponent(props.params.name)}`;
  const object = useAsync(() => api<ApiObject>('GET', path), [path]);
  const [draft, setDraft] = useState<string | undefined>();
  const [form, setForm] = useState(false);
  const save = useAction();
  const target = { group: model.group, resource: model.plural, name: props.params.name };
  const mayUpdate = useMayI({ ...target, verb: 'update' }, MANAGE);
  const mayDelete = useMayI({ ...target, verb: 'delete' }, MANAGE);
  const reload = () => {
    setDraft(undefined);
    setForm(false);
    save.clear();
    object.reload();
  };
  const text = object.value ? toYaml(object.value) : '';
  const onSave = (body = draft, contentType = YAML) =>
    void save.run(async () => {
      await api('PUT', path, { body, contentType });
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
      {save.error?.isConflict && <ChangedMeanwhile path={path} asRead={text} />}
      {object.value && draft === undefined && !form && (
        <>
          {/* Every action shows; one the caller may not take is disabled, with a "Why?" in words. */}
          <div class="actions">
            {/* Two ways to edit, one right (update) behind both. */}
            {[
              { id: 'edit-yaml', label: 'Edit YAML', onClick: () => setDraft(text) },
              { id: 'edit-form', label: 'Edit with a form', onClick: () => setForm(true) },
            ].map((edit) => (
              <GuardedButton key={edit.id} may={mayUpdate} action="edit it" {...edit} />
            ))}
            <GuardedButton
              may={mayDelete}
              id="delete"
              action="delete it"
              label="Delete"
              class="danger"
              busy={save.busy}
              onClick={onDelete}
            />
          </div>
          <pre aria-label="YAML" tabIndex={0}>
            <code>{text}</code>
          </pre>
        </>
      )}
      {object.value && (
        <HasPermission permissions={[VIEW_ACCESS]}>
          <WhoCanPanel request={target} />
        </HasPermission>
      )}
      {draft !== undefined && (
        <YamlEditor
          value={draft}
          original={text}
          onInput={setDraft}
          busy={save.busy}
          onSave={() => onSave()}
          onCancel={reload}
        />
      )}
      {form && object.value && (
        <EditForm
          model={model}
          object={object.value}
          causes={save.error?.causes}
          busy={save.busy}
          onSave={(edited) => onSave(JSON.stringify(edited), 'application/json')}
          onCancel={reload}
        />
      )}
    </>
  );
}

/** On a 409: what someone else changed since the object was read (theirs against the version being edited). */
function ChangedMeanwhile(props: { path: string; asRead: string }) {
  const current = useAsync(() => api<ApiObject>('GET', props.path), [props.path]);
  return (
    <section aria-labelledby="changed-meanwhile">
      <h2 id="changed-meanwhile">Changed meanwhile</h2>
      <ErrorBox error={current.error} />
      {current.value && <DiffView label="Their changes" before={props.asRead} after={toYaml(current.value)} />}
    </section>
  );
}

const toYaml = (value: unknown) => dump(value, { noRefs: true, lineWidth: 120 });

/** The object in a form generated from its model's schema; saved whole, with the version it was read at. */
function EditForm(props: {
  model: ModelParams;
  object: ApiObject;
  causes?: StatusCause[];
  busy: boolean;
  onSave: (edited: Record<string, unknown>) => void;
  onCancel: () => void;
}) {
  const { model, object } = props;
  const schema = useAsync(() => modelSchema(model.group, model.version, object.kind ?? ''), [model.group, object.kind]);
  return (
    <>
      <ErrorBox error={schema.error} />
      {schema.value && (
        <SchemaForm
          schema={schema.value}
          initial={object as unknown as Record<string, unknown>}
          creating={false}
          causes={props.causes}
          busy={props.busy}
          submitLabel="Save"
          onSubmit={props.onSave}
          onCancel={props.onCancel}
        />
      )}
    </>
  );
}

/**
 * The YAML editor with Save and Cancel. With `original` (an edit), Save first
 * shows what changes against the object as read, then saves on a second Save.
 */
export function YamlEditor(props: {
  value: string;
  original?: string;
  onInput: (v: string) => void;
  busy: boolean;
  onSave: () => void;
  onCancel: () => void;
}) {
  const [reviewing, setReviewing] = useState(false);
  const submit = (e: Event) => {
    e.preventDefault();
    if (props.original !== undefined && !reviewing) setReviewing(true);
    else props.onSave();
  };
  return (
    <form onSubmit={submit} aria-label={reviewing ? 'Review changes' : 'Edit YAML'}>
      {reviewing ? (
        <>
          <h2>Your changes</h2>
          <DiffView label="Your changes" before={props.original ?? ''} after={props.value} />
        </>
      ) : (
        <YamlTextEditor label="YAML" value={props.value} onInput={props.onInput} />
      )}
      <div class="actions">
        <button type="submit" disabled={props.busy}>
          {props.original !== undefined && !reviewing ? 'Review changes' : 'Save'}
        </button>
        {reviewing && (
          <button type="button" onClick={() => setReviewing(false)}>
            Back to editing
          </button>
        )}
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
