import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { linearRegExp } from './linear-regexp';

/** Annotation-only keywords ajv must accept in strict mode: they change pruning or publishing, not validation. */
const ANNOTATIONS = [
  'example',
  'externalDocs',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
];

/**
 * A fresh ajv for one model's schema: all errors reported, strict (an unknown
 * format or a keyword misuse such as `nullable` without `type` is a compile
 * error), the ajv-formats formats (date-time, email, uri, int32, byte…) and
 * `x-kubernetes-int-or-string`; `pattern`s run on RE2 (linear time). One instance per schema, so that replacing a
 * Model releases everything compiled for its old schema.
 */
export function newAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    code: { regExp: linearRegExp },
  });
  addFormats(ajv);
  ajv.addVocabulary(ANNOTATIONS);
  ajv.addKeyword({
    keyword: 'x-kubernetes-int-or-string',
    schemaType: 'boolean',
    validate: (flag: boolean, data: unknown) => !flag || typeof data === 'string' || Number.isInteger(data),
  });
  return ajv;
}
