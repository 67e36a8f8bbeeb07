import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTgz } from '../../test/support/tgz';
import { ManifestError } from './manifest';
import { listPluginSources, loadPluginSource, nameFromSourcePath, unreadableSource } from './plugin-source';
import { readTgz } from './tar-reader';
import { gzipSync } from 'node:zlib';

const MANIFEST =
  'apiVersion: plugin.svc.run/v1alpha1\nkind: Plugin\nmetadata: {name: people}\nspec: {version: 1.0.0}\n';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'svc-plugin-src-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string, content: string | Buffer) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
};

describe('listPluginSources', () => {
  it('lists folders and .tgz files, not other files or hidden entries, each with a content hash', () => {
    write('b/plugin.yaml', MANIFEST);
    write('a.tgz', makeTgz([{ path: 'plugin.yaml', content: MANIFEST }]));
    write('.cache/x', '');
    write('notes.txt', '');
    const sources = listPluginSources(root);
    expect(sources.map((s) => [s.path, s.archive])).toEqual([
      [join(root, 'a.tgz'), true],
      [join(root, 'b'), false],
    ]);
    const before = sources[1].hash;
    write('b/index.js', 'module.exports = {};');
    expect(listPluginSources(root)[1].hash).not.toBe(before);
  });
});

describe('loadPluginSource', () => {
  const load = (entries: Parameters<typeof makeTgz>[0]) => {
    write('p.tgz', makeTgz(entries));
    const loaded = loadPluginSource(listPluginSources(root)[0]);
    return { ...loaded, cleanup: () => rmSync(loaded.unpackedDir!, { recursive: true, force: true }) };
  };

  it('unpacks a .tgz of the folder content, or of one top-level folder, with its code and extensions', () => {
    for (const prefix of ['', 'people/']) {
      const loaded = load([
        ...(prefix ? [{ path: prefix }] : []),
        { path: `${prefix}plugin.yaml`, content: MANIFEST },
        { path: `${prefix}index.js`, content: 'module.exports = {};' },
        {
          path: `${prefix}extensions/roles.yaml`,
          content: 'apiVersion: v1alpha1\nkind: Role\nmetadata: {name: people-x}\n',
        },
      ]);
      expect(loaded.refused).toBeUndefined();
      expect(loaded.manifest.name).toBe('people');
      expect(readFileSync(loaded.manifest.main!, 'utf8')).toBe('module.exports = {};');
      expect(loaded.manifest.extensions.map((e) => e.object.metadata.name)).toEqual(['people-x']);
      loaded.cleanup();
    }
  });

  it('refuses an archive with a symbolic link or a path leaving the folder, naming each, and unpacks no code', () => {
    const loaded = load([
      { path: 'plugin.yaml', content: MANIFEST },
      { path: 'index.js', content: 'module.exports = {};' },
      { path: 'secrets', link: '/etc/passwd' },
      { path: '../escape.js', content: 'x' },
    ]);
    expect(loaded.manifest.name).toBe('people');
    expect(loaded.manifest.main).toBeUndefined();
    expect(loaded.refused).toContain('secrets: a symbolic link is not allowed');
    expect(loaded.refused).toContain("../escape.js: the path leaves the plugin's folder");
    loaded.cleanup();
  });

  it('names the archive when it is not a gzipped tar or has no plugin.yaml', () => {
    write('bad.tgz', 'not gzip');
    expect(() => loadPluginSource(listPluginSources(root)[0])).toThrow(ManifestError);
    rmSync(join(root, 'bad.tgz'));
    write('empty.tgz', makeTgz([{ path: 'index.js', content: '' }]));
    expect(() => loadPluginSource(listPluginSources(root)[0])).toThrow(/empty\.tgz: missing/);
  });
});

describe('readTgz', () => {
  it('refuses absolute paths and keeps ./ prefixed ones', () => {
    const { entries, refused } = readTgz(
      makeTgz([
        { path: './plugin.yaml', content: 'a' },
        { path: '/etc/x', content: 'b' },
      ]),
    );
    expect(entries.map((e) => e.path)).toEqual(['plugin.yaml']);
    expect(refused).toEqual(["/etc/x: the path leaves the plugin's folder"]);
  });
});

describe('archive limits', () => {
  const MiB = 1024 * 1024;
  // A gzip bomb: a plugin archive whose gzip members go on with 320 MiB of zeros, a few hundred KiB on disk.
  const bomb = () => {
    const zeros = gzipSync(Buffer.alloc(32 * MiB));
    return Buffer.concat([makeTgz([{ path: 'plugin.yaml', content: MANIFEST }]), ...Array(10).fill(zeros)]);
  };

  it('refuses a gzip bomb as soon as it unpacks past the size limit, naming the limit', () => {
    const archive = bomb();
    expect(archive.length).toBeLessThan(MiB);
    expect(() => readTgz(archive, { maxBytes: 16 * MiB, maxEntries: 100 })).toThrow(
      'it unpacks to more than 16 MiB, the limit of an unpacked plugin archive (--plugin-archive-max-size)',
    );
    write('bomb.tgz', archive);
    expect(() => loadPluginSource(listPluginSources(root)[0], { maxBytes: 16 * MiB, maxEntries: 100 })).toThrow(
      /bomb\.tgz: is refused: it unpacks to more than 16 MiB/,
    );
  });

  it('refuses an archive with more entries than the limit, naming the limit', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ path: `f${i}.js`, content: 'x' }));
    const archive = makeTgz([{ path: 'plugin.yaml', content: MANIFEST }, ...many]);
    expect(() => readTgz(archive, { maxBytes: 16 * MiB, maxEntries: 20 })).toThrow(
      'it holds more than 20 entries, the limit of a plugin archive (--plugin-archive-max-entries)',
    );
    expect(readTgz(archive, { maxBytes: 16 * MiB, maxEntries: 31 }).entries).toHaveLength(31);
  });
});

describe('a source whose manifest cannot be read', () => {
  it('is named after its file or folder, as a DNS label', () => {
    expect(nameFromSourcePath('/srv/plugins/bomb.tgz')).toBe('bomb');
    expect(nameFromSourcePath('/srv/plugins/People_2.0.tgz')).toBe('people-2-0');
    expect(nameFromSourcePath('/srv/plugins/--x--')).toBe('x');
    expect(nameFromSourcePath(`/srv/plugins/${'a'.repeat(80)}.tgz`)).toBe('a'.repeat(63));
    expect(nameFromSourcePath('/srv/plugins/___.tgz')).toBeUndefined();
  });

  it('is a refused plugin of that name, with the reason', () => {
    const loaded = unreadableSource('/srv/plugins/bomb.tgz', 'bomb.tgz: is refused: too big');
    expect(loaded?.refused).toBe('bomb.tgz: is refused: too big');
    expect(loaded?.manifest).toMatchObject({ name: 'bomb', version: 'unknown', spec: { version: 'unknown' } });
    expect(unreadableSource('/srv/plugins/___.tgz', 'x')).toBeUndefined();
  });
});
