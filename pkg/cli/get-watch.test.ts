import {
  ExpiredError,
  NetworkError,
  type ApiClient,
  type DiscoveredResource,
  type WatchEvent,
  type WatchOptions,
} from '../client';
import { followWatch, TableRowPrinter } from './get-watch';
import type { CliIo } from './io';
import { TABLE_ACCEPT, type Table } from './output';

const PERSONS = { group: 'example.com', version: 'v1alpha1', plural: 'persons' } as DiscoveredResource;

const event = (type: WatchEvent['type'], name: string, resourceVersion: string): WatchEvent => ({
  type,
  object: { apiVersion: 'example.com/v1alpha1', kind: 'Person', metadata: { name, resourceVersion } },
});

/** A client whose successive watches yield these events, then end, or throw the error given; an aborted signal ends one, as WatchStream does. */
function scriptedClient(script: (WatchEvent | Error)[][]): { client: Pick<ApiClient, 'watch'>; asked: WatchOptions[] } {
  const asked: WatchOptions[] = [];
  const client = {
    watch: (_res: unknown, options: WatchOptions) => {
      asked.push(options);
      const steps = script.shift();
      if (!steps) return Promise.reject(new NetworkError('connection refused'));
      return Promise.resolve(
        (async function* () {
          for (const step of steps) {
            if (options.signal?.aborted) return;
            if (step instanceof Error) throw step;
            yield step;
          }
        })(),
      );
    },
  } as unknown as Pick<ApiClient, 'watch'>;
  return { client, asked };
}

describe('followWatch', () => {
  it('resumes a watch the server closed from the last revision seen, bookmarks included, and ends quietly once the server is gone', async () => {
    const { client, asked } = scriptedClient([
      [event('ADDED', 'ada', '11'), event('BOOKMARK', '', '15')],
      [event('MODIFIED', 'ada', '16')],
    ]);
    const printed: string[] = [];
    await followWatch(
      client,
      { res: PERSONS, resourceVersion: '10', labelSelector: 'team=engines', accept: TABLE_ACCEPT },
      (e) => {
        printed.push(`${e.type} ${e.object.metadata?.name ?? ''}`);
        return Promise.resolve();
      },
      new AbortController().signal,
    );
    expect(printed).toEqual(['ADDED ada', 'MODIFIED ada']);
    expect(asked.map((o) => [o.resourceVersion, o.labelSelector, o.accept])).toEqual([
      ['10', 'team=engines', TABLE_ACCEPT],
      ['15', 'team=engines', TABLE_ACCEPT],
      ['16', 'team=engines', TABLE_ACCEPT],
    ]);
  });

  it('starts over without a revision after 410 Expired', async () => {
    const expired = new ExpiredError({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code: 410,
      reason: 'Expired',
      message: 'too old',
      metadata: {},
    });
    const { client, asked } = scriptedClient([[expired], [event('ADDED', 'ada', '30')]]);
    await followWatch(
      client,
      { res: PERSONS, resourceVersion: '10' },
      () => Promise.resolve(),
      new AbortController().signal,
    );
    expect(asked.map((o) => o.resourceVersion)).toEqual(['10', undefined, '30']);
  });

  it('fails when the first watch cannot be opened, and stops at once when interrupted', async () => {
    await expect(
      followWatch(
        scriptedClient([]).client,
        { res: PERSONS, resourceVersion: '1' },
        () => Promise.resolve(),
        new AbortController().signal,
      ),
    ).rejects.toThrow('connection refused');
    const abort = new AbortController();
    const { client, asked } = scriptedClient([[event('ADDED', 'ada', '2'), event('ADDED', 'bob', '3')]]);
    const printed: string[] = [];
    await followWatch(
      client,
      { res: PERSONS, resourceVersion: '1' },
      (e) => {
        printed.push(e.object.metadata?.name ?? '');
        abort.abort();
        return Promise.resolve();
      },
      abort.signal,
    );
    expect(printed).toEqual(['ada']);
    expect(asked).toHaveLength(1);
  });
});

describe('TableRowPrinter', () => {
  const columns = [{ name: 'Name' }, { name: 'Full Name' }, { name: 'Notes', priority: 1 }];
  const table = (rows: unknown[][]): Table => ({
    kind: 'Table',
    columnDefinitions: columns,
    rows: rows.map((cells) => ({ cells })),
  });
  /** A watch event as the server sends it to a client that asked for Tables: the object's row. */
  const rowEvent = (type: WatchEvent['type'], cells: unknown[]): WatchEvent => ({
    type,
    object: { ...table([cells]), metadata: { resourceVersion: '7' } } as unknown as WatchEvent['object'],
  });

  function printer(first: Table, wide = false): { print: TableRowPrinter['print']; out: () => string } {
    let out = '';
    const io = {
      stdout: (text: string) => {
        out += text;
      },
    } as unknown as CliIo;
    return { print: new TableRowPrinter(first, wide, io).print, out: () => out };
  }

  it("prints each event's row in the columns and widths of the first table; a deleted object's row as it comes", async () => {
    const { print, out } = printer(table([['ada-lovelace', 'Ada', 'x']]));
    await print(rowEvent('ADDED', ['grace', 'Grace Hopper', 'y']));
    await print(rowEvent('DELETED', ['ada-lovelace', 'Ada L.', 'x']));
    expect(out()).toBe('grace          Grace Hopper\nada-lovelace   Ada L.\n');
  });

  it('prints the wide columns with -o wide, and <none> for an empty cell', async () => {
    const { print, out } = printer(table([['ada', 'Ada', 'x']]), true);
    await print(rowEvent('MODIFIED', ['ada', 'Ada', null]));
    expect(out()).toBe('ada    Ada         <none>\n');
  });

  it('prints the header with the first row when the first table was empty', async () => {
    const { print, out } = printer(table([]));
    await print(rowEvent('ADDED', ['ada', 'Ada']));
    expect(out()).toBe('NAME   FULL NAME\nada    Ada\n');
  });

  it('prints the name of an object that came without a Table (a server that does not print)', async () => {
    const { print, out } = printer(table([['bob', 'Bob']]));
    await print(event('ADDED', 'ada', '2'));
    expect(out()).toMatch(/^ada {4}<unknown>\n$/);
  });
});
