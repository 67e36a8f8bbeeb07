import { Option } from 'commander';
import type { WriteOptions } from '../client';
import { UsageError } from './errors';

/** The server's `?fieldValidation=` modes by `--validate` value; kubectl's `true`/`false` too. */
const MODES: Record<string, NonNullable<WriteOptions['fieldValidation']>> = {
  strict: 'Strict',
  true: 'Strict',
  warn: 'Warn',
  ignore: 'Ignore',
  false: 'Ignore',
};

/** The `--validate` option of the commands that write objects (apply, edit). */
export function validateOption(): Option {
  return new Option(
    '--validate <mode>',
    'fields the schema does not know: "strict" refuses the object naming them, "warn" drops them with a warning, "ignore" drops them silently',
  ).default('strict');
}

/** The server's `fieldValidation` for a `--validate` value; UsageError for any other value. */
export function fieldValidationOf(validate: string | undefined): NonNullable<WriteOptions['fieldValidation']> {
  const mode = MODES[(validate ?? 'strict').toLowerCase()];
  if (!mode) throw new UsageError(`--validate=${validate}: use strict, warn or ignore`);
  return mode;
}
