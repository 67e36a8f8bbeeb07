/**
 * Metadata validation (docs/api.md): each function returns every failing field
 * as Kubernetes-style causes for a 422 `Invalid` (`invalid()` in ../errors).
 */
export * from './causes';
export * from './dns';
export * from './qualified-name';
export * from './name';
export * from './labels';
export * from './annotations';
export * from './finalizers';
export * from './platform-keys';
export * from './object-meta';
