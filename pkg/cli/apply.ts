import type { Command } from 'commander';
import type { ApiObject } from '../api/object';
import { isNotFound, type ApiClient, type DiscoveredResource, type WriteOptions } from '../client';
import { jsonEqual } from '../util/json-equal';
import { connect, type ConnectionFlags } from './connection';
import { describeFailure, ReportedFailure, UsageError } from './errors';
import type { CliIo } from './io';
import { readManifests, type ManifestDocument } from './manifests';
import { ProgressBar } from './progress';
import { Discovery, resourceOfKind } from './resources';
import { fieldValidationOf, validateOption } from './validate';

const MODEL_API_VERSION = 'apiextensions.svc.run/v1alpha1';
/** How long apply waits for a just-applied Model's kind to appear in discovery. */
const NEW_KIND_TIMEOUT_MS = 30_000;
const POLL_MS = 200;

interface ApplyFlags {
  filename: string[];
  recursive?: boolean;
  dryRun?: string;
  prune?: boolean;
  selector?: string;
  validate?: string;
}

/** `svcctl apply -f PATH [-f PATH…] [-R] [--dry-run=server] [--prune -l SELECTOR] [--validate=strict|warn|ignore]`. */
export function registerApply(program: Command, io: CliIo): void {
  program
    .command('apply')
    .description('Creates or updates the objects of manifest files (YAML, multi-document, or JSON)')
    .requiredOption(
      '-f, --filename <path>',
      'a file, a folder of .yaml/.yml/.json files, or - for stdin (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('-R, --recursive', "read the folders' sub-folders too")
    .option('--dry-run <mode>', '"server": the server validates and answers, nothing is stored')
    .option('--prune', 'then delete the objects of the applied kinds that match -l and are not in the files')
    .option('-l, --selector <selector>', 'with --prune: the label selector of the objects the files manage')
    .addOption(validateOption())
    .addHelpText(
      'after',
      `
Models are applied before objects of their kinds, roles before role bindings. Each object prints
<plural>/<name> created|configured|unchanged. A failing document is reported on stderr (file and index);
the others are still applied, and the exit status is 1. With --prune -l SELECTOR, objects of the applied
kinds that match the selector but are no longer in the files are deleted: <plural>/<name> pruned.
With --validate=strict (the default), a document with a field its schema does not know fails, naming the
field; --validate=warn stores it without the field and prints a warning, --validate=ignore drops it silently.

Examples:
  svcctl apply -f manifests/examples/person-model.yaml -f manifests/examples/person.yaml
  svcctl apply -R -f manifests/ --dry-run=server
  svcctl apply -f legacy.yaml --validate=warn
  svcctl apply -R -f manifests/people/ --prune -l app=people`,
    )
    .action(async (flags: ApplyFlags, command: Command) => {
      checkApplyFlags(flags);
      const fieldValidation = fieldValidationOf(flags.validate);
      const documents = await readManifests(flags.filename, flags.recursive === true, io);
      if (documents.length === 0)
        throw new UsageError('no objects passed to apply (the paths hold no .yaml, .yml or .json document)');
      const client = connect(command.optsWithGlobals<ConnectionFlags>(), io);
      const dryRun = flags.dryRun === 'server';
      const applier = new Applier(client, new Discovery(client), { dryRun, fieldValidation });
      let failed = !(await applyAll(applier, documents, io));
      if (flags.prune && !(await prune(client, applier, flags.selector ?? '', dryRun, io))) failed = true;
      if (failed) throw new ReportedFailure('some documents failed');
    });
}

/** Documents from this many on show a progress bar on stderr, when stderr is a terminal. */
export const PROGRESS_MIN_DOCUMENTS = 10;

function checkApplyFlags(flags: ApplyFlags): void {
  if (flags.dryRun !== undefined && flags.dryRun !== 'server') {
    throw new UsageError(`--dry-run=${flags.dryRun}: only --dry-run=server is supported`);
  }
  if (flags.prune && !flags.selector) throw new UsageError('--prune needs -l SELECTOR: the objects the files manage');
  if (flags.selector && !flags.prune)
    throw new UsageError('-l SELECTOR selects what --prune deletes: give --prune too');
}

/** Applies every document in rank order, one line each; answers whether all succeeded. */
async function applyAll(applier: Applier, documents: ManifestDocument[], io: CliIo): Promise<boolean> {
  const ordered = [...documents].sort((a, b) => rank(a) - rank(b));
  const bar =
    io.stderrIsTTY && ordered.length >= PROGRESS_MIN_DOCUMENTS ? new ProgressBar(io.stderr, ordered.length) : undefined;
  let ok = true;
  for (const [i, document] of ordered.entries()) {
    bar?.update(i, documentLabel(document));
    const line = await applyOne(applier, document);
    bar?.clear();
    if (line.ok) io.stdout(`${line.text}\n`);
    else io.stderr(`${line.text}\n`);
    ok &&= line.ok;
  }
  bar?.update(ordered.length);
  bar?.clear();
  return ok;
}

/** One document's line: its outcome, or the error naming its file and index. */
async function applyOne(applier: Applier, document: ManifestDocument): Promise<{ ok: boolean; text: string }> {
  try {
    return { ok: true, text: await applier.apply(document) };
  } catch (err) {
    const text = describeFailure(err).text.replace(/^error: /, '');
    return { ok: false, text: `error: ${document.file} document ${document.index}${documentName(document)}: ${text}` };
  }
}

const documentName = (document: ManifestDocument): string =>
  document.object?.metadata?.name ? ` (${document.object.kind ?? '?'} ${document.object.metadata.name})` : '';

const documentLabel = (document: ManifestDocument): string =>
  `${document.object?.kind ?? ''} ${document.object?.metadata?.name ?? ''}`.trim();

/** Models first, then roles, then everything else (role bindings included): a stable order. */
function rank(document: ManifestDocument): number {
  const o = document.object;
  if (o?.apiVersion === MODEL_API_VERSION && o.kind === 'Model') return 0;
  if (o?.kind === 'Role' && !o.apiVersion?.includes('/')) return 1;
  return 2;
}

/**
 * Deletes the objects of the applied kinds that match the selector and are not
 * in the files (on a dry run, only names them); answers whether all went well.
 */
async function prune(
  client: ApiClient,
  applier: Applier,
  selector: string,
  dryRun: boolean,
  io: CliIo,
): Promise<boolean> {
  if (applier.unnamed) {
    io.stderr('error: not pruning: some documents do not name their object (fix them first)\n');
    return false;
  }
  const suffix = dryRun ? ' (server dry run)' : '';
  let ok = true;
  for (const { res, names } of applier.appliedKinds()) {
    try {
      const found = await client.list(res, { labelSelector: selector });
      for (const name of found.items.map((o) => o.metadata?.name ?? '').filter((n) => n && !names.has(n))) {
        if (!dryRun) await deleteUnlessGone(client, res, name);
        io.stdout(`${res.plural}/${name} pruned${suffix}\n`);
      }
    } catch (err) {
      ok = false;
      io.stderr(`error: pruning ${res.plural}: ${describeFailure(err).text.replace(/^error: /, '')}\n`);
    }
  }
  return ok;
}

async function deleteUnlessGone(client: ApiClient, res: DiscoveredResource, name: string): Promise<void> {
  try {
    await client.delete(res, name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

class Applier {
  private appliedModel = false;
  /** Whether a document could not be read far enough to name its object: pruning then could delete it. */
  unnamed = false;
  /** The names the files hold, by resource type (keyed by group, version and plural). */
  private readonly named = new Map<string, { res: DiscoveredResource; names: Set<string> }>();

  /** The resource types the files named, each with the names of its objects in the files (failed ones included). */
  appliedKinds(): { res: DiscoveredResource; names: Set<string> }[] {
    return [...this.named.values()];
  }

  constructor(
    private readonly client: ApiClient,
    private readonly discovery: Discovery,
    private readonly options: { dryRun: boolean; fieldValidation: WriteOptions['fieldValidation'] },
  ) {}

  private get dryRun(): boolean {
    return this.options.dryRun;
  }

  /** Applies one document; answers its line, e.g. `persons/ada created`. */
  async apply(document: ManifestDocument): Promise<string> {
    const { object, apiVersion, kind, name } = this.identify(document);
    const res = await this.resourceOf(apiVersion, kind);
    this.remember(res, name);
    const outcome = await this.createOrUpdate(res, object, name);
    if (isModel(res, kind) && outcome !== 'unchanged' && !this.dryRun) this.appliedModel = true;
    return `${res.plural}/${name} ${outcome}${this.dryRun ? ' (server dry run)' : ''}`;
  }

  /** The document's object and what names it; throws saying what is missing (and remembers it, for prune). */
  private identify(document: ManifestDocument): Identified {
    const found = identified(document.object);
    if (found) return found;
    this.unnamed = true;
    throw new Error(missingPart(document));
  }

  private async createOrUpdate(
    res: DiscoveredResource,
    object: ApiObject,
    name: string,
  ): Promise<'created' | 'configured' | 'unchanged'> {
    let existing: ApiObject;
    try {
      existing = await this.client.get(res, name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.client.create(res, object, this.options);
      return 'created';
    }
    const desired = updateOf(existing, object);
    const { fieldValidation } = this.options;
    const preview = await this.client.update(res, desired, { dryRun: true, fieldValidation });
    if (sameContent(existing, preview)) return 'unchanged';
    if (!this.dryRun) await this.client.update(res, desired, { fieldValidation });
    return 'configured';
  }

  private remember(res: DiscoveredResource, name: string): void {
    const key = `${res.group}/${res.version}/${res.plural}`;
    const entry = this.named.get(key) ?? { res, names: new Set<string>() };
    entry.names.add(name);
    this.named.set(key, entry);
  }

  /** The resource of a kind; after a Model was applied, waits for a kind that is not served yet. */
  private async resourceOf(apiVersion: string, kind: string): Promise<DiscoveredResource> {
    const deadline = Date.now() + NEW_KIND_TIMEOUT_MS;
    let refresh = false;
    for (;;) {
      const found = resourceOfKind(await this.discovery.all(refresh), apiVersion, kind);
      if (found) return found;
      if (!this.appliedModel || Date.now() >= deadline) {
        throw new Error(`the server does not serve kind "${kind}" in "${apiVersion}"`);
      }
      refresh = true;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/** A document's object with the fields that name it. */
interface Identified {
  object: ApiObject;
  apiVersion: string;
  kind: string;
  name: string;
}

function identified(object: ApiObject | undefined): Identified | undefined {
  const name = object?.metadata?.name;
  if (!object?.apiVersion || !object.kind || !name) return undefined;
  return { object, apiVersion: object.apiVersion, kind: object.kind, name };
}

/** Why a document names no object: it could not be read, or it lacks its type or its name. */
function missingPart(document: ManifestDocument): string {
  const object = document.object;
  if (document.error || !object) return document.error ?? 'empty document';
  return !object.apiVersion || !object.kind
    ? 'the document needs apiVersion and kind'
    : 'the document needs metadata.name';
}

const isModel = (res: DiscoveredResource, kind: string): boolean =>
  res.group === 'apiextensions.svc.run' && kind === 'Model';

/**
 * The object to PUT: the manifest, with the server's metadata kept. Labels and
 * annotations are merged (the manifest's win; ones that others added stay),
 * finalizers and owners kept when the manifest names none.
 */
function updateOf(existing: ApiObject, manifest: ApiObject): ApiObject {
  const had = existing.metadata ?? {};
  const wants = manifest.metadata ?? {};
  const metadata: Record<string, unknown> = { ...had, ...wants, resourceVersion: had.resourceVersion };
  metadata.labels = { ...(had.labels ?? {}), ...(wants.labels ?? {}) };
  metadata.annotations = { ...(had.annotations ?? {}), ...(wants.annotations ?? {}) };
  return { ...manifest, metadata } as ApiObject;
}

/** Whether an update would change nothing a user wrote: every top-level field but status, and the metadata they set. */
function sameContent(before: ApiObject, after: ApiObject): boolean {
  const keys = new Set(
    [...Object.keys(before), ...Object.keys(after)].filter((k) => k !== 'metadata' && k !== 'status'),
  );
  for (const key of keys) {
    if (!jsonEqual((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key])) return false;
  }
  const b = (before.metadata ?? {}) as Record<string, unknown>;
  const a = (after.metadata ?? {}) as Record<string, unknown>;
  return (['labels', 'annotations', 'finalizers', 'ownerReferences'] as const).every((field) =>
    jsonEqual(b[field] ?? emptyOf(field), a[field] ?? emptyOf(field)),
  );
}

const emptyOf = (field: string): unknown => (field === 'labels' || field === 'annotations' ? {} : []);
