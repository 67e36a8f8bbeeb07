import type { ApiObject } from '../api/object';
import {
  isExpired,
  isNetworkError,
  type ApiClient,
  type DiscoveredResource,
  type WatchEvent,
  type WatchStream,
} from '../client';
import type { CliIo } from './io';
import {
  fallbackTable,
  renderDocument,
  rowTexts,
  tableLayout,
  tableLine,
  type OutputFormat,
  type Table,
  type TableLayout,
} from './output';

/**
 * What `get -w` watches: the type, the revision its list was read at, the list's selectors, and the Accept
 * header (`TABLE_ACCEPT` for the table formats: each event then carries the object's row).
 */
export interface WatchTarget {
  res: DiscoveredResource;
  resourceVersion: string;
  labelSelector?: string;
  fieldSelector?: string;
  accept?: string;
}

/** Prints one watch event. */
export type EventPrinter = (event: WatchEvent) => Promise<void>;

/**
 * Follows the watch from the list's revision, printing each event, until
 * `signal` aborts or the server ends it. A watch the server closes (its watch
 * timeout) is resumed from the last revision seen, as kubectl does; one it
 * can no longer resume from (410) starts over, with ADDED for every object.
 * Once a watch ran, a server that cannot be reached any more ends it quietly.
 */
export async function followWatch(
  client: Pick<ApiClient, 'watch'>,
  target: WatchTarget,
  print: EventPrinter,
  signal: AbortSignal,
): Promise<void> {
  const position = { resourceVersion: target.resourceVersion as string | undefined, watched: false };
  while (!signal.aborted) {
    try {
      await watchOnce(client, target, print, signal, position);
    } catch (err) {
      if (afterFailure(err, signal, position.watched) === 'stop') return;
      position.resourceVersion = undefined;
    }
  }
}

/** One watch request, printing its events until it ends; `position` follows the last revision seen. */
async function watchOnce(
  client: Pick<ApiClient, 'watch'>,
  target: WatchTarget,
  print: EventPrinter,
  signal: AbortSignal,
  position: { resourceVersion: string | undefined; watched: boolean },
): Promise<void> {
  const stream: WatchStream = await client.watch(target.res, {
    resourceVersion: position.resourceVersion,
    labelSelector: target.labelSelector,
    fieldSelector: target.fieldSelector,
    allowWatchBookmarks: true,
    accept: target.accept,
    signal,
  });
  position.watched = true;
  for await (const event of stream) {
    position.resourceVersion = event.object.metadata?.resourceVersion ?? position.resourceVersion;
    if (event.type !== 'BOOKMARK') await print(event);
  }
}

/**
 * What a failed watch leads to: `stop` (aborted, or the server went away after a watch ran), `relist`
 * (410: start over with ADDED for every object); any other error is thrown on.
 */
function afterFailure(err: unknown, signal: AbortSignal, watched: boolean): 'stop' | 'relist' {
  if (signal.aborted) return 'stop';
  if (isExpired(err)) return 'relist';
  if (watched && isNetworkError(err)) return 'stop';
  throw err;
}

/** The printer of `-o name|json|yaml|jsonpath`: one line, object or document per event. */
export function documentPrinter(res: DiscoveredResource, format: OutputFormat, io: CliIo): EventPrinter {
  return (event) => {
    const object = event.object;
    if (format.kind === 'name') io.stdout(`${res.plural}/${object.metadata?.name ?? ''}\n`);
    else if (format.kind === 'yaml') io.stdout(`---\n${renderDocument(object, format)}`);
    else if (format.kind === 'jsonpath') io.stdout(`${renderDocument(object, format).replace(/\n$/, '')}\n`);
    else io.stdout(renderDocument(object, format));
    return Promise.resolve();
  };
}

/**
 * The printer of the table formats: the rows each event carries (the watch
 * asked for Tables: one row of the server's printer columns per event, as
 * `kubectl get -w` prints them), in the columns and widths of the table `get`
 * printed first (its header printed with the first row when that table was
 * empty). A deleted object's row is its last state, printed like any other.
 */
export class TableRowPrinter {
  private readonly layout: TableLayout;
  private headerShown: boolean;

  constructor(
    first: Table,
    wide: boolean,
    private readonly io: CliIo,
  ) {
    this.layout = tableLayout(first, wide);
    this.headerShown = first.rows.length > 0;
  }

  /** Prints the event's rows. */
  readonly print: EventPrinter = (event) => {
    for (const cells of rowsOf(event.object)) {
      if (!this.headerShown) this.io.stdout(`${tableLine(this.layout.header, this.layout.widths)}\n`);
      this.headerShown = true;
      this.io.stdout(`${tableLine(rowTexts(cells, this.layout.columns), this.layout.widths)}\n`);
    }
    return Promise.resolve();
  };
}

/** The rows an event's object carries: a Table's, else (a server that sent the object itself) its NAME and AGE. */
function rowsOf(object: ApiObject | Partial<Table>): unknown[][] {
  if (object.kind === 'Table') return ((object as Partial<Table>).rows ?? []).map((row) => row.cells);
  return fallbackTable([object as ApiObject]).rows.map((row) => row.cells);
}
