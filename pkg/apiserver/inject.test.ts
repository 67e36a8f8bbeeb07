import { injectRequest } from './inject';

describe('injectRequest', () => {
  it('runs a request through a handler without a connection, and collects its answer', async () => {
    const answer = await injectRequest(
      async (req, res) => {
        let body = '';
        for await (const chunk of req) body += String(chunk);
        res.setHeader('X-Request-Id', 'r1');
        res.writeHead(201, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization, body }));
      },
      { method: 'POST', url: '/apis/x/v1/things?dryRun=All', headers: { Authorization: 'Bearer t' }, body: 'hi' },
    );
    expect(answer.status).toBe(201);
    expect(answer.headers).toEqual([
      ['x-request-id', 'r1'],
      ['content-type', 'application/json'],
    ]);
    expect(JSON.parse(answer.body)).toEqual({
      method: 'POST',
      url: '/apis/x/v1/things?dryRun=All',
      auth: 'Bearer t',
      body: 'hi',
    });
  });

  it('rejects when the handler destroys the response or throws', async () => {
    await expect(
      injectRequest(async (_req, res) => void res.destroy(), { method: 'GET', url: '/', headers: {} }),
    ).rejects.toThrow('the apiserver ended the answer without finishing it');
    await expect(
      injectRequest(
        async () => {
          throw new Error('broken');
        },
        { method: 'GET', url: '/', headers: {} },
      ),
    ).rejects.toThrow('broken');
  });
});
