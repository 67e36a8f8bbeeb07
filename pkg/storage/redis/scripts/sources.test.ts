import { readdirSync } from 'node:fs';
import { CREATION_INDEX, NAME_INDEX } from '../../indexes';
import { readLua } from './lua-files';
import { luaLibraries, scriptSources } from './sources';

const LAYOUTS = ['plain', 'bucketed'] as const;

describe('the Redis scripts read from .lua files', () => {
  it.each(LAYOUTS)('composes each %s script as the libraries in order, then the script', (layout) => {
    const sources = scriptSources(layout);
    const libraries = luaLibraries(layout);
    const order = [readLua('bytes'), readLua(`index-sets-${layout}`), readLua('helpers')].map((text) =>
      libraries.indexOf(text),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(sources.svcWrite).toBe(`${libraries}\n${readLua('write')}`);
    expect(sources.svcList).toBe(`${libraries}\n${readLua('list')}`);
    expect(sources.svcFinishBuild).toBe(readLua('finish-build'));
  });

  it('gives the plain layout none of the bucketed functions, and define-indexes those of both', () => {
    expect(scriptSources('plain').svcWrite).not.toContain('BUCKET_MAX');
    expect(scriptSources('bucketed').svcWrite).toContain('BUCKET_MAX');
    expect(scriptSources('plain').svcDefineIndexes).toContain('BUCKET_MAX');
  });

  it('names the default indexes as ../../indexes.ts defines them', () => {
    const libraries = luaLibraries('plain');
    expect(libraries).toContain(`'${NAME_INDEX}'`);
    expect(libraries).toContain(`'${CREATION_INDEX}'`);
  });

  it('uses every .lua file of the folder, and the files hold Lua, not TypeScript placeholders', () => {
    const files = readdirSync(__dirname).filter((f) => f.endsWith('.lua'));
    const used = [...Object.values(scriptSources('plain')), ...Object.values(scriptSources('bucketed'))].join('\n');
    for (const file of files) {
      const text = readLua(file.replace(/\.lua$/, ''));
      expect(used).toContain(text);
      expect(text).not.toMatch(/\$\{/);
    }
    expect(files.sort()).toEqual([
      'build-batch.lua',
      'bytes.lua',
      'define-indexes.lua',
      'delete.lua',
      'finish-build.lua',
      'helpers.lua',
      'index-sets-bucketed.lua',
      'index-sets-plain.lua',
      'list.lua',
      'write.lua',
    ]);
  });
});
