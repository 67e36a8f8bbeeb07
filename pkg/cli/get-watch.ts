import type { ApiObject } from '../api/object';
import {
  isExpired,
  isNetworkError,
  isNotFound,
  objectPath,
  type ApiClient,
  type DiscoveredResource,
  type WatchEvent,
  type WatchStream,
} from '../client';
import type { CliIo } from './io';
import {
  renderDocument,
  rowTexts,
  TABLE_ACCEPT,
  tableLayout,
  tableLine,
  type OutputFormat,
  type Table,
  type TableLayout,
} from './output';

/** What `get -w` watches: the type, the revision its list was read at, and the list's selectors. */
export interface WatchTarget {
  res: DiscoveredResource;
  resourceVersion: string;
  labelSelector?: string;
  fieldSelector?: string;
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
 * The printer of the table formats: one row per event, with the columns and
 * widths of the table `get` printed first (its header printed with the first
 * row when that table was empty). A row shows the object as the server's Table
 * prints it when the event arrives; a deleted object keeps its last row.
 */
export class TableRowPrinter {
  private readonly layout: TableLayout;
  private headerShown: boolean;
  private readonly lastCells = new Map<string, unknown[]>();

  constructor(
    private readonly client: ApiClient,
    private readonly res: DiscoveredResource,
    first: Table,
    wide: boolean,
    private readonly io: CliIo,
  ) {
    this.layout = tableLayout(first, wide);
    this.headerShown = first.rows.length > 0;
    first.rows.forEach((row) => this.remember(row.cells));
  }

  /** Prints the event's row. */
  readonly print: EventPrinter = async (event) => {
    const name = event.object.metadata?.name ?? '';
    const cells =
      event.type === 'DELETED'
        ? (this.lastCells.get(name) ?? this.bare(event.object))
        : await this.cellsOf(event.object);
    if (event.type === 'DELETED') this.lastCells.delete(name);
    else this.remember(cells);
    if (!this.headerShown) this.io.stdout(`${tableLine(this.layout.header, this.layout.widths)}\n`);
    this.headerShown = true;
    this.io.stdout(`${tableLine(rowTexts(cells, this.layout.columns), this.layout.widths)}\n`);
  };

  private async cellsOf(object: ApiObject): Promise<unknown[]> {
    const name = object.metadata?.name ?? '';
    try {
      const answer = await this.client.request<Partial<Table>>({
        method: 'GET',
        path: objectPath(this.res, name),
        accept: TABLE_ACCEPT,
      });
      const row = answer.kind === 'Table' ? answer.rows?.[0] : undefined;
      if (row) return row.cells;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return this.lastCells.get(name) ?? this.bare(object);
  }

  /** A row naming the object when the server has none for it (first column: the name). */
  private bare(object: ApiObject): unknown[] {
    return [object.metadata?.name ?? ''];
  }

  private remember(cells: unknown[]): void {
    const name = cells[0];
    if (typeof name === 'string') this.lastCells.set(name, cells);
  }
}
