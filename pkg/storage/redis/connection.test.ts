import { redisTarget, translateError } from './connection';
import { StorageError, isStorageError } from '../errors';

describe('redisTarget', () => {
  it('keeps host, port and db for ioredis and takes the key prefix and index layout out of the query', () => {
    expect(redisTarget(new URL('redis://h:6380/2?keyPrefix=t1&indexLayout=bucketed'), { keyPrefix: 'opt' })).toEqual({
      topology: { kind: 'single', url: 'redis://h:6380/2' },
      keyPrefix: 't1',
      indexLayout: 'bucketed',
      compression: 'none',
      ack: 'primary',
    });
    expect(
      redisTarget(new URL('rediss://:secret@h:6380/0?compression=deflate'), {
        keyPrefix: 'opt',
        indexLayout: 'bucketed',
      }),
    ).toEqual({
      topology: { kind: 'single', url: 'rediss://:secret@h:6380/0' },
      keyPrefix: 'opt',
      indexLayout: 'bucketed',
      compression: 'deflate',
      ack: 'primary',
    });
    expect(redisTarget(new URL('redis://h:6379/0'), {})).toMatchObject({
      keyPrefix: 'svc',
      indexLayout: 'plain',
      compression: 'none',
    });
  });

  it('refuses a prefix with braces, which would move the hash tag, and an unknown index layout', () => {
    expect(() => redisTarget(new URL('redis://h:6379/0?keyPrefix=a{b}'), {})).toThrow(/braces/);
    expect(() => redisTarget(new URL('redis://h:6379/0?indexLayout=btree'), {})).toThrow(
      'indexLayout "btree" must be plain or bucketed',
    );
    expect(() => redisTarget(new URL('redis://h:6379/0?compression=zstd'), {})).toThrow(
      'compression "zstd" must be none or deflate',
    );
    expect(() => redisTarget(new URL('redis://h:6379/0?ack=disk'), {})).toThrow(
      'ack "disk" must be primary or replica or aof',
    );
  });

  it('takes ack out of the query for every topology', () => {
    const target = redisTarget(new URL('redis+cluster://a:7000?ack=replica&keyPrefix=p'), {}, ['a:7000', 'b:7001']);
    expect(target).toMatchObject({ ack: 'replica', keyPrefix: 'p' });
    expect(target.topology).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7001 },
      ],
      tls: false,
    });
  });
});

describe('translateError', () => {
  it('makes lost connections and transient replies Unavailable, and passes other errors through', () => {
    const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });
    expect(isStorageError(translateError(new Error('Connection is closed.'), 'get'), 'Unavailable')).toBe(true);
    expect(isStorageError(translateError(reply('LOADING Redis is loading the dataset'), 'get'), 'Unavailable')).toBe(
      true,
    );
    const bug = reply('ERR user_script:12: attempt to index a nil value');
    expect(translateError(bug, 'get')).toBe(bug);
    const own = new StorageError('NotFound', 'gone');
    expect(translateError(own, 'get')).toBe(own);
  });
});
