import { describeTopology, redisTopology } from './topology';

describe('redisTopology', () => {
  it('passes redis:// and rediss:// through for ioredis', () => {
    expect(redisTopology(new URL('rediss://:pw@h:6380/2'), ['h:6380'])).toEqual({
      kind: 'single',
      url: 'rediss://:pw@h:6380/2',
    });
  });

  it('reads Sentinels, the master name, the db and the data nodes\u2019 credentials', () => {
    const url = new URL('rediss+sentinel://svc:p%40ss@s1:26379/primary-1/3');
    expect(redisTopology(url, ['s1:26379', 's2', '[::1]:26380'])).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'primary-1',
      db: 3,
      username: 'svc',
      password: 'p@ss',
      tls: true,
    });
    expect(redisTopology(new URL('redis+sentinel://s1/m'), ['s1'])).toMatchObject({ name: 'm', db: 0, tls: false });
  });

  it('reads Cluster seeds, default port 6379, and refuses a db', () => {
    expect(redisTopology(new URL('redis+cluster://n1'), ['n1', 'n2:7001'])).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'n1', port: 6379 },
        { host: 'n2', port: 7001 },
      ],
      tls: false,
    });
    expect(() => redisTopology(new URL('redis+cluster://n1/0'), ['n1'])).toThrow(/has no path/);
  });

  it('refuses what it cannot use, naming it and never the password', () => {
    expect(() => redisTopology(new URL('redis+sentinel://s1'), ['s1'])).toThrow(/\/<master name>/);
    expect(() => redisTopology(new URL('redis+sentinel://s1/a/b/c'), ['s1'])).toThrow(/\/<master name>/);
    expect(() => redisTopology(new URL('redis+sentinel://s1/m/99x'), ['s1'])).toThrow(/\/<master name>/);
    expect(() => redisTopology(new URL('redis+cluster://n1'), ['n1:99999'])).toThrow('"n1:99999" is not a host:port');
    expect(() => redisTopology(new URL('redis+cluster://n1?family=6'), ['n1'])).toThrow(/no query parameter "family"/);
    expect(() => redisTopology(new URL('redis+mesh://n1'), ['n1'])).toThrow(/not a Redis URL scheme/);
  });

  it('describes where it points without credentials', () => {
    const sentinel = redisTopology(new URL('redis+sentinel://u:secret@s1:1/m'), ['s1:1', 's2:2']);
    expect(describeTopology(sentinel)).toBe('primary "m" of the Sentinels s1:1,s2:2');
    expect(describeTopology(redisTopology(new URL('redis://:secret@h:7/0'), ['h:7']))).toBe('h:7');
  });
});
