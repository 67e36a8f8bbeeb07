import { join } from 'node:path';
import { builtinPluginManifests } from './builtin';

describe('builtinPluginManifests', () => {
  it("finds the content module under modules/, marked built-in, its code the sources' index.ts when run from sources", () => {
    const content = builtinPluginManifests().find((m) => m.name === 'content');
    const dir = join(__dirname, '..', '..', 'modules', 'content');
    expect(content).toMatchObject({ dir, builtin: true, enabled: true, main: join(dir, 'index.ts') });
    expect(content?.extensions.map((e) => e.object.metadata.name)).toEqual(['content-public-reader']);
  });
});
