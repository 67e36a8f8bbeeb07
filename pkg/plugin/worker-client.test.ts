import { isNotFound } from '../client/errors';
import type { ApiAnswer, ApiCall } from './protocol';
import { AnswerResponse, pluginClient } from './worker-client';

const THINGS = { group: 'things.example.com', version: 'v1', plural: 'things' };
const data = (inProcess: boolean) => ({
  name: 'things',
  version: '1.0.0',
  settings: {},
  api: { server: 'http://127.0.0.1:1', token: 'plugin-token', inProcess },
});

describe("a plugin's ctx.client answered in process", () => {
  it('hands each request to the host, path and headers, and reads its answer', async () => {
    const calls: ApiCall[] = [];
    const answer = (status: number, body: unknown): ApiAnswer => ({
      status,
      headers: [['content-type', 'application/json']],
      body: JSON.stringify(body),
    });
    const client = pluginClient(data(true), async (call) => {
      calls.push(call);
      if (call.method === 'POST') return answer(201, JSON.parse(call.body!));
      return call.url.endsWith('/a')
        ? answer(200, { apiVersion: 'things.example.com/v1', kind: 'Thing', metadata: { name: 'a' } })
        : answer(404, { kind: 'Status', code: 404, reason: 'NotFound', message: 'things "b" not found' });
    })!;
    expect((await client.get(THINGS, 'a')).metadata.name).toBe('a');
    expect(calls[0]).toMatchObject({
      method: 'GET',
      url: '/apis/things.example.com/v1/things/a',
      headers: { authorization: 'Bearer plugin-token', accept: 'application/json' },
    });
    const missing = await client.get(THINGS, 'b').catch((err: unknown) => err);
    expect(isNotFound(missing)).toBe(true);
    await client.create(THINGS, { apiVersion: 'things.example.com/v1', kind: 'Thing', metadata: { name: 'c' } });
    expect(calls[2]).toMatchObject({ method: 'POST', url: '/apis/things.example.com/v1/things' });
    expect(JSON.parse(calls[2].body!)).toMatchObject({ metadata: { name: 'c' } });
  });

  it('gives up on a request whose signal aborts, and does not use the host without in-process access', async () => {
    const never = new Promise<ApiAnswer>(() => undefined);
    const client = pluginClient(data(true), () => never)!;
    const controller = new AbortController();
    const pending = client.get(THINGS, 'a', { signal: controller.signal });
    controller.abort(new Error('given up'));
    await expect(pending).rejects.toThrow('given up');
    const calls: ApiCall[] = [];
    const overHttp = pluginClient(data(false), async (call) => {
      calls.push(call);
      return never;
    })!;
    await expect(overHttp.get(THINGS, 'a')).rejects.toThrow();
    expect(calls).toEqual([]);
  });

  it("reads an answer's status, headers (repeated ones joined, any case) and text, and no body for a 204", async () => {
    const answer = new AnswerResponse({
      status: 404,
      headers: [
        ['content-type', 'application/json'],
        ['warning', '299 - "one"'],
        ['warning', '299 - "two"'],
      ],
      body: '{"kind":"Status"}',
    });
    expect(answer.ok).toBe(false);
    expect(answer.headers.get('Warning')).toBe('299 - "one", 299 - "two"');
    expect(answer.headers.get('etag')).toBeNull();
    expect(await answer.json()).toEqual({ kind: 'Status' });
    const empty = new AnswerResponse({ status: 204, headers: [], body: 'ignored' });
    expect(empty.ok).toBe(true);
    expect(await empty.text()).toBe('');
  });
});
