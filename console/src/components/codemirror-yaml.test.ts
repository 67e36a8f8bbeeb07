import { describe, expect, it } from 'vitest';
import { yamlDiagnostics } from './codemirror-yaml';

describe('yamlDiagnostics', () => {
  it('marks nothing in valid YAML', () => {
    expect(yamlDiagnostics('a: 1\nb: [x, y]\n')).toEqual([]);
  });

  it("marks js-yaml's error where it is, with its reason", () => {
    const text = 'a: 1\nb: [x, y\nc: 2\n';
    const [diagnostic, ...more] = yamlDiagnostics(text);
    expect(more).toEqual([]);
    expect(diagnostic.severity).toBe('error');
    expect(diagnostic.from).toBeGreaterThan(text.indexOf('b:'));
    expect(diagnostic.message).toMatch(/\w/);
  });
});
