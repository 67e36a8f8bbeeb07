import type { Command } from 'commander';
import type { ApiObject } from '../api/object';
import { collectionPath, type ApiClient } from '../client';
import { connect, type ConnectionFlags } from './connection';
import type { CliIo } from './io';
import { renderTable, TABLE_ACCEPT, type Table } from './output';

/** The Plugin resource (`plugin.svc.run/v1alpha1`): one object per plugin folder of the apiserver. */
export const PLUGINS = { group: 'plugin.svc.run', version: 'v1alpha1', plural: 'plugins' };

/** A Plugin object as `plugin status` reads it. */
interface Plugin extends ApiObject {
  spec?: { version?: string; enabled?: boolean; displayName?: string };
  status?: {
    phase?: string;
    message?: string;
    conditions?: { type?: string; status?: string; reason?: string; message?: string }[];
    extensions?: { apiVersion?: string; kind?: string; name?: string }[];
  };
}

/** `svcctl plugin list | status NAME | enable NAME | disable NAME`. */
export function registerPlugin(program: Command, io: CliIo): void {
  const plugin = program
    .command('plugin')
    .description("Lists the apiserver's plugins, shows one's status, enables or disables one")
    .addHelpText(
      'after',
      `
Examples:
  svcctl plugin list
  svcctl plugin status hello
  svcctl plugin disable hello`,
    );
  const client = (command: Command): ApiClient => connect(command.optsWithGlobals<ConnectionFlags>(), io);

  plugin
    .command('list')
    .description('Lists the plugins: name, version, phase and message')
    .addHelpText('after', '\nExample:\n  svcctl plugin list')
    .action(async (_flags: unknown, command: Command) => {
      const table = await client(command).request<Table>({
        method: 'GET',
        path: collectionPath(PLUGINS),
        accept: TABLE_ACCEPT,
      });
      if (table.rows.length === 0) io.stderr('No plugins found.\n');
      else io.stdout(renderTable(table, false));
    });

  plugin
    .command('status')
    .description("Shows a plugin's phase, message, conditions and extension objects")
    .argument('<name>', 'the plugin')
    .addHelpText('after', '\nExample:\n  svcctl plugin status hello')
    .action(async (name: string, _flags: unknown, command: Command) => {
      io.stdout(describePlugin(await client(command).get<Plugin>(PLUGINS, name)));
    });

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    plugin
      .command(verb)
      .description(`${enabled ? 'Starts' : 'Stops'} a plugin: sets its spec.enabled to ${String(enabled)}`)
      .argument('<name>', 'the plugin')
      .addHelpText('after', `\nExample:\n  svcctl plugin ${verb} hello`)
      .action(async (name: string, _flags: unknown, command: Command) => {
        await client(command).patch(PLUGINS, name, { spec: { enabled } });
        io.stdout(`plugins/${name} ${verb}d\n`);
      });
  }
}

/** `plugin status`'s text: name, version, enabled, phase and message, then the conditions and extension objects. */
export function describePlugin(plugin: Plugin): string {
  const status = plugin.status ?? {};
  const lines = [
    ...headLines(plugin),
    'Conditions:',
    ...section(
      ['Type', 'Status', 'Reason', 'Message'],
      (status.conditions ?? []).map((c) => [c.type, c.status, c.reason, c.message]),
    ),
    'Extensions:',
    ...section(
      ['Kind', 'API Version', 'Name'],
      (status.extensions ?? []).map((e) => [e.kind, e.apiVersion, e.name]),
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** Name, version, enabled, phase and message. */
function headLines(plugin: Plugin): string[] {
  const status = plugin.status ?? {};
  return [
    `Name:        ${plugin.metadata?.name ?? ''}`,
    `Version:     ${plugin.spec?.version ?? ''}`,
    `Enabled:     ${String(plugin.spec?.enabled !== false)}`,
    `Phase:       ${status.phase ?? '<none>'}`,
    `Message:     ${status.message || '<none>'}`,
  ];
}

/** A small table indented under its heading, or `<none>`. */
function section(columns: string[], rows: unknown[][]): string[] {
  if (rows.length === 0) return ['  <none>'];
  const table: Table = {
    kind: 'Table',
    columnDefinitions: columns.map((name) => ({ name })),
    rows: rows.map((cells) => ({ cells })),
  };
  return indent(renderTable(table, false));
}

const indent = (text: string): string[] =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`);
