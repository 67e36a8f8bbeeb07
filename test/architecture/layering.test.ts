import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

// The rooms of the house and what each may not import (imports point down): the HTTP layer knows no plugin, the
// plugin wing sits below the composition root (pkg/server), and neither reaches up to the programs in cmd/.
const ROOT = resolve(__dirname, '..', '..');
const FORBIDDEN: Record<string, string[]> = {
  'pkg/api': ['pkg/apiserver', 'pkg/auth', 'pkg/plugin', 'pkg/registry', 'pkg/server', 'pkg/storage', 'cmd'],
  'pkg/apiserver': ['pkg/plugin', 'pkg/server', 'cmd'],
  'pkg/plugin': ['pkg/server', 'cmd'],
  'pkg/auth': ['pkg/apiserver', 'pkg/plugin', 'pkg/server', 'pkg/storage/redis', 'pkg/storage/file', 'cmd'],
  'pkg/storage': ['pkg/apiserver', 'pkg/auth', 'pkg/plugin', 'pkg/registry', 'pkg/server', 'cmd'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The repository-relative targets of a file's relative imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const targets = [...text.matchAll(/from '(\.[^']+)'/g)].map((m) => m[1]);
  return targets.map((target) => relative(ROOT, resolve(file, '..', target)));
}

describe('imports point down', () => {
  it.each(Object.entries(FORBIDDEN))('%s imports none of the rooms above it', (room, above) => {
    const upward = sourceFiles(join(ROOT, room)).flatMap((file) =>
      importsOf(file)
        .filter((target) => above.some((a) => target === a || target.startsWith(`${a}/`)))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(upward).toEqual([]);
  });
});
