import type { Model } from '../model';

/** The annotation that carries a new token's secret, in the creation response only (docs/security.md). */
export const ACCESS_TOKEN_ANNOTATION = 'security.svc.run/access-token';

/** The spec of a PersonalAccessToken. */
export interface TokenSpec {
  /** Whose token it is; set by the server to the caller. */
  username: string;
  displayName?: string;
  /** RFC 3339; the token stops working then. */
  expiresAt?: string;
  /** When set, the token carries only these of its user's roles. */
  roles?: string[];
}

/**
 * `PersonalAccessToken` (core group, `/api/v1alpha1/personalaccesstokens`):
 * administrators see (and revoke) every token there. Users create, list and
 * revoke their own under `uc.api.security.svc.run` (pkg/apiserver/security).
 * The secret is never stored: only its SHA-256, apart from the object.
 */
export const TOKEN_KIND: Model = {
  group: '',
  version: 'v1alpha1',
  kind: 'PersonalAccessToken',
  singular: 'personalaccesstoken',
  plural: 'personalaccesstokens',
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['username'],
        properties: {
          username: { type: 'string', minLength: 1 },
          displayName: { type: 'string', maxLength: 253 },
          expiresAt: { type: 'string', format: 'date-time' },
          roles: { type: 'array', items: { type: 'string', minLength: 1 } },
        },
      },
      status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
  indexes: [{ name: 'spec.username', indexFunc: (o) => (o.spec as Partial<TokenSpec> | undefined)?.username }],
  printerColumns: [
    { name: 'User', type: 'string', jsonPath: '.spec.username' },
    { name: 'Display Name', type: 'string', jsonPath: '.spec.displayName' },
    { name: 'Expires', type: 'date', jsonPath: '.spec.expiresAt' },
  ],
  // Tokens are minted by the user-centre API only, where the secret is made; here they are read and revoked.
  verbs: ['get', 'list', 'watch', 'delete', 'deletecollection'],
};
