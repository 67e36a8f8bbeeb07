import { useEffect, useState } from 'preact/hooks';
import { selectorParts, withoutPart } from '../api/selectors';
import { SelectField } from '../components/field';

/** What narrows and orders a model's list. */
export interface Filters {
  labelSelector: string;
  fieldSelector: string;
  sort: string;
}

const SELECTORS = [
  { key: 'labelSelector', label: 'Label', placeholder: 'team=engines' },
  { key: 'fieldSelector', label: 'Field', placeholder: 'spec.name=ada' },
] as const;

/**
 * The filter form: label and field selectors (applied ones shown as chips,
 * each removable) and a sort by any index of the model (`indexes`).
 */
export function FilterBar(props: { value: Filters; indexes: string[]; onApply: (v: Filters) => void }) {
  const [draft, setDraft] = useState(props.value);
  useEffect(() => setDraft(props.value), [props.value]);
  const submit = (e: Event) => {
    e.preventDefault();
    props.onApply(draft);
  };
  return (
    <>
      <form class="filters" aria-label="Filter" onSubmit={submit}>
        {SELECTORS.map(({ key, label, placeholder }) => (
          <div class="field" key={key}>
            <label for={`filter-${key}`}>{label} selector</label>
            <input
              id={`filter-${key}`}
              value={draft[key]}
              placeholder={placeholder}
              onInput={(e) => setDraft({ ...draft, [key]: (e.target as HTMLInputElement).value })}
            />
          </div>
        ))}
        <SelectField
          label="Sort by"
          name="sort"
          value={draft.sort}
          options={[
            { value: '', label: 'newest first' },
            ...props.indexes.flatMap((index) => [
              { value: `${index},asc`, label: `${index} ↑` },
              { value: `${index},desc`, label: `${index} ↓` },
            ]),
          ]}
          onChange={(sort) => props.onApply({ ...draft, sort })}
        />
        <button type="submit">Apply</button>
      </form>
      <Chips value={props.value} onApply={props.onApply} />
    </>
  );
}

/** The applied selectors' requirements as chips; removing one applies the rest. */
function Chips(props: { value: Filters; onApply: (v: Filters) => void }) {
  const chips = SELECTORS.flatMap(({ key, label }) =>
    selectorParts(props.value[key]).map((part) => ({ key, label, part })),
  );
  if (chips.length === 0) return null;
  return (
    <ul class="chips" aria-label="Applied filters">
      {chips.map(({ key, label, part }) => (
        <li key={`${key}-${part}`} class="chip">
          <span class="muted">{label}:</span> <code>{part}</code>{' '}
          <button
            type="button"
            aria-label={`Remove ${label.toLowerCase()} filter ${part}`}
            onClick={() => props.onApply({ ...props.value, [key]: withoutPart(props.value[key], part) })}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
