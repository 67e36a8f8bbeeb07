import { invalid } from '../errors';
import { validateMetadataUpdate, validateObjectMeta } from './object-meta';

const fieldsAndReasons = (causes: { field: string; reason: string }[]) => causes.map((c) => `${c.field} ${c.reason}`);

describe('validateObjectMeta', () => {
  it.each([
    ['a name', { name: 'ada' }],
    ['a generateName only', { generateName: 'person-' }],
    ['an empty name with a generateName', { name: '', generateName: 'person-' }],
    [
      'labels, annotations and finalizers',
      {
        name: 'ada',
        labels: { app: 'web' },
        annotations: { 'example.com/note': 'hi' },
        finalizers: ['example.com/f'],
      },
    ],
    ['null maps, as JSON may send them', { name: 'ada', labels: null, annotations: null, finalizers: null }],
    ['server-owned fields (ignored here; the server replaces them)', { name: 'ada', uid: 5, version: 'x' }],
  ])('accepts %s', (_what, meta) => {
    expect(validateObjectMeta(meta)).toEqual([]);
  });

  it.each([
    ['no name and no generateName', {}, ['metadata.name FieldValueRequired']],
    ['an empty name', { name: '' }, ['metadata.name FieldValueRequired']],
    ['an uppercase name', { name: 'Ada' }, ['metadata.name FieldValueInvalid']],
    ['a 254-character name', { name: 'a'.repeat(254) }, ['metadata.name FieldValueTooLong']],
    ['a name with a leading -', { name: '-ada' }, ['metadata.name FieldValueInvalid']],
    ['a name with ..', { name: 'a..b' }, ['metadata.name FieldValueInvalid']],
    ['a bad generateName', { generateName: '-p' }, ['metadata.generateName FieldValueInvalid']],
    ['a name that is not a string', { name: 42 }, ['metadata.name FieldValueTypeInvalid']],
    ['labels that are not an object', { name: 'a', labels: ['x'] }, ['metadata.labels FieldValueTypeInvalid']],
    ['annotations that are a string', { name: 'a', annotations: 'x' }, ['metadata.annotations FieldValueTypeInvalid']],
    ['finalizers that are not an array', { name: 'a', finalizers: 'x' }, ['metadata.finalizers FieldValueTypeInvalid']],
  ])('refuses %s', (_what, meta, expected) => {
    expect(fieldsAndReasons(validateObjectMeta(meta))).toEqual(expected);
  });

  it.each([
    ['undefined', undefined, 'metadata FieldValueRequired'],
    ['null', null, 'metadata FieldValueRequired'],
    ['a string', 'ada', 'metadata FieldValueTypeInvalid'],
    ['an array', [], 'metadata FieldValueTypeInvalid'],
  ])('refuses metadata that is %s', (_what, meta, expected) => {
    expect(fieldsAndReasons(validateObjectMeta(meta))).toEqual([expected]);
  });

  it('reports every failing field, not just the first', () => {
    const causes = validateObjectMeta({
      name: 'Bad_Name',
      labels: { 'a/b/c': 'x', app: '-web' },
      annotations: { 'x/y/z': '' },
      finalizers: ['example.com/f', 'example.com/f', 'bad finalizer'],
    });
    expect(fieldsAndReasons(causes)).toEqual([
      'metadata.name FieldValueInvalid',
      'metadata.labels FieldValueInvalid',
      'metadata.labels FieldValueInvalid',
      'metadata.annotations FieldValueInvalid',
      'metadata.finalizers[1] FieldValueDuplicate',
      'metadata.finalizers[2] FieldValueInvalid',
    ]);
  });

  it('allows dots in the name of a Model', () => {
    expect(validateObjectMeta({ name: 'persons.example.com' })).not.toEqual([]);
    expect(validateObjectMeta({ name: 'persons.example.com' }, { dns1123Subdomain: true })).toEqual([]);
  });

  it('passes restrictPlatformKeys and its allow-list to the label check', () => {
    const meta = { name: 'r', labels: { app: 'x', 'svc.run/role-template': 'true' } };
    expect(validateObjectMeta(meta)).toEqual([]);
    const restricted = validateObjectMeta(meta, {
      restrictPlatformKeys: true,
      allowedPlatformKeys: ['svc.run/role-template'],
    });
    expect(fieldsAndReasons(restricted)).toEqual(['metadata.labels FieldValueForbidden']);
    expect(restricted[0].message).toContain('"app"');
  });

  it('gives causes that render as a Kubernetes Invalid status', () => {
    const status = invalid({ kind: 'Person', name: 'Ada' }, validateObjectMeta({ name: 'Ada' })).toStatus();
    expect(status.code).toBe(422);
    expect(status.message).toMatch(
      /^Person "Ada" is invalid: metadata.name: Invalid value: "Ada": a lowercase RFC 1123 name/,
    );
    expect(status.details?.causes).toEqual([
      expect.objectContaining({ field: 'metadata.name', reason: 'FieldValueInvalid' }),
    ]);
  });
});

describe('validateMetadataUpdate', () => {
  const deleting = { deletionTimestamp: '2026-11-22T02:28:01.123Z', finalizers: ['example.com/a', 'example.com/b'] };

  it.each([
    ['keeping the finalizers', deleting, { finalizers: ['example.com/a', 'example.com/b'] }],
    ['removing one', deleting, { finalizers: ['example.com/b'] }],
    ['removing all', deleting, {}],
    ['reordering them', deleting, { finalizers: ['example.com/b', 'example.com/a'] }],
    ['adding one before deletion', { finalizers: [] }, { finalizers: ['example.com/new'] }],
  ])('allows %s', (_what, old, next) => {
    expect(validateMetadataUpdate(old, next)).toEqual([]);
  });

  it('refuses a new finalizer once deletionTimestamp is set, naming it', () => {
    expect(
      validateMetadataUpdate(deleting, { finalizers: ['example.com/z', 'example.com/a', 'example.com/c'] }),
    ).toEqual([
      {
        field: 'metadata.finalizers',
        reason: 'FieldValueForbidden',
        message:
          'Forbidden: no new finalizers can be added if the object is being deleted, ' +
          'found new finalizers ["example.com/c","example.com/z"]',
      },
    ]);
  });

  it('refuses a first finalizer on a marked object that had none', () => {
    const causes = validateMetadataUpdate(
      { deletionTimestamp: '2026-11-22T02:28:01Z' },
      { finalizers: ['example.com/a'] },
    );
    expect(fieldsAndReasons(causes)).toEqual(['metadata.finalizers FieldValueForbidden']);
  });
});
