import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { routeNotFound } from '../api/errors';
import { readBody } from './body';
import { prefersProblemJson, sendError } from './respond';

/** A logger whose lines the test reads. */
function capture() {
  const lines: { level: number; msg: string }[] = [];
  return { lines, log: pino({ level: 'debug' }, { write: (l: string) => void lines.push(JSON.parse(l)) }) };
}

/** A response that records what was sent; `gone` when its connection is closed. */
function response(gone: boolean) {
  const sent: { code?: number; destroyed: boolean } = { destroyed: false };
  const res = {
    headersSent: false,
    destroyed: gone,
    writeHead: (code: number) => {
      sent.code = code;
    },
    end: () => undefined,
    destroy: () => {
      sent.destroyed = true;
    },
  } as unknown as ServerResponse;
  return { res, sent };
}

const request = (gone: boolean) =>
  ({ headers: {}, url: '/x', socket: { destroyed: gone } }) as unknown as IncomingMessage;
const connectionReset = () => Object.assign(new Error('aborted'), { code: 'ECONNRESET' });

describe('sendError', () => {
  it('logs an unexpected failure at error level and answers 500', () => {
    const { lines, log } = capture();
    const { res, sent } = response(false);
    sendError(request(false), res, new Error('bug'), log);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([[50, 'request failed']]);
    expect(sent.code).toBe(500);
  });

  it.each([
    ['the connection was reset', false, connectionReset()],
    ['the connection is closed', true, new Error('write after end')],
  ])('logs a failure because %s at debug level only, and answers nobody', (_what, gone, err) => {
    const { lines, log } = capture();
    const { res, sent } = response(gone);
    sendError(request(gone), res, err, log);
    expect(lines.map((l) => l.level)).toEqual([20]);
    expect(sent).toEqual({ destroyed: true });
  });

  it('answers a Status error without logging it', () => {
    const { lines, log } = capture();
    const { res, sent } = response(false);
    sendError(request(false), res, routeNotFound(), log);
    expect(lines).toEqual([]);
    expect(sent.code).toBe(404);
  });
});

describe('readBody', () => {
  it('a request stream closed before the body is whole is a 400, not a server error', async () => {
    const req = Object.assign(new PassThrough(), { headers: {} }) as unknown as IncomingMessage;
    req.push('{"half":');
    req.destroy();
    await expect(readBody(req, 1024)).rejects.toMatchObject({ code: 400 });
  });
});
describe('prefersProblemJson', () => {
  it.each([
    ['application/problem+json', true],
    ['application/problem+json, */*;q=0.1', true],
    ['application/json, application/problem+json', true],
    ['application/json, application/problem+json;q=0.5', false],
    ['*/*', false],
    ['application/json', false],
    ['application/problem+json;q=0', false],
    ['application/json;q=0.2, application/problem+json;q=0.8', true],
    [undefined, false],
  ])('Accept %s → %s', (accept, expected) => {
    expect(prefersProblemJson(accept)).toBe(expected);
  });
});
