import { Writable } from 'node:stream';
import { createLogger, logFormat } from './log';
import { formatLogLine } from './log-text';

/** A stream that keeps what is written to it. */
function sink() {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { out, text: () => chunks.join('') };
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('logFormat', () => {
  it('is text at a terminal and JSON otherwise, unless SVC_LOG_FORMAT says', () => {
    expect(logFormat({}, true)).toBe('text');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ SVC_LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ SVC_LOG_FORMAT: 'text' }, false)).toBe('text');
  });
});

describe('createLogger', () => {
  it('writes JSON lines with an ISO-8601 time', async () => {
    const { out, text } = sink();
    createLogger('info', 'json', out).child({ reqId: 'r1' }).info({ code: 200 }, 'request');
    await new Promise((r) => setImmediate(r));
    const line = JSON.parse(text());
    expect(line).toMatchObject({ level: 30, reqId: 'r1', code: 200, msg: 'request' });
    expect(line.time).toMatch(ISO);
  });

  it('writes text lines: time, level, message, then key=value', async () => {
    const { out, text } = sink();
    createLogger('info', 'text', out).child({ reqId: 'r1' }).warn({ path: '/a b', code: 503 }, 'Redis lost');
    await new Promise((r) => setImmediate(r));
    const [time, ...rest] = text().split(' ');
    expect(time).toMatch(ISO);
    expect(rest.join(' ')).toBe('WARN  Redis lost reqId=r1 path="/a b" code=503\n');
  });
});

describe('formatLogLine', () => {
  it("shows an error's stack on indented lines after the line", () => {
    const line = formatLogLine(
      JSON.stringify({
        level: 50,
        time: '2026-01-02T03:04:05.678Z',
        msg: 'request failed',
        err: { message: 'boom', stack: 'Error: boom\n    at x' },
      }),
    );
    expect(line).toBe('2026-01-02T03:04:05.678Z ERROR request failed\n  Error: boom\n      at x\n');
  });

  it('passes a line that is not JSON through', () => {
    expect(formatLogLine('plain')).toBe('plain\n');
  });
});
