import { Link } from '../router/link';
import { displayName, includedBy, type Role } from '../roles/roles';

/**
 * One role to choose, by display name: a checkbox, and when another chosen
 * role includes it through its dependencies, ticked and locked with "included through …".
 */
export function RoleChoice(props: {
  role: Role;
  checked: boolean;
  includedThrough?: string;
  onChange: (name: string, on: boolean) => void;
}) {
  const { name } = props.role.metadata;
  const included = !props.checked && props.includedThrough !== undefined;
  return (
    <div class="choice">
      <label>
        <input
          type="checkbox"
          name="role"
          value={name}
          checked={props.checked || included}
          disabled={included}
          onChange={(e) => props.onChange(name, (e.target as HTMLInputElement).checked)}
        />{' '}
        {displayName(props.role)}
      </label>{' '}
      <Link to={`/roles/${encodeURIComponent(name)}`} class="muted">
        {name}
      </Link>
      {included && <span class="muted"> — included through {props.includedThrough}</span>}
    </div>
  );
}

/**
 * Roles to choose, a fieldset per module (`groups`); a chosen role's dependencies among `roles` are ticked and
 * locked, "included through …".
 */
export function RoleChoices(props: {
  groups: { module: string; roles: Role[] }[];
  roles: readonly Role[];
  chosen: readonly string[];
  onToggle: (name: string, on: boolean) => void;
}) {
  const included = includedBy(props.chosen, props.roles);
  return (
    <>
      {props.groups.map((group) => (
        <fieldset key={group.module}>
          <legend>{group.module}</legend>
          {group.roles.map((role) => (
            <RoleChoice
              key={role.metadata.name}
              role={role}
              checked={props.chosen.includes(role.metadata.name)}
              includedThrough={included.get(role.metadata.name)}
              onChange={props.onToggle}
            />
          ))}
        </fieldset>
      ))}
    </>
  );
}
