import '../../pkg/storage/redis';
import { openStorage } from '../../pkg/storage/backends';
import { runStorageConformance } from '../../pkg/storage/testing/suite';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';

// The whole conformance suite against the Redis backend, each case under its own key prefix.
runStorageConformance('redis', (options) =>
  openStorage(sharedRedisUrl(), { ...options, keyPrefix: uniqueKeyPrefix() }),
);
