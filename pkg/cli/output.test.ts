import yaml from 'js-yaml';
import { fallbackTable, listOf, parseOutput, renderDocument, renderTable } from './output';

const ada = {
  apiVersion: 'example.com/v1alpha1',
  kind: 'Person',
  metadata: { name: 'ada' },
  spec: { name: 'Ada', tags: ['a', 'b'] },
};
const bob = { apiVersion: 'example.com/v1alpha1', kind: 'Person', metadata: { name: 'bob' }, spec: { name: 'Bob' } };

describe('output formats', () => {
  it('parses -o and refuses unknown formats', () => {
    expect(parseOutput(undefined)).toEqual({ kind: 'table' });
    expect(parseOutput('jsonpath={.metadata.name}')).toMatchObject({
      kind: 'jsonpath',
      template: { source: '{.metadata.name}' },
    });
    expect(() => parseOutput('xml')).toThrow('unknown output format "xml"');
    expect(() => parseOutput('jsonpath={..name}')).toThrow('recursive descent (..) is not supported');
  });

  it('renders a Table with upper-case headers, aligned columns, <none> for nulls, wide columns only with wide', () => {
    const table = {
      kind: 'Table' as const,
      columnDefinitions: [{ name: 'Name' }, { name: 'Full Name' }, { name: 'Extra', priority: 1 }],
      rows: [{ cells: ['ada', 'Ada Lovelace', 'x'] }, { cells: ['charles', null, 'y'] }],
    };
    expect(renderTable(table, false)).toBe('NAME      FULL NAME\nada       Ada Lovelace\ncharles   <none>\n');
    expect(renderTable(table, true)).toBe(
      'NAME      FULL NAME      EXTRA\nada       Ada Lovelace   x\ncharles   <none>         y\n',
    );
  });

  it('makes a NAME/AGE table of plain objects', () => {
    const now = Date.parse('2026-01-01T01:00:00Z');
    const table = fallbackTable(
      [{ ...ada, metadata: { name: 'ada', creationTimestamp: '2026-01-01T00:00:00Z' } }],
      now,
    );
    expect(renderTable(table, false)).toBe('NAME   AGE\nada    60m\n');
  });

  it('prints json and yaml documents, several objects as one v1 List', () => {
    expect(JSON.parse(renderDocument(listOf([ada, bob]), { kind: 'json' }))).toMatchObject({
      apiVersion: 'v1',
      kind: 'List',
      items: [ada, bob],
    });
    expect(yaml.load(renderDocument(ada, { kind: 'yaml' }))).toEqual(ada);
    expect(renderDocument(ada, parseOutput('jsonpath={.spec.name}'))).toBe('Ada');
  });
});
