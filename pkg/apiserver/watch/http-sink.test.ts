import { createServer, request, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { httpSink } from './http-sink';
import { serializeWire } from './serialize';

const event = (name: string) => serializeWire('ADDED', { metadata: { name } });
const names = (body: string) =>
  body
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { object: { metadata: { name: string } } }).object.metadata.name);

/** A server whose requests are answered by `handle`, on a port the OS picks. */
async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; port: number }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function get(port: number, path: string, agent: Agent): Promise<{ body: string; reused: boolean; encoding?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (piece: string) => {
        body += piece;
      });
      res.on('end', () => resolve({ body, reused: req.reusedSocket, encoding: res.headers['transfer-encoding'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `/plain` answers `after`; anything else is a watch of events a to e, sent alone, as a batch and later. */
function watchOrPlain(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/plain') {
    res.end('after');
    return;
  }
  const sink = httpSink(res);
  sink.send([event('a')]);
  sink.send([event('b'), event('c'), event('d')]);
  sink.send([]);
  setImmediate(() => {
    sink.send([event('e')]);
    sink.close();
  });
}

/** Writes `requests` (raw HTTP/1.1, pipelined) on one connection and answers everything read until the server closes it. */
function exchange(port: number, requests: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(requests));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (piece: string) => {
      text += piece;
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('httpSink', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('streams single events and batches as a valid chunked body, and leaves the connection reusable', async () => {
    let port: number;
    ({ server, port } = await serve(watchOrPlain));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const watch = await get(port, '/watch', agent);
      expect(watch.encoding).toBe('chunked');
      expect(names(watch.body)).toEqual(['a', 'b', 'c', 'd', 'e']);
      const next = await get(port, '/plain', agent);
      expect(next).toMatchObject({ body: 'after', reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('keeps the order when the watch is pipelined behind another response', async () => {
    let releaseFirst: () => void = () => undefined;
    const secondSent = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let secondHadConnection: boolean | undefined;
    let port: number;
    ({ server, port } = await serve((req, res) => {
      const sink = httpSink(res);
      if (req.url === '/first') {
        sink.send([event('first-1')]);
        void secondSent.then(() => {
          sink.send([event('first-2')]);
          sink.close();
        });
      } else {
        // Node has not given this response its connection yet: the first one still holds it.
        secondHadConnection = res.socket !== null;
        sink.send([event('second-1'), event('second-2')]);
        sink.close();
        releaseFirst();
      }
    }));
    const raw = await exchange(
      port,
      'GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    const bodies = raw
      .split(/HTTP\/1\.1 200 OK\r\n/)
      .slice(1)
      .map(dechunk);
    expect(secondHadConnection).toBe(false);
    expect(bodies.map(names)).toEqual([
      ['first-1', 'first-2'],
      ['second-1', 'second-2'],
    ]);
  });
});

/** The body of one chunked HTTP/1.1 response (head included in `message`), checking the framing. */
function dechunk(message: string): string {
  let at = message.indexOf('\r\n\r\n') + 4;
  let body = '';
  for (;;) {
    const lineEnd = message.indexOf('\r\n', at);
    const size = parseInt(message.slice(at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error(`bad chunk size at ${at}: ${JSON.stringify(message.slice(at, at + 20))}`);
    if (size === 0) return body;
    body += message.slice(lineEnd + 2, lineEnd + 2 + size);
    if (message.slice(lineEnd + 2 + size, lineEnd + 4 + size) !== '\r\n') throw new Error('chunk not followed by CRLF');
    at = lineEnd + 4 + size;
  }
}
