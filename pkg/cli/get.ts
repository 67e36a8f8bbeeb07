import { Command, InvalidArgumentError } from 'commander';
import type { ApiObject } from '../api/object';
import { ApiError, collectionPath, isNotFound, objectPath, type ApiClient, type DiscoveredResource } from '../client';
import { connect, type ConnectionFlags } from './connection';
import { describeApiError, ReportedFailure } from './errors';
import type { CliIo } from './io';
import { fallbackTable, listOf, parseOutput, renderDocument, renderTable, type OutputFormat, type Table } from './output';
import { Discovery } from './resources';

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json';

interface GetFlags {
  output?: string;
  selector?: string;
  fieldSelector?: string;
  sortBy?: string;
  page?: number;
  size?: number;
}

/** A positive whole number option. */
export const positiveInt = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number ≥ 1');
  return Number(value);
};

/** `svcctl get RESOURCE [NAME…] [-o …] [-l …] [--field-selector …] [--sort-by …] [--page N --size N]`. */
export function registerGet(program: Command, io: CliIo): void {
  program.command('get').description('Shows objects of a resource type: a table, or as yaml, json, names or a jsonpath')
    .argument('<resource>', 'a plural, singular, kind or short name, optionally <resource>.<group>')
    .argument('[names...]', 'these objects only')
    .option('-o, --output <format>', 'table|wide|yaml|json|name|jsonpath=TEMPLATE')
    .option('-l, --selector <selector>', 'label selector, e.g. team=engines,tier!=db')
    .option('--field-selector <selector>', 'field selector on indexes, e.g. spec.name=Ada')
    .option('--sort-by <index>', 'sort by an index: <index>[,asc|,desc]')
    .option('--page <n>', 'the page to show (with --size)', positiveInt)
    .option('--size <n>', 'objects per page', positiveInt)
    .addHelpText('after', `
Examples:
  svcctl get persons
  svcctl get person ada -o yaml
  svcctl get ps -l team=engines -o name
  svcctl get persons.example.com --sort-by spec.name,asc --page 1 --size 20
  svcctl get persons -o jsonpath='{.items[*].metadata.name}'`)
    .action(async (resource: string, names: string[], flags: GetFlags, command: Command) => {
      const format = parseOutput(flags.output);
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const res = await new Discovery(client).resolve(resource);
      await (names.length ? getNamed(client, res, names, format, io) : getList(client, res, flags, format, io));
    });
}

async function getNamed(client: ApiClient, res: DiscoveredResource, names: string[], format: OutputFormat, io: CliIo): Promise<void> {
  const table = format.kind === 'table' || format.kind === 'wide';
  const found: unknown[] = [];
  let failed = false;
  for (const name of names) {
    try {
      found.push(await client.request({ method: 'GET', path: objectPath(res, name), accept: table ? TABLE_ACCEPT : undefined }));
    } catch (err) {
      if (!(err instanceof ApiError) || !isNotFound(err)) throw err;
      io.stderr(`${describeApiError(err)}\n`);
      failed = true;
    }
  }
  if (table) {
    const tables = found.map((answer) => asTable(answer));
    if (tables[0]) io.stdout(renderTable({ ...tables[0], rows: tables.flatMap((t) => t.rows) }, format.kind === 'wide'));
  } else {
    print(found as ApiObject[], res, format, io, names.length === 1);
  }
  if (failed) throw new ReportedFailure('some objects were not found');
}

async function getList(client: ApiClient, res: DiscoveredResource, flags: GetFlags, format: OutputFormat, io: CliIo): Promise<void> {
  const table = format.kind === 'table' || format.kind === 'wide';
  const query = new URLSearchParams();
  if (flags.selector) query.set('labelSelector', flags.selector);
  if (flags.fieldSelector) query.set('fieldSelector', flags.fieldSelector);
  if (flags.sortBy) query.set('sort', flags.sortBy);
  if (flags.page !== undefined) query.set('page', String(flags.page));
  if (flags.size !== undefined) query.set('size', String(flags.size));
  const answer = await client.request({ method: 'GET', path: collectionPath(res), query, accept: table ? TABLE_ACCEPT : undefined });
  if (table) {
    const found = asTable(answer);
    if (found.rows.length === 0) io.stderr('No resources found.\n');
    else io.stdout(renderTable(found, format.kind === 'wide'));
    return;
  }
  print((answer as { items?: ApiObject[] }).items ?? [], res, format, io, false);
}

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
