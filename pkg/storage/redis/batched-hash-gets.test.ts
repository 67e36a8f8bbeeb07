import { BatchedHashGets, type HashGetClient } from './batched-hash-gets';

/** A hash store that records the commands it is sent. */
function fakeClient(hashes: Record<string, Record<string, string>>, failing?: Error) {
  const sent: string[] = [];
  const client: HashGetClient = {
    hget: async (key, field) => {
      sent.push(`HGET ${key} ${field}`);
      if (failing) throw failing;
      return hashes[key]?.[field] ?? null;
    },
    hmget: async (key, ...fields) => {
      sent.push(`HMGET ${key} ${fields.join(' ')}`);
      if (failing) throw failing;
      return fields.map((field) => hashes[key]?.[field] ?? null);
    },
  };
  return { client, sent };
}

describe('BatchedHashGets', () => {
  it('sends the gets of one turn as one HMGET per hash, each answered with its own field', async () => {
    const { client, sent } = fakeClient({ a: { x: '1', y: '2' }, b: { z: '3' } });
    const gets = new BatchedHashGets(client);
    const answers = await Promise.all([
      gets.get('a', 'x'),
      gets.get('a', 'missing'),
      gets.get('b', 'z'),
      gets.get('a', 'y'),
    ]);
    expect(answers).toEqual(['1', null, '3', '2']);
    expect(sent).toEqual(['HMGET a x missing y', 'HGET b z']);
  });

  it('batches the gets that promise callbacks of the same turn ask, and sends a later turn its own command', async () => {
    const { client, sent } = fakeClient({ a: { x: '1', y: '2' } });
    const gets = new BatchedHashGets(client);
    const afterAwait = (async () => {
      await Promise.resolve();
      return gets.get('a', 'y');
    })();
    expect(await Promise.all([gets.get('a', 'x'), afterAwait])).toEqual(['1', '2']);
    expect(await gets.get('a', 'x')).toBe('1');
    expect(sent).toEqual(['HMGET a x y', 'HGET a x']);
  });

  it('fails every get of a batch whose command fails', async () => {
    const { client } = fakeClient({}, new Error('connection lost'));
    const gets = new BatchedHashGets(client);
    const results = await Promise.allSettled([gets.get('a', 'x'), gets.get('a', 'y')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(gets.get('a', 'x')).rejects.toThrow('connection lost');
  });
});
