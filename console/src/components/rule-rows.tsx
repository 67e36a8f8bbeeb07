import type { StatusCause } from '../api/errors';
import { EMPTY_RULE, type RuleDraft } from '../roles/rule-draft';
import { USER_NAME } from '../insight/words';
import { TextField } from './field';

/**
 * A role's own resource rules: groups, resources and verbs, and a condition
 * (`where`) as a field selector and a label selector, with `${user.name}` one
 * click away. The server's 422 on a rule's condition is shown under its field selector.
 */
export function RuleRows(props: {
  rules: RuleDraft[];
  onChange: (rules: RuleDraft[]) => void;
  causes?: StatusCause[];
}) {
  const set = (i: number, patch: Partial<RuleDraft>) =>
    props.onChange(props.rules.map((rule, j) => (j === i ? { ...rule, ...patch } : rule)));
  return (
    <section aria-labelledby="own-rules">
      <h2 id="own-rules">Own rules</h2>
      <p class="muted">
        Rules of this role itself, besides those of the roles it is built from. A condition limits a rule to the objects
        that match it; <code>{USER_NAME}</code> stands for the user who asks.
      </p>
      {props.rules.map((rule, i) => {
        const at = `rules[${i}]`;
        return (
          <fieldset key={i} class="rule-row">
            <legend>Rule {i + 1}</legend>
            <TextField
              label="API groups"
              name={`${at}.apiGroups`}
              value={rule.apiGroups}
              onInput={(apiGroups) => set(i, { apiGroups })}
              hint="comma-separated; empty or core: the core group"
              causes={props.causes}
            />
            <TextField
              label="Resources"
              name={`${at}.resources`}
              value={rule.resources}
              onInput={(resources) => set(i, { resources })}
              hint="e.g. posts"
              causes={props.causes}
            />
            <TextField
              label="Verbs"
              name={`${at}.verbs`}
              value={rule.verbs}
              onInput={(verbs) => set(i, { verbs })}
              hint="e.g. get, list, watch, update"
              causes={props.causes}
            />
            <TextField
              label="Only where fields match"
              name={`${at}.where`}
              value={rule.fieldSelector}
              onInput={(fieldSelector) => set(i, { fieldSelector })}
              hint="a field selector on indexed fields, e.g. spec.owner=${user.name}"
              causes={props.causes}
            />
            <button
              type="button"
              class="link"
              onClick={() => set(i, { fieldSelector: withUserName(rule.fieldSelector) })}
              aria-label={`Insert ${USER_NAME} in rule ${i + 1}: only the asking user's own`}
            >
              Insert {USER_NAME}
            </button>
            <TextField
              label="Only where labels match"
              name={`${at}.where.labelSelector`}
              value={rule.labelSelector}
              onInput={(labelSelector) => set(i, { labelSelector })}
              hint="a label selector, e.g. example.com/category in (news,tips)"
              causes={props.causes}
            />
            <button type="button" onClick={() => props.onChange(props.rules.filter((_, j) => j !== i))}>
              Remove rule {i + 1}
            </button>
          </fieldset>
        );
      })}
      <button type="button" onClick={() => props.onChange([...props.rules, EMPTY_RULE])}>
        Add a rule
      </button>
    </section>
  );
}

/** Completes a field selector with `${user.name}`: after a trailing `=`, or as `spec.owner=${user.name}` when empty. */
export function withUserName(selector: string): string {
  const trimmed = selector.trim();
  if (trimmed === '') return `spec.owner=${USER_NAME}`;
  if (/[=!]=?$/.test(trimmed)) return trimmed + USER_NAME;
  return `${trimmed},spec.owner=${USER_NAME}`;
}
