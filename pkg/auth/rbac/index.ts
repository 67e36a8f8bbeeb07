/** The RBAC engine: rule matching, compiled rule sets, effective roles, the authoriser. Pure: no storage, no HTTP. */
export * from './types';
export * from './conditions';
export * from './rules';
export * from './rule-set';
export * from './effective';
export * from './admission';
export * from './role-write-effect';
export * from './held-roles';
export * from './escalation';
export * from './explain';
export * from './authorizer';
export * from './unusable-conditions';
