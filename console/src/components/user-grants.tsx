import { whatCan, type RuleWithVia } from '../api/insight';
import { loadSession } from '../api/session';
import { ruleInWords, type Reader } from '../insight/words';
import { ErrorBox } from './error-box';
import { useAsync } from './use-async';

/**
 * What a user can do, in words, each rule with the roles it comes through;
 * conditional grants read as "update posts (content.svc.run) where spec.owner = you".
 */
export function UserGrants(props: { user: string }) {
  const answer = useAsync(() => whatCan(props.user), [props.user]);
  const reader: Reader = { user: props.user, self: loadSession()?.username === props.user };
  const rules = answer.value ? [...answer.value.resourceRules, ...answer.value.nonResourceRules] : [];
  const conditional = rules.filter((r) => r.where);
  return (
    <section aria-labelledby="user-grants">
      <h2 id="user-grants">What {reader.self ? 'you' : props.user} can do</h2>
      <ErrorBox error={answer.error} />
      {answer.value && (
        <>
          {conditional.length > 0 && (
            <>
              <h3>On some objects only</h3>
              <GrantList rules={conditional} reader={reader} />
            </>
          )}
          <h3>{conditional.length > 0 ? 'On every object' : 'Rules'}</h3>
          <GrantList rules={rules.filter((r) => !r.where)} reader={reader} />
          <p>UI permissions: {answer.value.uiPermissions.join(', ') || 'none'}</p>
        </>
      )}
    </section>
  );
}

function GrantList(props: { rules: RuleWithVia[]; reader: Reader }) {
  if (props.rules.length === 0) return <p>None.</p>;
  return (
    <ul class="grants">
      {props.rules.map((rule, i) => (
        <li key={i}>
          {ruleInWords(rule, props.reader)}{' '}
          <span class="muted">(through {[...new Set(rule.via.map((v) => v.path.join(' → ')))].join('; ')})</span>
        </li>
      ))}
    </ul>
  );
}
