import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import semver from 'semver';
import { isDns1123Name } from '../api/validation/dns';
import { readConsoleEntry, type PluginConsole } from './console-entry';
import { isPlainObject } from '../api/plain-object';

/** The API group and version of `plugin.yaml` and of the `Plugin` kind. */
export const PLUGIN_API_VERSION = 'plugin.svc.run/v1alpha1';

/** An object a plugin declares under `extensions/`, with the file it came from. */
export interface ExtensionObject {
  file: string;
  object: { apiVersion: string; kind: string; metadata: { name: string } & Record<string, unknown> } & Record<
    string,
    unknown
  >;
}

/** A plugin folder, read and checked: its `plugin.yaml` with defaults applied, its code and its extension objects. */
export interface PluginManifest {
  dir: string;
  name: string;
  version: string;
  /** A semver range of the platform version; `*` by default. */
  requires: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  /** `plugin.yaml`'s `spec` with the defaults filled in, as the `Plugin` object carries it. */
  spec: Record<string, unknown>;
  /** The absolute path of `index.js`, when the plugin has code. */
  main?: string;
  extensions: ExtensionObject[];
  /** Its console pages (`spec.console`), when it ships some. */
  console?: PluginConsole;
  /** A module of the platform itself (pkg/plugin/builtin.ts): it may serve the platform's groups. */
  builtin?: boolean;
}

/**
 * How versions and ranges are read: npm's range grammar, parsed strictly (`loose: false`, so `1.0` or
 * `01.2.3` is no version). A pre-release of the platform counts by its place in the order
 * (`includePrerelease`): 0.2.0-rc.1 satisfies `>=0.1.0`, which npm's default would refuse, and a plugin
 * could never run on a pre-release build.
 */
const VERSION_OPTIONS = { loose: false, includePrerelease: true } as const;

/** A plugin folder that cannot be read: names the file and what is wrong with it. */
export class ManifestError extends Error {
  override readonly name = 'ManifestError';

  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/**
 * Reads one plugin folder (docs/plugins.md): `plugin.yaml` (exactly one document,
 * `apiVersion: plugin.svc.run/v1alpha1`, `kind: Plugin`, a DNS-label name, a
 * semver `spec.version`, an optional `spec.requires` range), the optional
 * `index.js`, every `extensions/*.yaml|yml|json` (YAML may hold several
 * documents) and the console module `spec.console.entry` names. Throws a ManifestError naming the file and the cause.
 */
export function readPluginFolder(dir: string): PluginManifest {
  const file = join(dir, 'plugin.yaml');
  const doc = readManifestDocument(file);
  const name = nameOf(file, doc);
  const spec = isPlainObject(doc.spec) ? doc.spec : undefined;
  if (!spec) throw new ManifestError(file, 'spec must be a mapping');
  const { version, requires, enabled, settings } = checkedSpec(file, spec);
  const main = join(dir, 'index.js');
  return {
    dir,
    name,
    version,
    requires,
    enabled,
    settings,
    spec: { ...spec, requires, enabled, settings },
    main: existsSync(main) ? main : undefined,
    extensions: readExtensions(join(dir, 'extensions')),
    console: readConsoleEntry(file, dir, spec.console),
  };
}

/** `plugin.yaml`'s one document, a mapping with the Plugin's apiVersion and kind. */
function readManifestDocument(file: string): Record<string, unknown> {
  if (!existsSync(file)) throw new ManifestError(file, 'missing: every plugin folder needs a plugin.yaml');
  const docs = loadYaml(file);
  if (docs.length !== 1) throw new ManifestError(file, `must hold exactly one document, not ${docs.length}`);
  const doc = docs[0];
  if (!isPlainObject(doc)) throw new ManifestError(file, 'must be a mapping');
  if (doc.apiVersion !== PLUGIN_API_VERSION)
    throw new ManifestError(file, `apiVersion must be "${PLUGIN_API_VERSION}"`);
  if (doc.kind !== 'Plugin') throw new ManifestError(file, 'kind must be "Plugin"');
  return doc;
}

function nameOf(file: string, doc: Record<string, unknown>): string {
  const name = isPlainObject(doc.metadata) ? doc.metadata.name : undefined;
  if (typeof name !== 'string' || !isDns1123Name(name) || name.length > 63) {
    throw new ManifestError(
      file,
      'metadata.name must be a DNS label (lowercase letters, digits and "-"), e.g. "people"',
    );
  }
  return name;
}

function checkedSpec(file: string, spec: Record<string, unknown>) {
  if (typeof spec.version !== 'string' || !semver.valid(spec.version, VERSION_OPTIONS)) {
    throw new ManifestError(
      file,
      `spec.version must be a semantic version such as 1.0.0, not ${JSON.stringify(spec.version)}`,
    );
  }
  const requires = checkedRange(file, spec.requires ?? '*');
  const enabled = spec.enabled ?? true;
  if (typeof enabled !== 'boolean') throw new ManifestError(file, 'spec.enabled must be true or false');
  const settings = spec.settings ?? {};
  if (!isPlainObject(settings)) throw new ManifestError(file, 'spec.settings must be a mapping');
  return { version: spec.version, requires, enabled, settings };
}

/** `spec.requires`: a range in npm's syntax. */
function checkedRange(file: string, requires: unknown): string {
  // npm reads a blank range as `*`; here it is more likely a slip, and leaving the field out already means any.
  if (typeof requires !== 'string' || !requires.trim() || !semver.validRange(requires, VERSION_OPTIONS)) {
    throw new ManifestError(
      file,
      `spec.requires must be a version range in npm's syntax (e.g. *, 1.2.3, >=1.2.3 <2.0.0, ^1.2.3, ~1.2.3, 1.x || 2.x), not ${JSON.stringify(requires)}`,
    );
  }
  return requires;
}

/** Why the platform at `platformVersion` cannot run the plugin, or undefined when `spec.requires` holds. */
export function unmetRequirement(manifest: PluginManifest, platformVersion: string): string | undefined {
  if (semver.satisfies(platformVersion, manifest.requires, VERSION_OPTIONS)) return undefined;
  return `requires platform version ${manifest.requires}, this is ${platformVersion}`;
}

function readExtensions(dir: string): ExtensionObject[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const objects: ExtensionObject[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const file = join(dir, entry);
    if (!/\.(ya?ml|json)$/.test(entry) || !statSync(file).isFile()) continue;
    const docs = entry.endsWith('.json') ? [parseJson(file)] : loadYaml(file);
    docs.forEach((object, i) =>
      objects.push({ file, object: checkExtension(file, object, docs.length > 1 ? i + 1 : 0) }),
    );
  }
  return objects;
}

function checkExtension(file: string, object: unknown, documentNumber: number): ExtensionObject['object'] {
  const where = documentNumber ? `document ${documentNumber}: ` : '';
  if (!isPlainObject(object)) throw new ManifestError(file, `${where}must be an object`);
  if (typeof object.apiVersion !== 'string' || !object.apiVersion)
    throw new ManifestError(file, `${where}apiVersion is missing`);
  if (typeof object.kind !== 'string' || !object.kind) throw new ManifestError(file, `${where}kind is missing`);
  if (!isPlainObject(object.metadata) || typeof object.metadata.name !== 'string' || !object.metadata.name) {
    throw new ManifestError(file, `${where}metadata.name is missing`);
  }
  return object as ExtensionObject['object'];
}

/** Every non-empty document, read with YAML 1.2's core schema (`yes` stays a string). */
function loadYaml(file: string): unknown[] {
  try {
    return yaml
      .loadAll(readFileSync(file, 'utf8'), undefined, { schema: yaml.CORE_SCHEMA })
      .filter((d) => d !== null && d !== undefined);
  } catch (err) {
    throw new ManifestError(file, `is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
}

function parseJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (err) {
    throw new ManifestError(file, `is not valid JSON: ${(err as Error).message}`);
  }
}
