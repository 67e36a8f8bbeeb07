import {
  ApiError,
  ExpiredError,
  NetworkError,
  type ApiClient,
  type DiscoveredResource,
  type WatchEvent,
  type WatchOptions,
} from '../client';
import { followWatch, TableRowPrinter } from './get-watch';
import type { CliIo } from './io';
import type { Table } from './output';

const PERSONS = { group: 'example.com', version: 'v1alpha1', plural: 'persons' } as DiscoveredResource;

const NOT_FOUND = {
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  code: 404,
  reason: 'NotFound',
  message: 'not found',
  metadata: {},
} as const;

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
      { res: PERSONS, resourceVersion: '10', labelSelector: 'team=engines' },
      (e) => {
        printed.push(`${e.type} ${e.object.metadata?.name ?? ''}`);
        return Promise.resolve();
      },
      new AbortController().signal,
    );
    expect(printed).toEqual(['ADDED ada', 'MODIFIED ada']);
    expect(asked.map((o) => [o.resourceVersion, o.labelSelector])).toEqual([
      ['10', 'team=engines'],
      ['15', 'team=engines'],
      ['16', 'team=engines'],
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

  function printer(
    first: Table,
    answers: Record<string, unknown[]>,
  ): { print: TableRowPrinter['print']; out: () => string } {
    let out = '';
    const client = {
      request: ({ path }: { path: string }) => {
        const cells = answers[path.split('/').pop() ?? ''];
        return cells ? Promise.resolve(table([cells])) : Promise.reject(new ApiError(NOT_FOUND));
      },
    } as unknown as ApiClient;
    const io = {
      stdout: (text: string) => {
        out += text;
      },
    } as unknown as CliIo;
    return { print: new TableRowPrinter(client, PERSONS, first, false, io).print, out: () => out };
  }

  it('prints each change as a row in the columns and widths of the first table; a deleted object keeps its last row', async () => {
    const { print, out } = printer(table([['ada-lovelace', 'Ada', 'x']]), { grace: ['grace', 'Grace Hopper', 'y'] });
    await print(event('ADDED', 'grace', '2'));
    await print(event('DELETED', 'ada-lovelace', '3'));
    expect(out()).toBe('grace          Grace Hopper\nada-lovelace   Ada\n');
  });

  it('prints the header with the first row when the first table was empty', async () => {
    const { print, out } = printer(table([]), { ada: ['ada', 'Ada'] });
    await print(event('ADDED', 'ada', '2'));
    expect(out()).toBe('NAME   FULL NAME\nada    Ada\n');
  });
});
