import { conditionInWords } from '../insight/words';
import { DataTable } from './data-table';
import type { Rule } from '../roles/roles';

/** Rules as a table: API groups, resources or paths, names, verbs and the condition on the objects. */
export function RulesTable(props: { rules: readonly Rule[]; caption?: string }) {
  if (props.rules.length === 0) return <p>None.</p>;
  return (
    <DataTable caption={props.caption} columns={['API groups', 'Resources or paths', 'Names', 'Verbs', 'Only where']}>
      {props.rules.map((rule, i) => (
        <tr key={i}>
          <td>{(rule.apiGroups ?? []).map((g) => g || '(core)').join(', ')}</td>
          <td>{[...(rule.resources ?? []), ...(rule.nonResourceURLs ?? [])].join(', ')}</td>
          <td>{(rule.resourceNames ?? []).join(', ') || 'any'}</td>
          <td>{rule.verbs.join(', ')}</td>
          <td>{rule.where ? conditionInWords(rule.where) : 'every object'}</td>
        </tr>
      ))}
    </DataTable>
  );
}
