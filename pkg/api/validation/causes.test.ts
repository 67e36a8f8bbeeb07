import {
  duplicateValue,
  forbiddenValue,
  invalidValue,
  notSupported,
  requiredValue,
  tooLong,
  typeInvalid,
} from './causes';

describe('cause builders: Kubernetes field error bodies', () => {
  it.each([
    [
      'invalid number',
      invalidValue('spec.age', -1, 'must be at least 0'),
      'FieldValueInvalid',
      'Invalid value: -1: must be at least 0',
    ],
    ['invalid string', invalidValue('metadata.name', 'Ada', 'rule'), 'FieldValueInvalid', 'Invalid value: "Ada": rule'],
    ['required', requiredValue('spec', 'spec is required'), 'FieldValueRequired', 'Required value: spec is required'],
    [
      'too long',
      tooLong('spec.name', 100, 'characters'),
      'FieldValueTooLong',
      'Too long: may not be more than 100 characters',
    ],
    ['forbidden', forbiddenValue('metadata.finalizers', 'no'), 'FieldValueForbidden', 'Forbidden: no'],
    [
      'not supported',
      notSupported('spec.gender', 'X', ['MALE', 'FEMALE']),
      'FieldValueNotSupported',
      'Unsupported value: "X": supported values: "MALE", "FEMALE"',
    ],
    ['duplicate', duplicateValue('metadata.finalizers[1]', 'a'), 'FieldValueDuplicate', 'Duplicate value: "a"'],
    [
      'type',
      typeInvalid('spec.age', 'x', 'integer'),
      'FieldValueTypeInvalid',
      'Invalid value: "x": must be of type integer',
    ],
  ])('%s', (_title, cause, reason, message) => {
    expect(cause.reason).toBe(reason);
    expect(cause.message).toBe(message);
  });

  it('quotes a value JSON cannot represent', () => {
    expect(invalidValue('x', undefined, 'rule').message).toBe('Invalid value: undefined: rule');
  });
});
