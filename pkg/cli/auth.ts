import type { Command } from 'commander';
import { connect, type ConnectionFlags } from './connection';
import { ReportedFailure, UsageError } from './errors';
import type { CliIo } from './io';
import { Discovery, findResource } from './resources';

const ACCESS_REVIEWS = '/apis/authorization.svc.run/v1alpha1/accessreviews';
const CONSOLE_USERS = '/apis/api.console.svc.run/v1alpha1/users';

/** The `status` of an AccessReview. */
interface AccessReviewStatus {
  allowed: boolean;
  reason?: string;
  trace?: { kind: string; name: string; message: string }[];
  /** Set when only conditional rules allow: for the objects matching any of these. */
  conditions?: { fieldSelector?: string; labelSelector?: string }[];
}

/** ` (where spec.owner=ada)` when the answer holds only for some objects, else nothing. */
function whereOf(status: AccessReviewStatus): string {
  if (!status.conditions?.length) return '';
  const one = (c: { fieldSelector?: string; labelSelector?: string }) =>
    [c.fieldSelector, c.labelSelector && `labels ${c.labelSelector}`].filter(Boolean).join(', ');
  return ` (where ${status.conditions.map(one).join(' or ')})`;
}

/** `svcctl auth whoami | can-i VERB RESOURCE [NAME] [--as USER] | explain VERB RESOURCE [NAME] [--as USER]`. */
export function registerAuth(program: Command, io: CliIo): void {
  const auth = program
    .command('auth')
    .description('Who you are and what you may do')
    .addHelpText('after', '\nExample:\n  svcctl auth can-i delete persons');

  auth
    .command('whoami')
    .description('Prints your user name and roles')
    .addHelpText('after', '\nExample:\n  svcctl auth whoami')
    .action(async (_opts: unknown, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const user = await client.request<{ metadata?: { name?: string } }>({
        method: 'GET',
        path: `${CONSOLE_USERS}/-`,
      });
      const permissions = await client.request<{ roles?: string[] }>({
        method: 'GET',
        path: `${CONSOLE_USERS}/-/permissions`,
      });
      io.stdout(
        `Username: ${user.metadata?.name ?? '?'}\nRoles:    ${(permissions.roles ?? []).join(', ') || '<none>'}\n`,
      );
    });

  const review = (name: string, description: string, example: string) =>
    auth
      .command(name)
      .description(description)
      .argument(
        '<verb>',
        'get, list, watch, create, update, patch, delete, deletecollection, or an HTTP verb for a path',
      )
      .argument(
        '<resource>',
        'a resource type (plural, singular, kind, short name, optionally <resource>.<group>; <plural>/<subresource>), or a path like /healthz',
      )
      .argument('[name]', 'one object of the type')
      .option('--as <user>', 'ask about another user (needs create on accessreviews and get on the user)')
      .addHelpText('after', `\nExample:\n  ${example}`);

  review(
    'can-i',
    'Prints yes (exit 0) or no (exit 1): whether the action is allowed',
    'svcctl auth can-i get persons ada --as bob',
  ).action(
    async (verb: string, resource: string, name: string | undefined, opts: { as?: string }, command: Command) => {
      const status = await accessReview(command, io, verb, resource, name, opts.as);
      io.stdout(status.allowed ? `yes${whereOf(status)}\n` : 'no\n');
      if (!status.allowed) throw new ReportedFailure('denied');
    },
  );

  review(
    'explain',
    'Prints why the action is allowed or denied: the reason and the bindings, roles and rules considered',
    'svcctl auth explain delete persons --as bob',
  ).action(
    async (verb: string, resource: string, name: string | undefined, opts: { as?: string }, command: Command) => {
      const status = await accessReview(command, io, verb, resource, name, opts.as);
      const trace = (status.trace ?? []).map((t) => `  ${t.kind} ${t.name}: ${t.message}\n`).join('');
      io.stdout(`${status.allowed ? `yes${whereOf(status)}` : 'no'}: ${status.reason ?? ''}\n${trace}`);
    },
  );
}

async function accessReview(
  command: Command,
  io: CliIo,
  verb: string,
  resource: string,
  name: string | undefined,
  as: string | undefined,
): Promise<AccessReviewStatus> {
  const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
  const spec: Record<string, string> = { verb };
  if (as) spec.user = as;
  if (resource.startsWith('/')) {
    if (name) throw new UsageError('a path takes no object name');
    spec.path = resource;
  } else {
    const [type = '', subresource = ''] = resource.split('/');
    const target =
      type === '*'
        ? { group: '*', plural: '*' }
        : (findResource(await new Discovery(client).all(), type) ?? undiscovered(type, io));
    Object.assign(spec, { group: target.group, resource: target.plural, subresource, name: name ?? '' });
  }
  const answer = await client.request<{ status?: AccessReviewStatus }>({
    method: 'POST',
    path: ACCESS_REVIEWS,
    body: { apiVersion: 'authorization.svc.run/v1alpha1', kind: 'AccessReview', spec },
  });
  return answer.status ?? { allowed: false, reason: 'the server gave no answer' };
}

/**
 * What to ask about a type discovery does not list (a plugin's route, such as `greetings.api.people.example.com`):
 * as kubectl does, warn and ask the server anyway, `<resource>.<group>` split at the first dot, a bare resource in
 * the core group "".
 */
export function undiscovered(type: string, io: CliIo): { group: string; plural: string } {
  const wanted = type.toLowerCase();
  const dot = wanted.indexOf('.');
  const target =
    dot < 0 ? { group: '', plural: wanted } : { group: wanted.slice(dot + 1), plural: wanted.slice(0, dot) };
  const inGroup = target.group ? ` in group '${target.group}'` : '';
  io.stderr(`Warning: the server doesn't have a resource type '${target.plural}'${inGroup}\n`);
  return target;
}
