import { useContext, useState } from 'preact/hooks';
import { reviewSelf, type ResourceRequest } from '../api/insight';
import { explain, explanationLines, type Explanation } from '../insight/why';
import { PermissionsContext } from '../permissions/permissions';
import { grants } from '../permissions/grants';
import { useAsync } from './use-async';

/** Whether the caller may take an action, and if not, why. `allowed` is undefined while the server is asked. */
export interface MayI {
  allowed: boolean | undefined;
  why?: Explanation;
}

/**
 * May the caller take an action: their UI permissions must offer it (`permission`) and an access review about
 * themself must allow the request the action sends (decided on the stored object when it names one).
 */
export function useMayI(request: ResourceRequest, permission?: string): MayI {
  const { uiPermissions } = useContext(PermissionsContext);
  const offered = !permission || grants(uiPermissions, [permission]);
  const review = useAsync(() => reviewSelf(request), [JSON.stringify(request)]);
  if (review.error) return { allowed: false, why: explain({ reason: review.error.message }) };
  if (!review.value) return { allowed: undefined };
  const { allowed, reason, trace } = review.value;
  if (allowed && offered) return { allowed: true };
  return {
    allowed: false,
    why: explain({
      reason: allowed ? undefined : reason,
      trace: allowed ? undefined : trace,
      missingPermission: offered ? undefined : permission,
    }),
  };
}

/** A "Why?" beside a disabled action: opens the explanation in words, read out where it appears. */
export function WhyNot(props: { id: string; action: string; why?: Explanation }) {
  const [open, setOpen] = useState(false);
  if (!props.why) return null;
  return (
    <span class="why-not">
      <button
        type="button"
        class="link"
        aria-expanded={open}
        aria-controls={props.id}
        aria-label={`Why can't I ${props.action}?`}
        onClick={() => setOpen(!open)}
      >
        Why?
      </button>
      <div id={props.id} class="why" role="note" aria-label={`Why you cannot ${props.action}`} hidden={!open}>
        <ul>
          {explanationLines(props.why).map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      </div>
    </span>
  );
}

/** An action button that is disabled, with its "Why?", when the caller may not take it. */
export function GuardedButton(props: {
  may: MayI;
  /** Read by "Why can't I …?": e.g. "delete this object". */
  action: string;
  id: string;
  label: string;
  class?: string;
  busy?: boolean;
  onClick: () => void;
}) {
  return (
    <>
      <button
        type="button"
        class={props.class}
        disabled={props.may.allowed !== true || props.busy}
        aria-describedby={props.may.allowed === false ? `${props.id}-why` : undefined}
        onClick={props.onClick}
      >
        {props.label}
      </button>
      {props.may.allowed === false && <WhyNot id={`${props.id}-why`} action={props.action} why={props.may.why} />}
    </>
  );
}
