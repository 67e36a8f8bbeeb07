import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import type { ApiObject } from '../api/object';
import { UsageError } from './errors';
import { readAll, type CliIo } from './io';

/** One document of a manifest file: where it came from (its index counts from 1) and the object, or why it cannot be read. */
export interface ManifestDocument {
  file: string;
  index: number;
  object?: ApiObject;
  error?: string;
}

const MANIFEST_FILE = /\.(ya?ml|json)$/i;
/** How error lines name the standard input. */
const STDIN = '<stdin>';

/**
 * The documents of every `-f PATH`: a file, a folder (its YAML and JSON
 * files, in name order; sub-folders too with `recursive`) or `-` (stdin).
 * A file that is not YAML yields one document carrying the parse error.
 */
export async function readManifests(paths: string[], recursive: boolean, io: CliIo): Promise<ManifestDocument[]> {
  const documents: ManifestDocument[] = [];
  for (const path of paths) {
    if (path === '-') {
      documents.push(...parseManifest(STDIN, await readAll(io.stdin)));
      continue;
    }
    for (const file of filesOf(path, recursive)) documents.push(...parseManifest(file, readFileSync(file, 'utf8')));
  }
  return documents;
}

/** The documents of one file's text (multi-document YAML; JSON is YAML too). */
export function parseManifest(file: string, text: string): ManifestDocument[] {
  let parsed: unknown[];
  try {
    parsed = yaml.loadAll(text, undefined, { schema: yaml.CORE_SCHEMA });
  } catch (err) {
    return [{ file, index: 1, error: `not valid YAML: ${(err as Error).message.split('\n')[0]}` }];
  }
  return parsed
    .filter((d) => d !== null && d !== undefined)
    .map((object, i) => {
      if (typeof object !== 'object' || Array.isArray(object)) return { file, index: i + 1, error: 'not an object' };
      return { file, index: i + 1, object: object as ApiObject };
    });
}

function filesOf(path: string, recursive: boolean): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new UsageError(`the path "${path}" does not exist`);
  }
  if (!stat.isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = join(path, entry.name);
      if (entry.isDirectory()) return recursive ? filesOf(full, true) : [];
      return MANIFEST_FILE.test(entry.name) ? [full] : [];
    });
}
