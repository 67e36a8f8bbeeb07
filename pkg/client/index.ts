/**
 * The svc API client: `new ApiClient({server})`, resources addressed by
 * `{group, version, plural}`, typed errors.
 */
export { ApiClient, type ApiClientConfig } from './api-client';
export { WatchStream } from './watch-stream';
export { retryOnConflict } from './retry';
export type { DiscoveredResource } from './discovery';
export type { HttpRequest } from './transport';
export { apiVersionOf, collectionPath, describeResource, objectPath, type ResourceRef } from './resource';
export {
  ApiError,
  ExpiredError,
  NetworkError,
  errorFromStatus,
  isAlreadyExists,
  isConflict,
  isExpired,
  isResourceVersionTooLarge,
  isNetworkError,
  isNotFound,
} from './errors';
export type {
  DeleteOptions,
  DeleteResult,
  ListOptions,
  ListResult,
  PatchOptions,
  PatchType,
  Preconditions,
  RequestOptions,
  WatchEvent,
  WatchEventType,
  WatchOptions,
  WriteOptions,
} from './types';
