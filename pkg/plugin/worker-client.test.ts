import type { ObjectReadAnswer } from '../api/object-read';
import { ApiError, isNotFound, NetworkError } from '../client/errors';
import type { ApiAnswer, ApiCall, ApiRead } from './protocol';
import { AnswerResponse, callerClient, pluginClient } from './worker-client';

const THINGS = { group: 'things.example.com', version: 'v1', plural: 'things' };
const data = (inProcess: boolean) => ({
  name: 'things',
  version: '1.0.0',
  settings: {},
  api: { server: 'http://127.0.0.1:1', token: 'plugin-token', inProcess },
});

describe("a plugin's ctx.client answered in process", () => {
  const answer = (status: number, body: unknown): ApiAnswer => ({
    status,
    headers: [['content-type', 'application/json']],
    body: JSON.stringify(body),
  });
  const noRead = async (): Promise<ObjectReadAnswer> => ({ unserved: true });

  it('hands each request but a plain read to the host, path and headers, and reads its answer', async () => {
    const calls: ApiCall[] = [];
    const client = pluginClient(data(true), {
      call: async (call) => {
        calls.push(call);
        if (call.method === 'POST') return answer(201, JSON.parse(call.body!));
        return answer(200, { kind: 'Status', status: 'Success' });
      },
      read: noRead,
    })!;
    await client.create(THINGS, { apiVersion: 'things.example.com/v1', kind: 'Thing', metadata: { name: 'c' } });
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/apis/things.example.com/v1/things',
      headers: { authorization: 'Bearer plugin-token', accept: 'application/json' },
    });
    expect(JSON.parse(calls[0].body!)).toMatchObject({ metadata: { name: 'c' } });
  });

  it('reads gets and lists as values: the object, a refusal as the ApiError of its Status', async () => {
    const reads: ApiRead[] = [];
    const client = pluginClient(data(true), {
      call: () => Promise.reject(new Error('a read is no request')),
      read: async (read) => {
        reads.push(read);
        if (read.read.verb === 'list')
          return { object: { kind: 'ThingList', metadata: { resourceVersion: '7', continue: 'next' }, items: [] } };
        return read.read.name === 'a'
          ? { object: { apiVersion: 'things.example.com/v1', kind: 'Thing', metadata: { name: 'a' } } }
          : {
              status: {
                kind: 'Status',
                apiVersion: 'v1',
                metadata: {},
                status: 'Failure',
                code: 404,
                reason: 'NotFound',
                message: 'things "b" not found',
              },
            };
      },
    })!;
    expect((await client.get(THINGS, 'a')).metadata.name).toBe('a');
    expect(reads[0]).toEqual({
      read: { verb: 'get', group: 'things.example.com', version: 'v1', resource: 'things', name: 'a' },
    });
    const missing = await client.get(THINGS, 'b').catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(ApiError);
    expect(isNotFound(missing)).toBe(true);
    expect((missing as ApiError).message).toBe('things "b" not found');
    const signal = new AbortController().signal;
    const listed = await client.list(THINGS, { labelSelector: 'a=b', limit: 5, sort: ['metadata.name,desc'], signal });
    expect(listed).toEqual({ items: [], resourceVersion: '7', continue: 'next' });
    expect(reads[2]).toEqual({
      read: {
        verb: 'list',
        group: 'things.example.com',
        version: 'v1',
        resource: 'things',
        options: { labelSelector: 'a=b', limit: 5, sort: ['metadata.name,desc'] },
      },
    });
  });

  it('sends a read the host leaves unserved as a request, and fails one whose answer failed as fetch would', async () => {
    const calls: ApiCall[] = [];
    const client = pluginClient(data(true), {
      call: async (call) => {
        calls.push(call);
        return answer(200, { kind: 'Thing', metadata: { name: 'a' } });
      },
      read: noRead,
    })!;
    expect((await client.get(THINGS, 'a')).metadata.name).toBe('a');
    expect(calls).toMatchObject([{ method: 'GET', url: '/apis/things.example.com/v1/things/a' }]);
    const failing = pluginClient(data(true), {
      call: () => Promise.reject(new Error('unused')),
      read: () => Promise.reject(new TypeError('fetch failed', { cause: new Error('the worker is going away') })),
    })!;
    const failed = await failing.list(THINGS).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(NetworkError);
    expect((failed as Error).message).toContain('the worker is going away');
  });

  it('names the route request a req.client read acts for, which the host alone turns into the caller', async () => {
    const reads: ApiRead[] = [];
    const client = callerClient(
      data(true),
      {
        call: () => Promise.reject(new Error('unused')),
        read: async (read) => {
          reads.push(read);
          return { object: { kind: 'Thing', metadata: { name: 'a' } } };
        },
      },
      12,
    )!;
    await client.impersonating('admin').get(THINGS, 'a');
    expect(reads).toEqual([
      {
        read: { verb: 'get', group: 'things.example.com', version: 'v1', resource: 'things', name: 'a' },
        onBehalfOf: 12,
      },
    ]);
  });

  it('gives up on a read or request whose signal aborts, and does not use the host without in-process access', async () => {
    const never = new Promise<never>(() => undefined);
    const client = pluginClient(data(true), { call: () => never, read: () => never })!;
    const controller = new AbortController();
    const pending = client.get(THINGS, 'a', { signal: controller.signal });
    controller.abort(new Error('given up'));
    await expect(pending).rejects.toThrow('given up');
    const writing = new AbortController();
    const created = client.create(
      THINGS,
      { apiVersion: 'things.example.com/v1', kind: 'Thing', metadata: { name: 'c' } },
      { signal: writing.signal },
    );
    writing.abort(new Error('given up too'));
    await expect(created).rejects.toThrow('given up too');
    const used: string[] = [];
    const overHttp = pluginClient(data(false), {
      call: async () => {
        used.push('call');
        return never;
      },
      read: async () => {
        used.push('read');
        return never;
      },
    })!;
    await expect(overHttp.get(THINGS, 'a')).rejects.toThrow();
    expect(used).toEqual([]);
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
