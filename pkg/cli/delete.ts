import { Command, InvalidArgumentError } from 'commander';
import type { ApiObject } from '../api/object';
import { isNotFound, type ApiClient, type DiscoveredResource } from '../client';
import { parseDurationSeconds } from '../util/duration';
import { connect, type ConnectionFlags } from './connection';
import { UsageError } from './errors';
import type { CliIo } from './io';
import { Discovery } from './resources';

const POLL_MS = 200;

interface DeleteFlags {
  selector?: string;
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

/** `svcctl delete RESOURCE NAME… | -l SELECTOR [--wait[=true|false]] [--timeout DURATION]`. */
export function registerDelete(program: Command, io: CliIo): void {
  program.command('delete').description('Deletes objects by name or label selector, waiting until they are gone')
    .argument('<resource>', 'a plural, singular, kind or short name, optionally <resource>.<group>')
    .argument('[names...]', 'the objects to delete')
    .option('-l, --selector <selector>', 'delete every object with these labels')
    .option('--wait [bool]', 'return once the objects are gone (finalizers done)', bool, true)
    .option('--timeout <duration>', 'how long --wait waits, e.g. 30s or 2m', durationMs, 60_000)
    .addHelpText('after', `
Examples:
  svcctl delete person ada
  svcctl delete persons -l team=engines --wait=false`)
    .action(async (resource: string, names: string[], flags: DeleteFlags, command: Command) => {
      if (names.length > 0 === Boolean(flags.selector)) throw new UsageError('name the objects or give -l SELECTOR (one of the two)');
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const res = await new Discovery(client).resolve(resource);
      const targets = names.length ? names : await namesBySelector(client, res, flags.selector ?? '');
      if (targets.length === 0) io.stderr('No resources found.\n');
      for (const name of targets) {
        await client.delete(res, name);
        io.stdout(`${res.plural}/${name} deleted\n`);
      }
      if (flags.wait) await waitUntilGone(client, res, targets, flags.timeout);
    });
}

async function namesBySelector(client: ApiClient, res: DiscoveredResource, selector: string): Promise<string[]> {
  const list = await client.list<ApiObject>(res, { labelSelector: selector });
  return list.items.map((o) => o.metadata?.name ?? '').filter(Boolean);
}

async function waitUntilGone(client: ApiClient, res: DiscoveredResource, names: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...names];
  while (waiting.length > 0) {
    const still: string[] = [];
    for (const name of waiting) {
      try {
        await client.get(res, name);
        still.push(name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    waiting = still;
    if (waiting.length === 0) return;
    if (Date.now() >= deadline) {
      throw new Error(`timed out waiting for the deletion of ${waiting.map((n) => `${res.plural}/${n}`).join(', ')}`
        + ' (they are marked; the controller-manager\'s gc removes them once their finalizers are done: is it running?)');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
