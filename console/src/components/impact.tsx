import { useEffect, useState } from 'preact/hooks';
import { impactOf, type ImpactAnswer, type ProposedChange } from '../api/insight';
import { ruleInWords } from '../insight/words';
import { HasPermission } from '../permissions/permissions';
import type { Rule } from '../roles/roles';
import { ErrorBox } from './error-box';
import { useAsync } from './use-async';
import { VIEW_ACCESS } from './who-can';

/** How many users' changes the panel lists (the count covers everyone). */
const IMPACT_SHOWN = 50;

/**
 * What a change would do before it is saved: the users who gain or lose rules or UI permissions, and a loud
 * warning when everyone (even without logging in) or every logged-in user would gain something. Asked again
 * whenever the proposed change changes; only for holders of the access insight UI permission.
 */
export function ImpactPanel(props: { change: ProposedChange | undefined }) {
  return (
    <HasPermission
      permissions={[VIEW_ACCESS]}
      fallback={<p class="muted">The impact of a change is shown to those who may see who can do what.</p>}
    >
      {props.change && <Impact change={props.change} />}
    </HasPermission>
  );
}

/** How long the proposed change must stay the same before the server is asked (typing is not asking). */
const SETTLE_MS = 400;

function Impact(props: { change: ProposedChange }) {
  const key = useSettled(JSON.stringify(props.change), SETTLE_MS);
  const impact = useAsync(() => impactOf(JSON.parse(key) as ProposedChange, IMPACT_SHOWN), [key]);
  return (
    <section aria-labelledby="impact" class="impact">
      <h2 id="impact">Impact of this change</h2>
      <ErrorBox error={impact.error} />
      {impact.loading && !impact.value && <p>Working out who this changes…</p>}
      {impact.value && <ImpactAnswerView impact={impact.value} />}
    </section>
  );
}

export function ImpactAnswerView(props: { impact: ImpactAnswer }) {
  const { impact } = props;
  const everyone = impact.authenticatedGained ?? [];
  return (
    <>
      {impact.anonymousGained.length > 0 && (
        <div class="loud-warning" role="alert">
          <strong>Anyone, even without logging in, would gain:</strong>
          <Rules rules={impact.anonymousGained} />
        </div>
      )}
      {everyone.length > 0 && (
        <div class="loud-warning" role="alert">
          <strong>Every logged-in user would gain:</strong>
          <Rules rules={everyone} />
        </div>
      )}
      {impact.anonymousLost.length > 0 && (
        <p>
          Visitors who are not logged in would lose: <Rules rules={impact.anonymousLost} />
        </p>
      )}
      <p role="status">
        {impact.usersAffected === 0
          ? 'No user’s access changes.'
          : `${impact.usersAffected} user${impact.usersAffected === 1 ? '' : 's'} would change.`}
      </p>
      {impact.changes.length > 0 && (
        <ul class="impact-users">
          {impact.changes.map((c) => (
            <li key={c.user}>
              <strong>{c.user}</strong>
              <Changes label="gains" rules={c.gained} permissions={c.uiPermissionsGained} user={c.user} />
              <Changes label="loses" rules={c.lost} permissions={c.uiPermissionsLost} user={c.user} />
            </li>
          ))}
        </ul>
      )}
      {impact.usersAffected > impact.changes.length && (
        <p class="muted">
          The first {impact.changes.length} of {impact.usersAffected} are listed.
        </p>
      )}
    </>
  );
}

function Changes(props: { label: string; rules: Rule[]; permissions: string[]; user: string }) {
  if (props.rules.length === 0 && props.permissions.length === 0) return null;
  return (
    <div class={`change ${props.label}`}>
      {props.label}:
      <Rules rules={props.rules} user={props.user} />
      {props.permissions.length > 0 && <p>UI permissions: {props.permissions.join(', ')}</p>}
    </div>
  );
}

function Rules(props: { rules: Rule[]; user?: string }) {
  if (props.rules.length === 0) return null;
  return (
    <ul>
      {props.rules.map((rule, i) => (
        <li key={i}>{ruleInWords(rule, { user: props.user })}</li>
      ))}
    </ul>
  );
}

/** `value` once it has not changed for `ms` (the first value at once). */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
