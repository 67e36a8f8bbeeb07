import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManifestError, readPluginFolder, unmetRequirement } from './manifest';

const MANIFEST =
  'apiVersion: plugin.svc.run/v1alpha1\nkind: Plugin\nmetadata: {name: people}\nspec:\n  version: 1.0.0\n';

describe('readPluginFolder', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-plugin-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Writes files (path → content) into a new plugin folder; returns its path. */
  const folder = (files: Record<string, string>, name = 'people') => {
    const dir = join(root, name);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    return dir;
  };
  const failure = (dir: string) => {
    try {
      readPluginFolder(dir);
    } catch (err) {
      if (err instanceof ManifestError) return { file: err.file, message: err.message };
      throw err;
    }
    throw new Error('expected a ManifestError');
  };

  it('reads a minimal plugin with the defaults filled in', () => {
    const dir = folder({ 'plugin.yaml': MANIFEST });
    const manifest = readPluginFolder(dir);
    expect(manifest).toMatchObject({
      name: 'people',
      version: '1.0.0',
      requires: '*',
      enabled: true,
      settings: {},
      extensions: [],
    });
    expect(manifest.main).toBeUndefined();
    expect(manifest.spec).toEqual({ version: '1.0.0', requires: '*', enabled: true, settings: {} });
  });

  it('finds index.js and keeps settings and the other spec fields', () => {
    const dir = folder({
      'plugin.yaml': `${MANIFEST}  displayName: People\n  requires: ">=0.1.0"\n  enabled: false\n  settings: {greeting: hi}\n`,
      'index.js': 'module.exports = {};',
    });
    const manifest = readPluginFolder(dir);
    expect(manifest.main).toBe(join(dir, 'index.js'));
    expect(manifest).toMatchObject({ requires: '>=0.1.0', enabled: false, settings: { greeting: 'hi' } });
    expect(manifest.spec.displayName).toBe('People');
  });

  it('lists extension objects from YAML (several documents), YML and JSON files, and ignores other files', () => {
    const dir = folder({
      'plugin.yaml': MANIFEST,
      'extensions/roles.yaml':
        'apiVersion: v1alpha1\nkind: Role\nmetadata: {name: people-viewer}\n---\napiVersion: v1alpha1\nkind: Role\nmetadata: {name: people-editor}\n',
      'extensions/setting.yml': 'apiVersion: example.com/v1\nkind: Setting\nmetadata: {name: a}\n',
      'extensions/menu.json': '{"apiVersion": "example.com/v1", "kind": "Menu", "metadata": {"name": "m"}}',
      'extensions/README.md': '# not an object',
    });
    const names = readPluginFolder(dir).extensions.map((e) => `${e.object.kind}/${e.object.metadata.name}`);
    expect(names).toEqual(['Menu/m', 'Role/people-viewer', 'Role/people-editor', 'Setting/a']);
  });

  it('reads spec.console: the entry module and the folder served to browsers', () => {
    const dir = folder({
      'plugin.yaml': `${MANIFEST}  console: {entry: console/pages/index.js}\n`,
      'console/pages/index.js': 'export const routes = [];',
    });
    const manifest = readPluginFolder(dir);
    expect(manifest.console).toEqual({ entry: 'console/pages/index.js', folder: 'console' });
    expect(manifest.spec.console).toEqual({ entry: 'console/pages/index.js' });
    expect(readPluginFolder(folder({ 'plugin.yaml': MANIFEST }, 'plain')).console).toBeUndefined();
  });

  it.each([
    ['a console that is no mapping', 'console: console/index.js', 'spec.console must be a mapping with an entry'],
    ['an entry in the plugin folder itself', 'console: {entry: index.js}', 'in a subfolder of the plugin'],
    ['an entry leaving the folder', 'console: {entry: console/../../x.js}', 'in a subfolder of the plugin'],
    ['an entry under extensions/', 'console: {entry: extensions/a.js}', 'in a subfolder of the plugin'],
    ['an entry that is not JavaScript', 'console: {entry: console/index.html}', 'a .js or .mjs file'],
    ['a missing entry', 'console: {entry: console/missing.js}', 'console/missing.js is not a file of the plugin'],
  ])('refuses %s', (_what, line, cause) => {
    const dir = folder({ 'plugin.yaml': `${MANIFEST}  ${line}\n`, 'console/index.js': '', 'index.js': '' });
    expect(failure(dir).message).toContain(cause);
  });

  it.each([
    ['a missing plugin.yaml', {}, 'plugin.yaml', 'missing'],
    ['two documents', { 'plugin.yaml': `${MANIFEST}---\n${MANIFEST}` }, 'plugin.yaml', 'exactly one document, not 2'],
    ['invalid YAML', { 'plugin.yaml': 'spec: [' }, 'plugin.yaml', 'is not valid YAML'],
    [
      'another apiVersion',
      { 'plugin.yaml': MANIFEST.replace('plugin.svc.run/v1alpha1', 'v1') },
      'plugin.yaml',
      'apiVersion must be',
    ],
    [
      'another kind',
      { 'plugin.yaml': MANIFEST.replace('kind: Plugin', 'kind: Thing') },
      'plugin.yaml',
      'kind must be "Plugin"',
    ],
    [
      'a name that is no DNS label',
      { 'plugin.yaml': MANIFEST.replace('people', 'People_1') },
      'plugin.yaml',
      'metadata.name must be a DNS label',
    ],
    [
      'a version that is not semver',
      { 'plugin.yaml': MANIFEST.replace('1.0.0', '1.0') },
      'plugin.yaml',
      'spec.version must be a semantic version',
    ],
    [
      'a range it cannot read',
      { 'plugin.yaml': `${MANIFEST}  requires: "latest"\n` },
      'plugin.yaml',
      "spec.requires must be a version range in npm's syntax",
    ],
    [
      'a blank range',
      { 'plugin.yaml': `${MANIFEST}  requires: " "\n` },
      'plugin.yaml',
      'spec.requires must be a version range',
    ],
    [
      'a range that is no string',
      { 'plugin.yaml': `${MANIFEST}  requires: 2\n` },
      'plugin.yaml',
      'spec.requires must be a version range',
    ],
    [
      'a version with a leading zero',
      { 'plugin.yaml': MANIFEST.replace('1.0.0', '01.0.0') },
      'plugin.yaml',
      'spec.version must be a semantic version',
    ],
    [
      'enabled that is no boolean',
      { 'plugin.yaml': `${MANIFEST}  enabled: "yes"\n` },
      'plugin.yaml',
      'spec.enabled must be true or false',
    ],
    [
      'settings that are no mapping',
      { 'plugin.yaml': `${MANIFEST}  settings: [1]\n` },
      'plugin.yaml',
      'spec.settings must be a mapping',
    ],
    [
      'an extension without a name',
      {
        'plugin.yaml': MANIFEST,
        'extensions/a.yaml': 'apiVersion: v1\nkind: X\n---\napiVersion: v1\nkind: X\nmetadata: {}\n',
      },
      'extensions/a.yaml',
      'document 1: metadata.name is missing',
    ],
    [
      'an extension that is invalid JSON',
      { 'plugin.yaml': MANIFEST, 'extensions/a.json': '{' },
      'extensions/a.json',
      'is not valid JSON',
    ],
  ])('refuses %s, naming the file and the cause', (_what, files, file, cause) => {
    const dir = folder(files as Record<string, string>);
    const error = failure(dir);
    expect(error.file).toBe(join(dir, file));
    expect(error.message).toContain(`${join(dir, file)}: `);
    expect(error.message).toContain(cause);
  });

  it.each([
    ['1.x || 2.x', '2.5.0', true],
    ['1.x || 2.x', '3.0.0', false],
    ['^0.2.1', '0.2.9', true],
    ['^0.2.1', '0.3.0', false],
    ['~1.2.3', '1.3.0', false],
    ['>=1.0.0 <2.0.0', '1.5.0', true],
    ['>=0.1.0', '0.2.0-rc.1', true],
    ['^0.2.0', '0.2.0-rc.1', false],
  ])('honours requires %s on platform %s (met: %s)', (range, platform, met) => {
    const manifest = readPluginFolder(folder({ 'plugin.yaml': `${MANIFEST}  requires: "${range}"\n` }));
    expect(manifest.requires).toBe(range);
    expect(unmetRequirement(manifest, platform) === undefined).toBe(met);
  });

  it('checks spec.requires against the platform version', () => {
    const manifest = readPluginFolder(folder({ 'plugin.yaml': `${MANIFEST}  requires: ">=2.0.0"\n` }));
    expect(unmetRequirement(manifest, '0.1.0')).toBe('requires platform version >=2.0.0, this is 0.1.0');
    expect(unmetRequirement(manifest, '2.1.0')).toBeUndefined();
  });
});
