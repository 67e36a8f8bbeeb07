import { fireEvent, render, screen } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { resolver, type Schema } from '../api/openapi';
import { SchemaForm } from './schema-form';

// The form generated from a model's schema edits an existing object whole: plain fields, nested objects (also
// one holding its own kind) and lists; the server's causes land on their fields, nested ones too.

const PERSON = '#/components/schemas/com.example.v1alpha1.Person';
const schemas: Record<string, Schema> = {
  'com.example.v1alpha1.Person': {
    type: 'object',
    properties: {
      metadata: { allOf: [{ $ref: '#/components/schemas/ObjectMeta' }] },
      spec: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          age: { type: 'integer' },
          gender: { type: 'string', enum: ['MALE', 'FEMALE'] },
          tags: { type: 'array', items: { type: 'string' } },
          otherPerson: { $ref: PERSON },
        },
      },
    },
  },
  ObjectMeta: { type: 'object', properties: { name: { type: 'string' } } },
};
const schema = { object: schemas['com.example.v1alpha1.Person'], resolve: resolver(schemas) };
const ada = {
  apiVersion: 'example.com/v1alpha1',
  kind: 'Person',
  metadata: { name: 'ada', resourceVersion: '7' },
  spec: { name: 'Ada', age: 36, tags: ['math'] },
};

function edit(causes = [] as { field: string; message: string }[]) {
  const onSubmit = vi.fn();
  render(
    <SchemaForm
      schema={schema}
      initial={ada}
      creating={false}
      causes={causes}
      busy={false}
      submitLabel="Save"
      onSubmit={onSubmit}
    />,
  );
  return onSubmit;
}

const input = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

describe('the schema form over an existing object', () => {
  it('shows its values and saves it whole, with nested objects and list items added and removed', () => {
    const onSubmit = edit();
    expect(input('spec.name').value).toBe('Ada');
    expect((screen.getByRole('spinbutton', { name: 'spec.age' }) as HTMLInputElement).value).toBe('36');
    expect(input('spec.tags[0]').value).toBe('math');
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();

    fireEvent.input(screen.getByRole('spinbutton', { name: 'spec.age' }), { target: { value: '37' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add to spec.tags' }));
    fireEvent.input(input('spec.tags[1]'), { target: { value: 'logic' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove spec.tags[0]' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add spec.otherPerson' }));
    // The nested Person is drawn from the same schema; its own otherPerson is only a button, never drawn ahead.
    fireEvent.click(screen.getByRole('button', { name: 'Add spec.otherPerson.spec' }));
    fireEvent.input(input('spec.otherPerson.spec.name'), { target: { value: 'Charles' } });
    expect(screen.getByRole('button', { name: 'Add spec.otherPerson.spec.otherPerson' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(onSubmit).toHaveBeenCalledWith({
      ...ada,
      spec: { name: 'Ada', age: 37, tags: ['logic'], otherPerson: { spec: { name: 'Charles' } } },
    });
  });

  it("shows the server's causes on their fields, nested ones and list items too", () => {
    edit([
      { field: 'spec.age', message: 'must be at most 150' },
      { field: 'spec.tags[0]', message: 'too short' },
    ]);
    expect(input('spec.tags[0]').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('too short')).toBeTruthy();
    expect(screen.getByRole('spinbutton', { name: 'spec.age' }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('must be at most 150')).toBeTruthy();
  });
});
