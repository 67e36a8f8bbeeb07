import { Link } from '../router/link';
import { displayName, type Role } from '../roles/roles';

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
