import { logger } from '../../util/log';
import { isStorageError } from '../errors';
import { NAME_INDEX } from '../indexes';
import { redisRetryBackoff, translateError } from './connection';
import type { IndexBuild } from './index-builder';

const log = logger.child({ component: 'redis-value-set-fill' });

/** What filling one index's value sets works with: an index build's, without progress reporting. */
export type ValueSetFill = Pick<IndexBuild, 'client' | 'type' | 'keys' | 'spec' | 'state' | 'batchSize' | 'signal'>;

/**
 * Fills the value sets of an index that is built but has none yet (it was
 * built before value sets existed, ADR 0010, or before it asked for them):
 * walks the names in batches and enters each object under the values stored
 * for it, then marks the sets ready, from when lists use them. Until then lists take the index's sorted
 * set, so queries stay answered meanwhile. Retries while Redis is
 * unreachable; stops when the index is dropped or the storage closes (a
 * later `defineType` starts again: entering an object twice changes nothing).
 */
export async function fillValueSets(fill: ValueSetFill): Promise<void> {
  const { client, keys, spec, state, type } = fill;
  const backoff = redisRetryBackoff();
  let from = '-';
  for (;;) {
    if (fill.signal.aborted || !state.declares(spec.name)) return;
    try {
      const members = await client.zrangebylex(keys.index(NAME_INDEX), from, '+', 'LIMIT', 0, fill.batchSize);
      if (members.length === 0) {
        await client.svcFinishValueSets(2, keys.indexStates, keys.valueSetStates, spec.name);
        return;
      }
      const names = members.map((m) => m.slice(m.lastIndexOf('\0') + 1));
      await client.svcFillValueSets(1, keys.indexValues, spec.name, keys.valueSetPrefix, ...names);
      backoff.reset();
      from = `(${members[members.length - 1]}`;
    } catch (err) {
      const error = translateError(err, `fill the value sets of index ${spec.name} of ${type}`);
      if (!isStorageError(error, 'Unavailable')) {
        log.error({ err: error, type, index: spec.name }, 'filling value sets failed');
        return;
      }
      await backoff.wait(fill.signal);
    }
  }
}
