import { initialStatusOf } from './model';

describe('initialStatusOf', () => {
  it('is a copy of the default the schema gives status, or undefined without one', () => {
    const schema = { type: 'object', properties: { status: { type: 'object', default: { phase: 'New' } } } };
    const first = initialStatusOf({ schema }) as { phase: string };
    expect(first).toEqual({ phase: 'New' });
    first.phase = 'Changed';
    expect(initialStatusOf({ schema })).toEqual({ phase: 'New' });
    expect(initialStatusOf({ schema: { type: 'object', properties: { status: { type: 'object' } } } })).toBeUndefined();
    expect(initialStatusOf({})).toBeUndefined();
  });
});
