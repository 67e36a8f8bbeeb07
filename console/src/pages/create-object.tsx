import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { servedModels } from '../api/discovery';
import { modelSchema } from '../api/openapi';
import { ErrorBox } from '../components/error-box';
import { useAction, useAsync } from '../components/use-async';
import { navigate } from '../router/router';
import { modelCollection, modelOf, modelRoute } from './model-params';
import { YamlEditor } from './object';
import { SchemaForm } from './schema-form';

/**
 * Creates an object: with a form generated from the model's OpenAPI schema, or
 * as YAML. The server's causes land on their fields.
 */
export function CreateObjectPage(props: { params: Record<string, string> }) {
  const model = modelOf(props.params);
  const apiVersion = `${model.group ? `${model.group}/` : ''}${model.version}`;
  const kind = useAsync(
    async () => (await servedModels()).find((m) => m.group === model.group && m.plural === model.plural)?.kind ?? '',
    [model.group, model.plural],
  );
  const schema = useAsync(
    async () => (kind.value ? modelSchema(model.group, model.version, kind.value) : undefined),
    [kind.value],
  );
  const [mode, setMode] = useState<'form' | 'yaml'>('form');
  const save = useAction();
  const create = (body: unknown, contentType?: string) =>
    void save.run(async () => {
      const created = await api<{ metadata: { name: string } }>('POST', modelCollection(model), { body, contentType });
      navigate(`${modelRoute(model)}/${encodeURIComponent(created.metadata.name)}`);
    });
  return (
    <>
      <h1>New object in {model.plural}</h1>
      <fieldset>
        <legend>Edit as</legend>
        <label>
          <input type="radio" name="mode" checked={mode === 'form'} onChange={() => setMode('form')} /> a form
        </label>{' '}
        <label>
          <input type="radio" name="mode" checked={mode === 'yaml'} onChange={() => setMode('yaml')} /> YAML
        </label>
      </fieldset>
      <ErrorBox error={save.error ?? kind.error ?? schema.error} />
      {mode === 'form' && schema.value && (
        <SchemaForm
          schema={schema.value}
          initial={{ apiVersion, kind: kind.value, metadata: { name: '' }, spec: {} }}
          creating
          causes={save.error?.causes}
          busy={save.busy}
          submitLabel="Create"
          onSubmit={(object) => create(object)}
        />
      )}
      {mode === 'yaml' && <CreateYaml apiVersion={apiVersion} kind={kind.value} busy={save.busy} onSave={create} />}
    </>
  );
}

function CreateYaml(props: {
  apiVersion: string;
  kind?: string;
  busy: boolean;
  onSave: (body: string, contentType: string) => void;
}) {
  const [draft, setDraft] = useState(
    `apiVersion: ${props.apiVersion}\nkind: ${props.kind ?? ''}\nmetadata:\n  name: \nspec: {}\n`,
  );
  return (
    <YamlEditor
      value={draft}
      onInput={setDraft}
      busy={props.busy}
      onSave={() => props.onSave(draft, 'application/yaml')}
      onCancel={() => history.back()}
    />
  );
}
