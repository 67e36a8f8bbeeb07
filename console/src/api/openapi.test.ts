import { describe, expect, it } from 'vitest';
import { formFields, typedValue } from './openapi';

const person = {
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', description: 'Full name' },
        age: { type: 'integer' },
        gender: { type: 'string', enum: ['MALE', 'FEMALE'] },
        tags: { type: 'array' },
        otherPerson: { type: 'object' },
        retired: { type: 'boolean' },
      },
    },
  },
};

describe('formFields', () => {
  it("lists the spec's primitive fields, with their path, type, choices and whether required", () => {
    expect(formFields(person)).toEqual([
      { path: 'spec.name', type: 'string', enum: undefined, required: true, description: 'Full name' },
      { path: 'spec.age', type: 'integer', enum: undefined, required: false, description: undefined },
      { path: 'spec.gender', type: 'string', enum: ['MALE', 'FEMALE'], required: false, description: undefined },
      { path: 'spec.retired', type: 'boolean', enum: undefined, required: false, description: undefined },
    ]);
  });

  it('has no fields for a schema without a spec', () => {
    expect(formFields(undefined)).toEqual([]);
    expect(formFields({ properties: {} })).toEqual([]);
  });
});

describe('typedValue', () => {
  it('types values as the schema says, and leaves empty ones out', () => {
    const field = (type: 'string' | 'integer' | 'boolean') => ({ path: 'spec.x', type, required: false });
    expect(typedValue(field('integer'), '-1')).toBe(-1);
    expect(typedValue(field('boolean'), 'true')).toBe(true);
    expect(typedValue(field('string'), '12')).toBe('12');
    expect(typedValue(field('string'), '')).toBeUndefined();
  });
});
