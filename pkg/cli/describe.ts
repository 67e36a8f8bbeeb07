import type { Command } from 'commander';
import { ApiError, isNotFound } from '../client';
import { connect, type ConnectionFlags } from './connection';
import { describeObject } from './describe-format';
import { describeApiError, ReportedFailure } from './errors';
import type { CliIo } from './io';
import { Discovery } from './resources';

/** `svcctl describe RESOURCE NAME…`: each object's summary, separated by a blank line. */
export function registerDescribe(program: Command, io: CliIo): void {
  program
    .command('describe')
    .description('Shows objects for a person to read: metadata, labels, annotations, spec, status, conditions')
    .argument('<resource>', 'a plural, singular, kind or short name, optionally <resource>.<group>')
    .argument('<names...>', 'the objects')
    .addHelpText(
      'after',
      `
Examples:
  svcctl describe person ada
  svcctl describe roles post-editor post-author
  svcctl describe plugin hello`,
    )
    .action(async (resource: string, names: string[], _flags: unknown, command: Command) => {
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const res = await new Discovery(client).resolve(resource);
      let missing = false;
      const texts: string[] = [];
      for (const name of names) {
        try {
          texts.push(describeObject(await client.get(res, name)));
        } catch (err) {
          if (!(err instanceof ApiError) || !isNotFound(err)) throw err;
          io.stderr(`${describeApiError(err)}\n`);
          missing = true;
        }
      }
      io.stdout(texts.join('\n'));
      if (missing) throw new ReportedFailure('some objects were not found');
    });
}
