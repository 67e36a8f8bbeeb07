import { whatCan, type RuleWithVia } from '../api/insight';
import { loadSession } from '../api/session';
import { groupByResource, isOwnGrant } from '../insight/grants';
import { actionsInWords, viaInWords, type Reader } from '../insight/words';
import { ErrorBox } from './error-box';
import { useAsync } from './use-async';

/**
 * What a user can do (a subject rules review), grouped by resource, each rule in words with the roles it comes
 * through: "update, delete only where spec.owner = you — post-editor → posts-manage (binding ada-editor)"; then
 * the UI permissions, and apart, what every signed-in user may do. Without `user`: the caller, which needs no
 * right (the API answers everyone about themself).
 */
export function UserGrants(props: { user?: string }) {
  const me = loadSession()?.username;
  const answer = useAsync(() => whatCan(props.user), [props.user]);
  const self = props.user === undefined || props.user === me;
  const reader: Reader = { user: props.user ?? me, self };
  const who = self ? 'you' : props.user;
  const rules = answer.value ? [...answer.value.resourceRules, ...answer.value.nonResourceRules] : [];
  const own = rules.filter(isOwnGrant);
  const everyones = rules.filter((r) => !isOwnGrant(r));
  const ui = answer.value?.uiPermissions ?? [];
  return (
    <section aria-labelledby="user-grants">
      <h2 id="user-grants">What {who} can do</h2>
      <ErrorBox error={answer.error} />
      {answer.value && (
        <>
          {own.length > 0 ? (
            <GrantGroups rules={own} reader={reader} />
          ) : (
            <p role="status">
              {self ? 'You hold' : `${props.user} holds`} no role that grants rules:{' '}
              {ui.length === 0 ? 'no access beyond signing in.' : 'only the UI permissions below.'}
            </p>
          )}
          <h3>UI permissions</h3>
          <UiPermissions permissions={ui} />
          {everyones.length > 0 && (
            <details>
              <summary>
                What every signed-in user may do ({everyones.length} rule{everyones.length === 1 ? '' : 's'})
              </summary>
              <GrantGroups rules={everyones} reader={reader} />
            </details>
          )}
        </>
      )}
    </section>
  );
}

/** Rules by resource: the resource, then each rule's verbs, names and condition, and where it comes from. */
function GrantGroups(props: { rules: RuleWithVia[]; reader: Reader }) {
  const resourceRules = props.rules.filter((r) => !r.nonResourceURLs?.length);
  const pathRules = props.rules.filter((r) => r.nonResourceURLs?.length);
  return (
    <dl class="grants">
      {groupByResource(resourceRules, pathRules).map((group) => (
        <div key={group.title}>
          <dt>{group.title}</dt>
          {group.rules.map((rule, i) => (
            <dd key={i}>
              <span class={rule.where ? 'conditional' : undefined}>{actionsInWords(rule, props.reader)}</span>
              <span class="muted"> — through {[...new Set(rule.via.map(viaInWords))].join('; ')}</span>
            </dd>
          ))}
        </div>
      ))}
    </dl>
  );
}

function UiPermissions(props: { permissions: string[] }) {
  if (props.permissions.length === 0) return <p>None: the console shows you only the pages every user has.</p>;
  if (props.permissions.includes('*')) return <p>All of them (*).</p>;
  return (
    <ul class="ui-permissions">
      {props.permissions.map((p) => (
        <li key={p}>
          <code>{p}</code>
        </li>
      ))}
    </ul>
  );
}
