import { UsageError } from './errors';
import { explainSchema, type Schema } from './explain';

const schemas: Record<string, Schema> = {
  Meta: {
    type: 'object',
    description: 'Standard object metadata',
    properties: { name: { type: 'string', description: 'The name' } },
  },
  Person: {
    type: 'object',
    required: ['spec'],
    properties: {
      metadata: { allOf: [{ $ref: '#/components/schemas/Meta' }] },
      spec: {
        type: 'object',
        description: 'What you want',
        properties: { friends: { type: 'array', items: { $ref: '#/components/schemas/Person' } } },
      },
    },
  },
};
const what = { kind: 'Person', apiVersion: 'example.com/v1alpha1' };

describe('explainSchema', () => {
  it('lists the fields of the type, required ones marked, with their descriptions', () => {
    expect(explainSchema(schemas.Person ?? {}, schemas, [], what)).toBe(
      [
        'KIND:     Person',
        'VERSION:  example.com/v1alpha1',
        '',
        'DESCRIPTION:',
        '  <empty>',
        '',
        'FIELDS:',
        '  metadata\t<object>',
        '    Standard object metadata',
        '  spec\t<object> -required-',
        '    What you want',
        '',
      ].join('\n'),
    );
  });

  it('follows references and array items along a field path', () => {
    const text = explainSchema(schemas.Person ?? {}, schemas, ['spec', 'friends', 'metadata', 'name'], what);
    expect(text).toContain('FIELD: name <string>\n\nDESCRIPTION:\n  The name\n');
    expect(explainSchema(schemas.Person ?? {}, schemas, ['spec', 'friends'], what)).toContain(
      'FIELD: friends <[]object>',
    );
  });

  it('names a field that does not exist, as an error of the server (exit 1, as kubectl), not a usage error', () => {
    const explain = () => explainSchema(schemas.Person ?? {}, schemas, ['spec', 'nope'], what);
    expect(explain).toThrow('field "nope" does not exist in Person.spec');
    expect(explain).not.toThrow(UsageError);
  });
});
