import { Command, InvalidArgumentError } from 'commander';
import type { ApiObject } from '../api/object';
import { ApiError, collectionPath, isNotFound, objectPath, type ApiClient, type DiscoveredResource } from '../client';
import { connect, type ConnectionFlags } from './connection';
import { describeApiError, ReportedFailure, UsageError } from './errors';
import { documentPrinter, followWatch, TableRowPrinter, type EventPrinter } from './get-watch';
import type { CliIo } from './io';
import {
  fallbackTable,
  listOf,
  parseOutput,
  renderDocument,
  renderTable,
  TABLE_ACCEPT,
  type OutputFormat,
  type Table,
} from './output';
import { Discovery } from './resources';

interface GetFlags {
  output?: string;
  selector?: string;
  fieldSelector?: string;
  sortBy?: string;
  page?: number;
  size?: number;
  watch?: boolean;
}

/** What `get` printed first, for `-w` to go on from: the list's revision and its Table (table formats). */
interface Printed {
  resourceVersion: string;
  table?: Table;
}

/** A positive whole number option. */
export const positiveInt = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number ≥ 1');
  return Number(value);
};

/** `svcctl get RESOURCE [NAME…] [-o …] [-l …] [--field-selector …] [--sort-by …] [--page N --size N] [-w]`. */
export function registerGet(program: Command, io: CliIo): void {
  program
    .command('get')
    .description('Shows objects of a resource type: a table, or as yaml, json, names or a jsonpath')
    .argument('<resource>', 'a plural, singular, kind or short name, optionally <resource>.<group>')
    .argument('[names...]', 'these objects only')
    .option('-o, --output <format>', 'table|wide|yaml|json|name|jsonpath=TEMPLATE')
    .option('-l, --selector <selector>', 'label selector, e.g. team=engines,tier!=db')
    .option('--field-selector <selector>', 'field selector on indexes, e.g. spec.name=Ada')
    .option('--sort-by <index>', 'sort by an index: <index>[,asc|,desc]')
    .option('--page <n>', 'the page to show (with --size)', positiveInt)
    .option('--size <n>', 'objects per page', positiveInt)
    .option('-w, --watch', 'after the list, print a row (or object) per change until Ctrl-C')
    .addHelpText(
      'after',
      `
Examples:
  svcctl get persons
  svcctl get person ada -o yaml
  svcctl get ps -l team=engines -o name
  svcctl get persons.example.com --sort-by spec.name,asc --page 1 --size 20
  svcctl get persons -o jsonpath='{.items[*].metadata.name}'
  svcctl get persons -w`,
    )
    .action(async (resource: string, names: string[], flags: GetFlags, command: Command) => {
      const format = parseOutput(flags.output);
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      if (flags.watch && names.length > 1)
        throw new UsageError('-w watches one object or a whole type: name at most one object');
      const res = await new Discovery(client).resolve(resource);
      const printed = await (names.length
        ? getNamed(client, res, names, format, io)
        : getList(client, res, flags, format, io));
      if (flags.watch) await watchAfter(client, res, { names, flags, format, printed }, io);
    });
}

/**
 * `-w`: follows the changes after what `get` printed, one row (the watch asks for Tables) or one document per
 * change, until Ctrl-C.
 */
async function watchAfter(
  client: ApiClient,
  res: DiscoveredResource,
  got: { names: string[]; flags: GetFlags; format: OutputFormat; printed: Printed },
  io: CliIo,
): Promise<void> {
  const { names, flags, format, printed } = got;
  const print: EventPrinter = printed.table
    ? new TableRowPrinter(printed.table, format.kind === 'wide', io).print
    : documentPrinter(res, format, io);
  const target = {
    res,
    resourceVersion: printed.resourceVersion,
    labelSelector: names[0] ? undefined : flags.selector,
    fieldSelector: names[0] ? `metadata.name=${names[0]}` : flags.fieldSelector,
    accept: printed.table ? TABLE_ACCEPT : undefined,
  };
  await followWatch(client, target, print, io.interrupts?.() ?? new AbortController().signal);
}

async function getNamed(
  client: ApiClient,
  res: DiscoveredResource,
  names: string[],
  format: OutputFormat,
  io: CliIo,
): Promise<Printed> {
  const table = format.kind === 'table' || format.kind === 'wide';
  const found: unknown[] = [];
  let failed = false;
  for (const name of names) {
    try {
      found.push(
        await client.request({ method: 'GET', path: objectPath(res, name), accept: table ? TABLE_ACCEPT : undefined }),
      );
    } catch (err) {
      if (!(err instanceof ApiError) || !isNotFound(err)) throw err;
      io.stderr(`${describeApiError(err)}\n`);
      failed = true;
    }
  }
  if (failed) {
    printNamed(found, res, format, io, names.length === 1);
    throw new ReportedFailure('some objects were not found');
  }
  return printNamed(found, res, format, io, names.length === 1);
}

function printNamed(
  found: unknown[],
  res: DiscoveredResource,
  format: OutputFormat,
  io: CliIo,
  single: boolean,
): Printed {
  if (format.kind === 'table' || format.kind === 'wide') {
    const tables = found.map((answer) => asTable(answer));
    const merged = tables[0] ? { ...tables[0], rows: tables.flatMap((t) => t.rows) } : undefined;
    if (merged) io.stdout(renderTable(merged, format.kind === 'wide'));
    return { resourceVersion: revisionOf(tables[0]), table: merged };
  }
  print(found as ApiObject[], res, format, io, single);
  return { resourceVersion: (found[0] as ApiObject | undefined)?.metadata?.resourceVersion ?? '' };
}

async function getList(
  client: ApiClient,
  res: DiscoveredResource,
  flags: GetFlags,
  format: OutputFormat,
  io: CliIo,
): Promise<Printed> {
  const table = format.kind === 'table' || format.kind === 'wide';
  const query = listQuery(flags);
  const answer = await client.request({
    method: 'GET',
    path: collectionPath(res),
    query,
    accept: table ? TABLE_ACCEPT : undefined,
  });
  if (table) {
    const found = asTable(answer);
    if (found.rows.length === 0) io.stderr('No resources found.\n');
    else io.stdout(renderTable(found, format.kind === 'wide'));
    return { resourceVersion: revisionOf(found), table: found };
  }
  const list = answer as { items?: ApiObject[]; metadata?: { resourceVersion?: string } };
  print(list.items ?? [], res, format, io, false);
  return { resourceVersion: list.metadata?.resourceVersion ?? '' };
}

/** The list query of `get`'s flags: selectors, sort and page. */
function listQuery(flags: GetFlags): URLSearchParams {
  const params: [string, string | number | undefined][] = [
    ['labelSelector', flags.selector],
    ['fieldSelector', flags.fieldSelector],
    ['sort', flags.sortBy],
    ['page', flags.page],
    ['size', flags.size],
  ];
  const query = new URLSearchParams();
  for (const [name, value] of params) if (value !== undefined && value !== '') query.set(name, String(value));
  return query;
}

const revisionOf = (table: Table | undefined): string =>
  (table as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion ?? '';

function print(objects: ApiObject[], res: DiscoveredResource, format: OutputFormat, io: CliIo, single: boolean): void {
  if (format.kind === 'name') {
    for (const o of objects) io.stdout(`${res.plural}/${o.metadata?.name ?? ''}\n`);
    return;
  }
  const document = single && objects[0] ? objects[0] : listOf(objects);
  const text = renderDocument(document, format);
  io.stdout(format.kind === 'jsonpath' && !text.endsWith('\n') ? `${text}\n` : text);
}

function asTable(answer: unknown): Table {
  const body = answer as Partial<Table> & { items?: ApiObject[] };
  if (body.kind === 'Table') return body as Table;
  return fallbackTable(body.items ?? [body as ApiObject]);
}
