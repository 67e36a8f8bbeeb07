import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { scriptSources } from '../../pkg/storage/redis/scripts/sources';
import { sharedRedisUrl } from '../support/redis';

// Every script as a store defines it, in both index layouts, compiles in Redis's Lua: SCRIPT LOAD parses it
// (and answers its SHA-1) without running it.

let redis: Redis;

beforeAll(() => {
  redis = new Redis(sharedRedisUrl());
});

afterAll(async () => {
  await redis.quit();
});

describe.each(['plain', 'bucketed'] as const)('the %s layout', (layout) => {
  it.each(Object.entries(scriptSources(layout)))('%s compiles', async (_name, lua) => {
    const sha = await redis.script('LOAD', lua);
    expect(sha).toBe(createHash('sha1').update(lua).digest('hex'));
  });
});

it('refuses a script that is not Lua, so the check above means something', async () => {
  await expect(redis.script('LOAD', `${scriptSources('plain').svcFinishBuild}\nend end`)).rejects.toThrow(
    /Error compiling script/,
  );
});
