import { Command, InvalidArgumentError } from 'commander';
import type { ApiObject } from '../api/object';
import { isNotFound, type ApiClient, type DiscoveredResource } from '../client';
import { parseDurationSeconds } from '../util/duration';
import { connect, type ConnectionFlags } from './connection';
import { UsageError } from './errors';
import type { CliIo } from './io';
import { readManifests } from './manifests';
import { Discovery, resourceOfKind } from './resources';

const POLL_MS = 200;

interface DeleteFlags {
  selector?: string;
  filename?: string[];
  recursive?: boolean;
  wait: boolean;
  timeout: number;
}

const bool = (value: string): boolean => {
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new InvalidArgumentError('must be true or false');
};

/** A duration option (`30s`, `2m`) in milliseconds. */
export const durationMs = (value: string): number => {
  try {
    return parseDurationSeconds(value) * 1000;
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
};

/** `svcctl delete RESOURCE NAME… | -f PATH | -l SELECTOR [--wait[=true|false]] [--timeout DURATION]`. */
export function registerDelete(program: Command, io: CliIo): void {
  program
    .command('delete')
    .description('Deletes objects by name, label selector or manifest, waiting until they are gone')
    .argument('[resource]', 'a plural, singular, kind or short name, optionally <resource>.<group> (not with -f)')
    .argument('[names...]', 'the objects to delete')
    .option('-l, --selector <selector>', 'delete every object with these labels')
    .option(
      '-f, --filename <path>',
      'delete the objects of these manifests: a file, a folder or - (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('-R, --recursive', "with -f: read the folders' sub-folders too")
    .option('--wait [bool]', 'return once the objects are gone (finalizers done)', bool, true)
    .option('--timeout <duration>', 'how long --wait waits, e.g. 30s or 2m', durationMs, 60_000)
    .addHelpText(
      'after',
      `
Examples:
  svcctl delete person ada
  svcctl delete persons -l team=engines --wait=false
  svcctl delete -f manifests/examples/person.yaml`,
    )
    .action(async (resource: string | undefined, names: string[], flags: DeleteFlags, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const discovery = new Discovery(client);
      const targets = flags.filename
        ? await targetsOfManifests(discovery, resource, flags, io)
        : await targetsOfArguments(client, discovery, resource, names, flags);
      if (targets.length === 0) io.stderr('No resources found.\n');
      for (const { res, name } of targets) {
        await client.delete(res, name);
        io.stdout(`${res.plural}/${name} deleted\n`);
      }
      if (flags.wait) await waitUntilGone(client, targets, flags.timeout);
    });
}

/** One object to delete. */
interface Target {
  res: DiscoveredResource;
  name: string;
}

async function targetsOfArguments(
  client: ApiClient,
  discovery: Discovery,
  resource: string | undefined,
  names: string[],
  flags: DeleteFlags,
): Promise<Target[]> {
  if (!resource) throw new UsageError('name a resource type, or give -f PATH');
  if (names.length > 0 === Boolean(flags.selector))
    throw new UsageError('name the objects or give -l SELECTOR (one of the two)');
  const res = await discovery.resolve(resource);
  const found = names.length ? names : await namesBySelector(client, res, flags.selector ?? '');
  return found.map((name) => ({ res, name }));
}

async function targetsOfManifests(
  discovery: Discovery,
  resource: string | undefined,
  flags: DeleteFlags,
  io: CliIo,
): Promise<Target[]> {
  if (resource || flags.selector) throw new UsageError('-f takes no resource type, names or -l SELECTOR');
  const documents = await readManifests(flags.filename ?? [], flags.recursive === true, io);
  const discovered = await discovery.all();
  return documents.map((document) => {
    const where = `${document.file} document ${document.index}`;
    const object = document.object;
    if (!object) throw new UsageError(`${where}: ${document.error ?? 'empty'}`);
    const name = object.metadata?.name;
    const res = resourceOfKind(discovered, object.apiVersion ?? '', object.kind ?? '');
    if (!res)
      throw new UsageError(
        `${where}: the server does not serve kind "${object.kind ?? ''}" in "${object.apiVersion ?? ''}"`,
      );
    if (!name) throw new UsageError(`${where}: the document needs metadata.name`);
    return { res, name };
  });
}

async function namesBySelector(client: ApiClient, res: DiscoveredResource, selector: string): Promise<string[]> {
  const list = await client.list<ApiObject>(res, { labelSelector: selector });
  return list.items.map((o) => o.metadata?.name ?? '').filter(Boolean);
}

async function waitUntilGone(client: ApiClient, targets: Target[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...targets];
  while (waiting.length > 0) {
    const still: Target[] = [];
    for (const target of waiting) {
      try {
        await client.get(target.res, target.name);
        still.push(target);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    waiting = still;
    if (waiting.length === 0) return;
    if (Date.now() >= deadline) {
      throw new Error(
        `timed out waiting for the deletion of ${waiting.map((t) => `${t.res.plural}/${t.name}`).join(', ')}` +
          " (they are marked; the controller-manager's gc removes them once their finalizers are done: is it running?)",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
