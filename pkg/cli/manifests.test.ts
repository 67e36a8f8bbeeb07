import { parseManifest } from './manifests';

describe('parseManifest', () => {
  it('numbers the documents of a multi-document file from 1, skipping empty ones', () => {
    const docs = parseManifest('f.yaml', '---\nkind: A\n---\n---\nkind: B\n');
    expect(docs.map((d) => [d.index, d.object?.kind])).toEqual([
      [1, 'A'],
      [2, 'B'],
    ]);
  });

  it('reads JSON, and keeps yes a string (YAML 1.2 core schema)', () => {
    expect(parseManifest('f.json', '{"kind": "A", "metadata": {"labels": {"x": "y"}}}')[0]?.object?.kind).toBe('A');
    expect(parseManifest('f.yaml', 'kind: A\nspec: {flag: yes}')[0]?.object).toEqual({
      kind: 'A',
      spec: { flag: 'yes' },
    });
  });

  it('reports a file that is not YAML, or a document that is not an object', () => {
    expect(parseManifest('bad.yaml', 'a: [')[0]).toMatchObject({
      file: 'bad.yaml',
      index: 1,
      error: expect.stringContaining('not valid YAML'),
    });
    expect(parseManifest('list.yaml', '- 1\n- 2')[0]).toMatchObject({ index: 1, error: 'not an object' });
  });
});
