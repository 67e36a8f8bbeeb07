import { conditionInWords } from '../insight/words';
import type { Rule } from '../roles/roles';

/** Rules as a table: API groups, resources or paths, names, verbs and the condition on the objects. */
export function RulesTable(props: { rules: readonly Rule[]; caption?: string }) {
  if (props.rules.length === 0) return <p>None.</p>;
  return (
    <div class="table-scroll">
      <table>
        {props.caption && <caption>{props.caption}</caption>}
        <thead>
          <tr>
            <th scope="col">API groups</th>
            <th scope="col">Resources or paths</th>
            <th scope="col">Names</th>
            <th scope="col">Verbs</th>
            <th scope="col">Only where</th>
          </tr>
        </thead>
        <tbody>
          {props.rules.map((rule, i) => (
            <tr key={i}>
              <td>{(rule.apiGroups ?? []).map((g) => g || '(core)').join(', ')}</td>
              <td>{[...(rule.resources ?? []), ...(rule.nonResourceURLs ?? [])].join(', ')}</td>
              <td>{(rule.resourceNames ?? []).join(', ') || 'any'}</td>
              <td>{rule.verbs.join(', ')}</td>
              <td>{rule.where ? conditionInWords(rule.where) : 'every object'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
