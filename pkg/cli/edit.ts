import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import yaml from 'js-yaml';
import type { ApiObject } from '../api/object';
import { ApiError, isConflict, type ApiClient, type DiscoveredResource, type WriteOptions } from '../client';
import { jsonEqual } from '../util/json-equal';
import { connect, type ConnectionFlags } from './connection';
import { runEditor } from './editor';
import { describeApiError } from './errors';
import type { CliIo } from './io';
import { mergePatch, mergePatchBetween } from '../util/merge-patch';
import { Discovery } from './resources';
import { fieldValidationOf, validateOption } from './validate';
import { isPlainObject } from '../api/plain-object';

const INSTRUCTIONS = [
  "Please edit the object below. Lines beginning with a '#' will be ignored,",
  'and an empty file will abort the edit. If an error occurs while saving this file will be',
  'reopened with the relevant failures.',
];

/** `svcctl edit RESOURCE NAME`. */
export function registerEdit(program: Command, io: CliIo): void {
  program
    .command('edit')
    .description('Edits an object in your editor ($SVC_EDITOR, else $EDITOR, else vi) and saves what you changed')
    .argument('<resource>', 'a plural, singular, kind or short name, optionally <resource>.<group>')
    .argument('<name>', 'the object')
    .addOption(validateOption())
    .addHelpText(
      'after',
      `
The object opens as YAML. Saving sends what you changed (a merge patch, on condition that the object has not
changed since it was read). When the server refuses it (a validation error), the file opens again with the
error at the top and your changes kept (with --validate=strict, the default, a field the schema does not know
is such an error); when the object changed meanwhile, it opens again with your changes
applied to the latest version. An unchanged or empty file cancels: "Edit cancelled, no changes made."

Examples:
  svcctl edit person ada
  SVC_EDITOR="code --wait" svcctl edit role post-editor`,
    )
    .action(async (resource: string, name: string, flags: { validate?: string }, command: Command) => {
      const fieldValidation = fieldValidationOf(flags.validate);
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const res = await new Discovery(client).resolve(resource);
      const dir = mkdtempSync(join(tmpdir(), 'svcctl-edit-'));
      try {
        await new EditSession(client, res, name, io, join(dir, `${res.plural}-${name}.yaml`), fieldValidation).run();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
}

/** What the editor gave back: nothing (an empty file), text that is no object, or an object. */
type Edited =
  { kind: 'empty' } | { kind: 'unreadable'; text: string; error: string } | { kind: 'object'; object: ApiObject };

/** What saving answered. */
type Saved = { kind: 'saved' } | { kind: 'conflict'; latest: ApiObject } | { kind: 'invalid'; error: string };

/** One `edit`: open, read, save, and open again on a refusal until saved or cancelled. */
class EditSession {
  /** The server's version the changes are measured against. */
  private base!: ApiObject;
  /** What the file shows next, and the comment lines above it. */
  private text = '';
  private notes: string[] = [];
  /** The last edit the server refused: saving it again unchanged gives up. */
  private refused?: ApiObject;

  constructor(
    private readonly client: ApiClient,
    private readonly res: DiscoveredResource,
    private readonly name: string,
    private readonly io: CliIo,
    private readonly file: string,
    private readonly fieldValidation: WriteOptions['fieldValidation'],
  ) {}

  async run(): Promise<void> {
    this.base = await this.client.get(this.res, this.name);
    this.text = toYaml(this.base);
    for (;;) {
      const edited = await this.edit();
      if (edited.kind === 'unreadable') {
        this.reopen(edited.text, [`The edited file is not a YAML object: ${edited.error}`]);
        continue;
      }
      if (edited.kind === 'empty' || jsonEqual(edited.object, this.base)) {
        this.io.stderr('Edit cancelled, no changes made.\n');
        return;
      }
      if (this.refused && jsonEqual(edited.object, this.refused)) {
        throw new Error('Edit cancelled, no valid changes were saved.');
      }
      if (await this.settle(edited.object)) return;
    }
  }

  /** Saves an edited object; answers whether the session is over. */
  private async settle(object: ApiObject): Promise<boolean> {
    const saved = await this.save(object);
    if (saved.kind === 'saved') {
      this.io.stdout(`${this.res.plural}/${this.name} edited\n`);
      return true;
    }
    if (saved.kind === 'invalid') {
      this.refused = object;
      this.reopen(toYaml(object), [`${this.res.plural} "${this.name}" was not valid:`, ...saved.error.split('\n')]);
      return false;
    }
    // Changed on the server meanwhile: the same changes, on its latest version.
    const changes = mergePatchBetween(this.base, object);
    this.base = saved.latest;
    this.refused = undefined;
    const rebased = mergePatch(saved.latest, changes) as ApiObject;
    this.reopen(toYaml(rebased), [
      `${this.res.plural} "${this.name}" changed on the server while you edited it: your changes are applied`,
      'to its latest version below. Save to apply them, or empty the file to cancel.',
    ]);
    return false;
  }

  private reopen(text: string, notes: string[]): void {
    this.text = text;
    this.notes = notes;
  }

  private async edit(): Promise<Edited> {
    const comments = [...INSTRUCTIONS, ...(this.notes.length ? ['', ...this.notes] : []), ''];
    writeFileSync(this.file, `${comments.map((c) => `# ${c}`.trimEnd()).join('\n')}\n${this.text}`, { mode: 0o600 });
    await runEditor(this.io, this.file);
    return readEdited(readFileSync(this.file, 'utf8'));
  }

  /** A merge patch of the changes, conditional on the version they were made against. */
  private async save(object: ApiObject): Promise<Saved> {
    const patch = mergePatchBetween(this.base, object);
    patch.metadata = {
      ...((patch.metadata as object | undefined) ?? {}),
      resourceVersion: this.base.metadata?.resourceVersion,
    };
    try {
      await this.client.patch(this.res, this.name, patch, 'merge', { fieldValidation: this.fieldValidation });
      return { kind: 'saved' };
    } catch (err) {
      if (isConflict(err)) return { kind: 'conflict', latest: await this.client.get(this.res, this.name) };
      if (err instanceof ApiError && (err.code === 400 || err.code === 422)) {
        return { kind: 'invalid', error: describeApiError(err) };
      }
      throw err;
    }
  }
}

const toYaml = (object: unknown): string => yaml.dump(object, { lineWidth: -1, noRefs: true });

/** The file without its comment lines, read as YAML. */
function readEdited(content: string): Edited {
  const text = content
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n');
  if (text.trim() === '') return { kind: 'empty' };
  try {
    const object = yaml.load(text);
    if (isPlainObject(object)) return { kind: 'object', object: object as unknown as ApiObject };
    return { kind: 'unreadable', text, error: 'it holds no object' };
  } catch (err) {
    return { kind: 'unreadable', text, error: (err as Error).message.split('\n')[0] ?? '' };
  }
}
