import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { ROLES } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { TextField } from '../components/field';
import { RoleChoices } from '../components/role-choice';
import { ImpactPanel } from '../components/impact';
import { RuleRows } from '../components/rule-rows';
import { RulesTable } from '../components/rules-table';
import { useAction, useAsync } from '../components/use-async';
import { Link } from '../router/link';
import { navigate } from '../router/router';
import { buildingBlocks, draftOf, resultingGrants, roleFromDraft, type RoleDraft } from '../roles/compose';
import type { Role } from '../roles/roles';
import type { RuleDraft } from '../roles/rule-draft';

/** A rule being typed is asked about once it names resources and verbs. */
const isComplete = (rule: RuleDraft) => rule.resources.trim() !== '' && rule.verbs.trim() !== '';

const EMPTY: RoleDraft = { name: '', displayName: '', module: '', chosen: [], rules: [], kept: [] };

/** A new role, built from templates (`/roles/+new`). */
export function NewRolePage() {
  return <RoleEditor />;
}

/** An existing role's name, display name and templates (`/roles/:name/edit`). */
export function EditRolePage(props: { params: Record<string, string> }) {
  return <RoleEditor name={props.params.name} />;
}

/**
 * The role editor: name and display name, the roles it is built from grouped
 * by module (their dependencies ticked and locked), and what the role will
 * grant, shown before saving. Saving writes the `dependencies` annotation; the
 * `rbac-aggregation` controller then computes the role's effective rules.
 */
function RoleEditor(props: { name?: string }) {
  const path = props.name === undefined ? undefined : `${ROLES}/${encodeURIComponent(props.name)}`;
  const roles = useAsync(() => api<{ items: Role[] }>('GET', ROLES), []);
  const existing = useAsync(() => (path ? api<Role>('GET', path) : Promise.resolve(undefined)), [path]);
  const [draft, setDraft] = useState<RoleDraft | undefined>(path ? undefined : EMPTY);
  const save = useAction();
  useEffect(() => {
    if (existing.value) setDraft(draftOf(existing.value));
  }, [existing.value]);
  const reload = () => {
    save.clear();
    setDraft(undefined);
    existing.reload();
    roles.reload();
  };
  const submit = (event: Event) => {
    event.preventDefault();
    if (!draft) return;
    void save.run(async () => {
      const body = roleFromDraft(draft, existing.value);
      await api(path ? 'PUT' : 'POST', path ?? ROLES, { body });
      navigate(`/roles/${encodeURIComponent(body.metadata.name)}`);
    });
  };
  const title = props.name === undefined ? 'New role' : `Edit role ${props.name}`;
  return (
    <>
      <h1>{title}</h1>
      <p class="muted">
        <Link to="/roles">Roles</Link>
      </p>
      <ErrorBox error={roles.error ?? existing.error} />
      {draft && roles.value && (
        <form onSubmit={submit} aria-label={title}>
          <DraftFields
            draft={draft}
            isNew={path === undefined}
            onChange={setDraft}
            causes={save.error?.causes}
            roles={roles.value.items}
            own={existing.value}
          />
          <ErrorBox error={save.error} onReload={reload} />
          <button type="submit" disabled={save.busy}>
            {path ? 'Save role' : 'Create role'}
          </button>
        </form>
      )}
    </>
  );
}

function DraftFields(props: {
  draft: RoleDraft;
  isNew: boolean;
  onChange: (draft: RoleDraft) => void;
  causes: Parameters<typeof TextField>[0]['causes'];
  roles: Role[];
  own?: Role;
}) {
  const { draft, onChange } = props;
  const toggle = (name: string, on: boolean) =>
    onChange({ ...draft, chosen: on ? [...draft.chosen, name] : draft.chosen.filter((n) => n !== name) });
  return (
    <>
      {props.isNew && (
        <TextField
          label="Name"
          name="metadata.name"
          value={draft.name}
          onInput={(name) => onChange({ ...draft, name })}
          required
          hint="lower case letters, digits and '-', e.g. news-editor"
          causes={props.causes}
        />
      )}
      <TextField
        label="Display name"
        name="displayName"
        value={draft.displayName}
        onInput={(displayName) => onChange({ ...draft, displayName })}
        hint="how role lists name it, e.g. News editor"
        causes={props.causes}
      />
      <TextField
        label="Module"
        name="module"
        value={draft.module}
        onInput={(module) => onChange({ ...draft, module })}
        hint="where role lists group it, e.g. Posts; empty: Other"
        causes={props.causes}
      />
      <TemplateChoices roles={props.roles} editing={props.own?.metadata.name} chosen={draft.chosen} onToggle={toggle} />
      <RuleRows rules={draft.rules} onChange={(rules) => onChange({ ...draft, rules })} causes={props.causes} />
      <Preview draft={draft} roles={props.roles} own={props.own} />
      <ImpactPanel
        change={
          (draft.name.trim() || props.own) && draft.rules.every(isComplete)
            ? {
                operation: props.own ? 'update' : 'create',
                object: { apiVersion: 'v1alpha1', kind: 'Role', ...roleFromDraft(draft, props.own) },
              }
            : undefined
        }
      />
    </>
  );
}

function TemplateChoices(props: {
  roles: Role[];
  editing?: string;
  chosen: string[];
  onToggle: (name: string, on: boolean) => void;
}) {
  return (
    <section aria-labelledby="templates">
      <h2 id="templates">Built from</h2>
      <RoleChoices
        groups={buildingBlocks(props.roles, props.editing)}
        roles={props.roles}
        chosen={props.chosen}
        onToggle={props.onToggle}
      />
    </section>
  );
}

/** What the role will grant once saved: computed here from the chosen roles and own rules, before anything is written. */
function Preview(props: { draft: RoleDraft; roles: Role[]; own?: Role }) {
  const edited = roleFromDraft(props.draft, props.own);
  const own = edited.rules ?? [];
  const result = resultingGrants(props.draft.chosen, props.roles, edited);
  return (
    <section aria-labelledby="preview" class="preview">
      <h2 id="preview">What this role will grant</h2>
      <h3>UI permissions</h3>
      <p>{result.uiPermissions.join(', ') || 'None.'}</p>
      <h3>Rules</h3>
      {own.length > 0 && <p class="muted">Including the role's own rules and UI permissions ({own.length} rules).</p>}
      <RulesTable rules={result.rules} />
    </section>
  );
}
