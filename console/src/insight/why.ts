import type { TraceStep } from '../api/insight';

/** Why a request was refused, in sentences: the server's reason, then the closest rules and the part that failed. */
export interface Explanation {
  /** The one-line reason, when there is one. */
  reason?: string;
  /** "<rule> in Role "x": <what failed>", closest first. */
  closest: string[];
  /** Roles (templates) that would allow it: what to ask for. */
  askFor: string[];
  /** A UI permission the caller lacks, when that is what hides the action. */
  missingPermission?: string;
}

/** An access review's (or a 403's) trace as an explanation: the rules it names, each with what failed. */
export function explain(input: {
  reason?: string;
  trace?: readonly TraceStep[];
  templates?: readonly string[];
  missingPermission?: string;
}): Explanation {
  const closest = (input.trace ?? []).filter((s) => s.kind === 'Rule').map((s) => `${s.name} — ${s.message}`);
  const roles = (input.trace ?? []).filter((s) => s.kind === 'Role');
  // With no role at all the trace has nothing to rank: say so.
  if (input.trace && roles.length === 0 && !input.reason) closest.push('you hold no role that grants anything here');
  return {
    reason: input.reason,
    closest,
    askFor: [...(input.templates ?? [])],
    missingPermission: input.missingPermission,
  };
}

/** The explanation as the lines a "Why?" shows, in order. */
export function explanationLines(e: Explanation): string[] {
  const lines: string[] = [];
  if (e.missingPermission)
    lines.push(`Your roles do not carry the UI permission "${e.missingPermission}" that offers this action.`);
  if (e.reason) lines.push(capitalise(e.reason.replace(/\.$/, '')) + '.');
  for (const rule of e.closest) lines.push(`Closest rule: ${rule}.`);
  if (e.askFor.length) lines.push(`Roles that would allow it: ${e.askFor.join(', ')}.`);
  return lines;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
