import { badRequest, invalid, type StatusCause } from '../api/errors';

/** The options whose combinations Kubernetes restricts (ValidateListOptions). */
export interface ListOptionsToCheck {
  watch: boolean;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  /** Absent when not given; a streaming list when true (docs/api.md, Kubernetes' WatchList). */
  sendInitialEvents?: boolean;
  allowWatchBookmarks: boolean;
  continue?: string;
}

/**
 * Refuses the combinations Kubernetes refuses. A list: a `resourceVersion` is a number (Kubernetes
 * cannot parse anything else either), `resourceVersionMatch` needs a
 * `resourceVersion` and no `continue`, `Exact` never with `resourceVersion=0`, and
 * `sendInitialEvents` is for watches only (400 naming the parameter). A watch: `sendInitialEvents`
 * needs `resourceVersionMatch=NotOlderThan` and `allowWatchBookmarks=true`, and `resourceVersionMatch`
 * is only for a streaming list (422 `Invalid` on `ListOptions`, one cause per refused field, as Kubernetes).
 */
export function checkListOptions(options: ListOptionsToCheck): void {
  if (options.watch) checkWatchOptions(options);
  else checkListOnlyOptions(options);
}

function checkListOnlyOptions(o: ListOptionsToCheck): void {
  const refuse = (name: string, value: string, why: string) => {
    throw badRequest(`invalid ${name} ${JSON.stringify(value)}: ${why}`);
  };
  if (o.sendInitialEvents !== undefined)
    refuse('sendInitialEvents', String(o.sendInitialEvents), 'is forbidden for list');
  if (o.resourceVersion !== undefined && !/^\d+$/.test(o.resourceVersion))
    refuse('resourceVersion', o.resourceVersion, 'a list reads at a resourceVersion this server returned (or "0")');
  const match = o.resourceVersionMatch;
  if (match === undefined) return;
  if (o.resourceVersion === undefined)
    refuse('resourceVersionMatch', match, 'is forbidden unless resourceVersion is provided');
  if (o.continue !== undefined) refuse('resourceVersionMatch', match, 'is forbidden when continue is provided');
  if (match === 'Exact' && o.resourceVersion === '0') {
    refuse('resourceVersionMatch', match, 'Exact is forbidden for resourceVersion "0"');
  }
}

function checkWatchOptions(o: ListOptionsToCheck): void {
  const causes: StatusCause[] = [];
  const forbid = (field: string, message: string) => causes.push({ field, reason: 'FieldValueForbidden', message });
  const match = o.resourceVersionMatch;
  if (o.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan')
      forbid('resourceVersionMatch', 'sendInitialEvents requires resourceVersionMatch=NotOlderThan');
    if (!o.allowWatchBookmarks) forbid('allowWatchBookmarks', 'sendInitialEvents requires allowWatchBookmarks=true');
  }
  if (match !== undefined) {
    if (o.sendInitialEvents === undefined) {
      forbid(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      );
    }
    if (match !== 'NotOlderThan') {
      causes.push({
        field: 'resourceVersionMatch',
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: "${match}": supported values: "NotOlderThan"`,
      });
    }
    if (o.continue !== undefined)
      forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
  }
  if (causes.length) throw invalid({ kind: 'ListOptions.meta.k8s.io' }, causes);
}
