import { invalid } from '../../api/errors';
import type { Model } from '../model';
import type { StoreHooks } from '../resource-store';

/** User names the platform keeps for itself: the visitor without credentials. */
const RESERVED_USER_NAMES = new Set(['anonymous']);

/**
 * `User` (core group, `/api/v1alpha1/users`): a person who logs in. The
 * password is not part of the object: it is set through `…/users/{name}/password`
 * and kept as a hash where no API reads it (pkg/registry/security/credentials.ts).
 */
export const USER_KIND: Model = {
  group: '',
  version: 'v1alpha1',
  kind: 'User',
  singular: 'user',
  plural: 'users',
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          displayName: { type: 'string', maxLength: 253 },
          email: { type: 'string', maxLength: 320 },
          /** A disabled user cannot log in, and their tokens stop working. */
          disabled: { type: 'boolean' },
        },
      },
      status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
  indexes: [{ name: 'spec.email', indexFunc: (o) => (o.spec as { email?: string } | undefined)?.email }],
  printerColumns: [
    { name: 'Display Name', type: 'string', jsonPath: '.spec.displayName' },
    { name: 'Email', type: 'string', jsonPath: '.spec.email' },
    { name: 'Disabled', type: 'boolean', jsonPath: '.spec.disabled' },
  ],
};

/** Refuses the reserved user names. */
export const userHooks: StoreHooks = {
  beforeCreate(object) {
    const name = object.metadata.name ?? '';
    if (RESERVED_USER_NAMES.has(name)) {
      throw invalid({ kind: 'User', name }, [
        { field: 'metadata.name', reason: 'FieldValueForbidden', message: `"${name}" is reserved` },
      ]);
    }
    return object;
  },
};
