import type { Command } from 'commander';
import type { ApiObject } from '../api/object';
import { DISPLAY_NAME_ANNOTATION, HIDDEN_LABEL, MODULE_ANNOTATION } from '../api/role-keys';
import { connect, type ConnectionFlags } from './connection';
import type { CliIo } from './io';
import { renderTable } from './output';

const CONSOLE_USERS = '/apis/api.console.svc.run/v1alpha1/users';
const ROLES = { group: '', version: 'v1alpha1', plural: 'roles' };

/** `svcctl roles list | assign USER ROLE…`. */
export function registerRoles(program: Command, io: CliIo): void {
  const roles = program
    .command('roles')
    .description('Lists roles and assigns them to users')
    .addHelpText('after', '\nExample:\n  svcctl roles assign ada person-reader');

  roles
    .command('list')
    .description('Lists the roles (hidden ones left out): name, display name, module')
    .addHelpText('after', '\nExample:\n  svcctl roles list')
    .action(async (_opts: unknown, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const { items } = await client.list<ApiObject>(ROLES, { sort: ['metadata.name,asc'] });
      const shown = items.filter((r) => r.metadata?.labels?.[HIDDEN_LABEL] !== 'true');
      io.stdout(
        renderTable(
          {
            kind: 'Table',
            columnDefinitions: [{ name: 'Name' }, { name: 'Display Name' }, { name: 'Module' }],
            rows: shown.map((r) => ({
              cells: [
                r.metadata?.name,
                r.metadata?.annotations?.[DISPLAY_NAME_ANNOTATION] ?? '',
                r.metadata?.annotations?.[MODULE_ANNOTATION] ?? '',
              ],
            })),
          },
          false,
        ),
      );
    });

  roles
    .command('assign')
    .description('Replaces the roles of a user with these (binding a role you do not hold is refused)')
    .argument('<user>', 'the user')
    .argument('<roles...>', 'the roles the user is to hold')
    .addHelpText('after', '\nExample:\n  svcctl roles assign ada person-reader person-editor')
    .action(async (user: string, names: string[], _opts: unknown, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      await client.request({
        method: 'POST',
        path: `${CONSOLE_USERS}/${encodeURIComponent(user)}/permissions`,
        body: { roles: names },
      });
      io.stdout(`user "${user}" now holds: ${names.join(', ')}\n`);
    });
}
