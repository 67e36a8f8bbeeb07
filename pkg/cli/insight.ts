import type { Command } from 'commander';
import type { ApiObject } from '../api/object';
import { parseDurationSeconds } from '../util/duration';
import { undiscovered } from './auth';
import { connect, type ConnectionFlags } from './connection';
import { UsageError } from './errors';
import type { CliIo } from './io';
import { readManifests } from './manifests';
import { renderTable } from './output';
import { Discovery, findResource } from './resources';

const REVIEWS = '/apis/authorization.svc.run/v1alpha1';
const EVENTS = { group: 'audit.svc.run', version: 'v1alpha1', plural: 'events' };

interface Rule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  via?: { binding?: string; role: string; path: string[] }[];
}

/** A rule in one short line, e.g. `get,list persons.example.com [ada]` or `get /healthz`. */
export function describeRule(rule: Rule): string {
  if (rule.nonResourceURLs?.length) return `${rule.verbs.join(',')} ${rule.nonResourceURLs.join(',')}`;
  const groups = (rule.apiGroups ?? []).filter((g) => g !== '');
  const resources = (rule.resources ?? []).map((r) => (groups.length ? `${r}.${groups.join('|')}` : r)).join(',');
  const names = rule.resourceNames?.length ? ` [${rule.resourceNames.join(',')}]` : '';
  return `${rule.verbs.join(',')} ${resources}${names}`;
}

/**
 * Access insight and audit in svcctl: `auth who-can`, `auth rules`, `roles impact -f`, `audit`.
 * Registered after `auth` and `roles`, under them.
 */
export function registerInsight(program: Command, io: CliIo): void {
  const sub = (name: string) => program.commands.find((c) => c.name() === name)!;
  registerWhoCan(sub('auth'), io);
  registerRules(sub('auth'), io);
  registerImpact(sub('roles'), io);
  registerAudit(program, io);
}

function registerWhoCan(auth: Command, io: CliIo): void {
  auth
    .command('who-can')
    .description('Lists the users who may do an action, and the binding and role that grant it')
    .argument('<verb>', 'get, list, watch, create, update, patch, delete, deletecollection, or an HTTP verb for a path')
    .argument('<resource>', 'a resource type (optionally <resource>.<group>; <plural>/<subresource>), or a path')
    .argument('[name]', 'one object of the type')
    .addHelpText('after', '\nExample:\n  svcctl auth who-can update persons ada')
    .action(async (verb: string, resource: string, name: string | undefined, _opts: unknown, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const spec = await whoCanSpec(client, io, verb, resource, name);
      const rows: string[][] = [];
      let status: WhoCanStatus;
      do {
        const answer = await client.request<{ status: WhoCanStatus }>({
          method: 'POST',
          path: `${REVIEWS}/resourceaccessreviews`,
          body: { kind: 'ResourceAccessReview', spec },
        });
        status = answer.status;
        for (const user of status.users)
          for (const via of user.via)
            rows.push([user.name, via.binding ?? '', via.path.join(' → '), describeRule(via.rule)]);
        spec.continue = status.continue;
      } while (status.continue);
      if (status.anonymous) io.stdout('Everyone, logged in or not, may (through the role anonymous).\n');
      else if (status.authenticated) io.stdout('Every logged-in user may (through the role authenticated).\n');
      io.stdout(table(['User', 'Binding', 'Role', 'Rule'], rows));
    });
}

/** A ResourceAccessReview's spec for the command's arguments (the type found through discovery). */
async function whoCanSpec(
  client: ReturnType<typeof connect>,
  io: CliIo,
  verb: string,
  resource: string,
  name: string | undefined,
): Promise<Record<string, unknown>> {
  if (resource.startsWith('/')) {
    if (name) throw new UsageError('a path takes no object name');
    return { verb, path: resource, limit: 1000 };
  }
  const [type = '', subresource = ''] = resource.split('/');
  const target = findResource(await new Discovery(client).all(), type) ?? undiscovered(type, io);
  return { verb, group: target.group, resource: target.plural, subresource, name: name ?? '', limit: 1000 };
}

interface WhoCanStatus {
  anonymous: boolean;
  authenticated: boolean;
  users: WhoCanUser[];
  total: number;
  continue?: string;
}

interface WhoCanUser {
  name: string;
  via: { binding?: string; role: string; path: string[]; rule: Rule }[];
}

function registerRules(auth: Command, io: CliIo): void {
  auth
    .command('rules')
    .description('Lists what a user may do: every rule, with the binding and role it comes from')
    .option('--as <user>', 'about another user (needs create on subjectrulesreviews)')
    .addHelpText('after', '\nExample:\n  svcctl auth rules --as ada')
    .action(async (opts: { as?: string }, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const answer = await client.request<{
        status: { resourceRules: Rule[]; nonResourceRules: Rule[]; uiPermissions: string[] };
      }>({
        method: 'POST',
        path: `${REVIEWS}/subjectrulesreviews`,
        body: { kind: 'SubjectRulesReview', spec: opts.as ? { user: opts.as } : {} },
      });
      const { resourceRules, nonResourceRules, uiPermissions } = answer.status;
      const rows = [...resourceRules, ...nonResourceRules].map((rule) => [
        describeRule(rule),
        (rule.via ?? []).map((v) => (v.binding ? `${v.binding}: ` : '') + v.path.join(' → ')).join('; '),
      ]);
      io.stdout(table(['Rule', 'From'], rows));
      io.stdout(`UI permissions: ${uiPermissions.join(', ') || '<none>'}\n`);
    });
}

interface ImpactStatus {
  usersAffected: number;
  changes: { user: string; gained: Rule[]; lost: Rule[]; uiPermissionsGained: string[]; uiPermissionsLost: string[] }[];
  anonymousGained: Rule[];
  anonymousLost: Rule[];
  authenticatedGained?: Rule[];
  authenticatedLost?: Rule[];
  continue?: string;
}

function registerImpact(roles: Command, io: CliIo): void {
  roles
    .command('impact')
    .description(
      'Shows, per user, the rules a Role, RoleBinding or User in the files would grant or take away, without writing anything',
    )
    .requiredOption('-f, --filename <path...>', 'a file, a folder or - (YAML or JSON)')
    .option('--delete', 'the impact of deleting the objects instead of writing them')
    .addHelpText('after', '\nExample:\n  svcctl roles impact -f role.yaml')
    .action(async (opts: { filename: string[]; delete?: boolean }, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      for (const doc of await readManifests(opts.filename, false, io)) {
        if (doc.error || !doc.object)
          throw new UsageError(`${doc.file} #${doc.index}: ${doc.error ?? 'empty document'}`);
        const operation = opts.delete ? 'delete' : await existingOrNew(client, doc.object);
        const status = await impactOf(client, operation, doc.object);
        io.stdout(
          `${doc.object.kind}/${doc.object.metadata?.name ?? ''} (${operation}): ${status.usersAffected} users affected\n`,
        );
        io.stdout(impactTable(status));
      }
    });
}

/** `update` when the object exists, else `create`. */
async function existingOrNew(client: ReturnType<typeof connect>, object: ApiObject): Promise<'create' | 'update'> {
  const plural = { Role: 'roles', RoleBinding: 'rolebindings', User: 'users' }[object.kind ?? ''];
  if (!plural) return 'create';
  const found = await client
    .request({ method: 'GET', path: `/api/v1alpha1/${plural}/${encodeURIComponent(object.metadata?.name ?? '')}` })
    .then(() => true)
    .catch(() => false);
  return found ? 'update' : 'create';
}

async function impactOf(
  client: ReturnType<typeof connect>,
  operation: string,
  object: ApiObject,
): Promise<ImpactStatus> {
  const all: ImpactStatus['changes'] = [];
  let status: ImpactStatus;
  let token: string | undefined;
  do {
    const answer = await client.request<{ status: ImpactStatus }>({
      method: 'POST',
      path: `${REVIEWS}/accessimpactreviews`,
      body: { kind: 'AccessImpactReview', spec: { operation, object, limit: 1000, continue: token } },
    });
    status = answer.status;
    all.push(...status.changes);
    token = status.continue;
  } while (token);
  return { ...status, changes: all };
}

function impactTable(status: ImpactStatus): string {
  const rules = (list: Rule[] | undefined) => (list ?? []).map(describeRule).join('; ');
  const rows = status.changes.map((c) => [
    c.user,
    [rules(c.gained), ...c.uiPermissionsGained.map((p) => `ui:${p}`)].filter(Boolean).join('; '),
    [rules(c.lost), ...c.uiPermissionsLost.map((p) => `ui:${p}`)].filter(Boolean).join('; '),
  ]);
  if (status.anonymousGained.length || status.anonymousLost.length)
    rows.unshift(['<anonymous: everyone>', rules(status.anonymousGained), rules(status.anonymousLost)]);
  if (status.authenticatedGained?.length || status.authenticatedLost?.length)
    rows.unshift(['<authenticated: every user>', rules(status.authenticatedGained), rules(status.authenticatedLost)]);
  return table(['User', 'Gained', 'Lost'], rows);
}

interface AuditEvent extends ApiObject {
  time: string;
  user: string;
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  name: string;
  path: string;
  code: number;
  decision: string;
  reason: string;
}

function registerAudit(program: Command, io: CliIo): void {
  program
    .command('audit')
    .description('Lists audit records, newest first: who did what, the answer, and why it was allowed or not')
    .option('--user <user>', 'only this user')
    .option('--verb <verb>', 'only this verb')
    .option('--resource <resource>', 'only this resource (plural)')
    .option('--decision <decision>', 'allow or deny')
    .option('--since <duration>', 'only records of the last DURATION (e.g. 1h)')
    .option('--limit <n>', 'at most this many records', '100')
    .option('-w, --watch', 'then print new records as they come')
    .addHelpText('after', '\nExample:\n  svcctl audit --user ada --since 1h')
    .action(async (opts: AuditFlags, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const query = auditQuery(opts);
      const list = await client.request<{ items: AuditEvent[]; metadata: { resourceVersion?: string } }>({
        method: 'GET',
        path: '/apis/audit.svc.run/v1alpha1/events',
        query,
      });
      io.stdout(table(AUDIT_COLUMNS, list.items.map(auditRow)));
      if (!opts.watch) return;
      const stream = await client.watch<AuditEvent>(EVENTS, { resourceVersion: list.metadata.resourceVersion });
      for await (const event of stream) {
        if (matchesFlags(event.object, opts))
          io.stdout(table(AUDIT_COLUMNS, [auditRow(event.object)]).split('\n')[1] + '\n');
      }
    });
}

interface AuditFlags {
  user?: string;
  verb?: string;
  resource?: string;
  decision?: string;
  since?: string;
  limit: string;
  watch?: boolean;
}

const AUDIT_COLUMNS = ['Time', 'User', 'Verb', 'Resource', 'Name', 'Code', 'Decision', 'Reason'];

function auditQuery(opts: AuditFlags): URLSearchParams {
  const query = new URLSearchParams({ limit: opts.limit });
  for (const key of ['user', 'verb', 'resource', 'decision'] as const) if (opts[key]) query.set(key, opts[key]);
  if (opts.since) {
    let seconds: number;
    try {
      seconds = parseDurationSeconds(opts.since);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    query.set('since', new Date(Date.now() - seconds * 1000).toISOString());
  }
  return query;
}

const matchesFlags = (event: AuditEvent, opts: AuditFlags) =>
  (['user', 'verb', 'resource', 'decision'] as const).every((key) => !opts[key] || event[key] === opts[key]);

const auditRow = (e: AuditEvent) => [
  e.time,
  e.user,
  e.verb,
  e.resource ? [e.resource, e.subresource].filter(Boolean).join('/') + (e.group ? `.${e.group}` : '') : e.path,
  e.name,
  String(e.code),
  e.decision,
  e.reason,
];

function table(columns: string[], rows: string[][]): string {
  return renderTable(
    { kind: 'Table', columnDefinitions: columns.map((name) => ({ name })), rows: rows.map((cells) => ({ cells })) },
    false,
  );
}
