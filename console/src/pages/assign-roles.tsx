import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { ROLES, userPermissions } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { useAction, useAsync } from '../components/use-async';
import { RoleChoices } from '../components/role-choice';
import { ImpactPanel } from '../components/impact';
import { groupByModule, type Role } from '../roles/roles';

/**
 * A user's roles: every role that is not hidden, grouped by module and named
 * by display name; a chosen role's dependencies show as included. Saving makes
 * the user's bindings exactly the chosen roles (`POST …/users/{name}/permissions`).
 */
export function AssignRoles(props: { user: string }) {
  const roles = useAsync(() => api<{ items: Role[] }>('GET', ROLES), []);
  const held = useAsync(() => api<{ roles: string[] }>('GET', userPermissions(props.user)), [props.user]);
  const [chosen, setChosen] = useState<string[] | undefined>();
  const save = useAction();
  const [saved, setSaved] = useState(false);
  useEffect(() => setChosen(held.value?.roles), [held.value]);
  const all = roles.value?.items ?? [];
  const toggle = (name: string, on: boolean) => {
    setSaved(false);
    setChosen(on ? [...(chosen ?? []), name] : (chosen ?? []).filter((n) => n !== name));
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void save.run(async () => {
      await api('POST', userPermissions(props.user), { body: { roles: chosen ?? [] } });
      setSaved(true);
      held.reload();
    });
  };
  return (
    <form onSubmit={submit} aria-labelledby="assign-roles">
      <h2 id="assign-roles">Roles</h2>
      <ErrorBox error={roles.error ?? held.error} />
      {chosen && <RoleChoices groups={groupByModule(all)} roles={all} chosen={chosen} onToggle={toggle} />}
      {chosen && !saved && !sameSet(chosen, held.value?.roles ?? []) && (
        <ImpactPanel change={{ operation: 'update', userPermissions: { user: props.user, roles: chosen } }} />
      )}
      <ErrorBox error={save.error} />
      {saved && <p role="status">Roles saved.</p>}
      <button type="submit" disabled={!chosen || save.busy}>
        Save roles
      </button>
    </form>
  );
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name) => b.includes(name));
